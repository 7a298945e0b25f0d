/**
 * The request pipeline of the reference service: every check a request passes, in the one order the
 * service answers in, then the endpoint that answers it. The order decides which error a request
 * with several faults gets, so it is written out here, step by step, rather than spread over the
 * endpoints.
 */
import { readLimitedBody } from '../protocol/read-limited-body.js';
import {
  authenticate,
  checkJsonContentType,
  checkOptionalHeaders,
} from './check-request-headers.js';
import { checkParams } from './check-params.js';
import { optionsRequestResponse } from './cors.js';
import { answerExecute } from './endpoints/execute.js';
import { answerGetResult } from './endpoints/get-result.js';
import { answerOpenApiDocument, OPENAPI_PATH } from './endpoints/openapi-document.js';
import { answerOptions } from './endpoints/options.js';
import { answerStream } from './endpoints/stream.js';
import { answerSubmit } from './endpoints/submit.js';
import { matchRoute, methodOf } from '../protocol/match-route.js';
import { parseJsonBody } from './parse-json-body.js';
import type { ServiceContext, TaskCall } from './service-context.js';
import { ServiceError } from './service-error.js';
import { submitFingerprint } from './submit-fingerprint.js';
import { validateNotification } from './validate-notification.js';

/** The body's bytes; throws 413 past `limit`, and 400 when the body cannot be read at all. */
async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  const body = await readLimitedBody(request, limit).catch(() => {
    throw new ServiceError(400, 'MALFORMED_BODY', 'The body could not be read.');
  });
  if (body.outcome === 'too-large') {
    throw new ServiceError(413, 'PAYLOAD_TOO_LARGE', `The body is larger than ${limit} bytes.`);
  }
  return body.bytes;
}

/**
 * Answers one request, or throws the {@link ServiceError} it is refused with: route 404, method 405,
 * tokens 401, rate limit 429, headers 400, content type 415, size 413, body 400, task name 404,
 * params 422, notification 422, idempotency key 422, the user's share of tasks 429
 * (docs/protocol.md, "Headers and tokens").
 */
export async function handleRequest(context: ServiceContext, request: Request): Promise<Response> {
  const pathname = new URL(request.url).pathname;
  // The OpenAPI document needs no token, like a CORS preflight; it is no endpoint of the protocol,
  // so none of the checks below applies to it.
  if (pathname === context.basePath + OPENAPI_PATH) return answerOpenApiDocument(context, request);
  const route = matchRoute(pathname, context.basePath);
  if (route === undefined) throw new ServiceError(404, 'NOT_FOUND', 'No endpoint at this path.');
  const method = methodOf(route.endpoint);
  const allow = `${method}, OPTIONS`;
  // A CORS preflight needs no token (docs/protocol.md, "Headers and tokens").
  if (request.method === 'OPTIONS') return optionsRequestResponse(request, allow);
  if (request.method !== method) {
    throw new ServiceError(
      405,
      'METHOD_NOT_ALLOWED',
      `This endpoint takes ${method}, not ${request.method.slice(0, 16)}.`,
      { allow },
    );
  }
  const userId = authenticate(request.headers, context.clientTokens, context.userTokens);
  const waitSeconds = context.rateLimiter?.take(userId);
  if (waitSeconds !== undefined) {
    throw new ServiceError(429, 'RATE_LIMITED', 'Too many requests; try again later.', {
      'retry-after': String(waitSeconds),
    });
  }
  const idempotencyKey = checkOptionalHeaders(request.headers, route.endpoint === 'submit');
  if (route.endpoint === 'result') return answerGetResult(context, route, userId);

  checkJsonContentType(request.headers);
  const body = parseJsonBody(await readBody(request, context.bodyBytes));
  const definition = context.findTask(route.taskName);
  const params = checkParams(definition, body.params);
  const call: TaskCall = { userId, definition, params };
  switch (route.endpoint) {
    case 'submit': {
      const notification = validateNotification(body.notification);
      // The digest is awaited here, before answerSubmit: the key's check and the task it creates
      // happen there in one synchronous step, so concurrent copies of a request make one task.
      const idempotency =
        idempotencyKey === undefined
          ? undefined
          : { key: idempotencyKey, fingerprint: await submitFingerprint(body) };
      return answerSubmit(context, call, { notification, idempotency });
    }
    case 'stream':
      return answerStream(context, call, request.signal);
    case 'execute':
      return answerExecute(context, call);
    case 'options':
      return answerOptions(call);
    default:
      return route.endpoint satisfies never;
  }
}
