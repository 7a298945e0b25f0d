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
import { answerEvents, answerFollow } from './endpoints/events.js';
import { answerExecute } from './endpoints/execute.js';
import { answerGetResult } from './endpoints/get-result.js';
import { answerOpenApiDocument, OPENAPI_PATH } from './endpoints/openapi-document.js';
import { answerOptions } from './endpoints/options.js';
import { answerStream } from './endpoints/stream.js';
import { answerSubmit } from './endpoints/submit.js';
import {
  matchEventsRoute,
  matchRoute,
  methodOf,
  methodOfEventsRead,
  type EventsRoute,
} from '../protocol/match-route.js';
import { prefersRespondAsync, RESPOND_ASYNC } from '../protocol/resumable-streams.js';
import type { EventLog } from '../events/event-log.js';
import { parseJsonBody, parseJsonObject } from './parse-json-body.js';
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
  const log = context.events;
  // The reads of resumable streams are endpoints only of a service that offers them.
  const eventsRoute = log === undefined ? undefined : matchEventsRoute(pathname, context.basePath);
  if (log !== undefined && eventsRoute !== undefined) {
    return handleEventsRead(context, log, eventsRoute, request);
  }
  const route = matchRoute(pathname, context.basePath);
  if (route === undefined) throw new ServiceError(404, 'NOT_FOUND', 'No endpoint at this path.');
  const userId = checkUser(context, request, methodOf(route.endpoint));
  if (typeof userId !== 'string') return userId;
  // A short start (docs/protocol.md, "Resumable streams (0.4)") is a stream answered as a Submit.
  const shortStart =
    route.endpoint === 'stream' &&
    log !== undefined &&
    prefersRespondAsync(request.headers.get('prefer'));
  const idempotencyKey = checkOptionalHeaders(
    request.headers,
    route.endpoint === 'submit' || shortStart,
  );
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
    case 'stream': {
      if (!shortStart) return answerStream(context, call, request.signal);
      const idempotency =
        idempotencyKey === undefined
          ? undefined
          : { key: idempotencyKey, fingerprint: await submitFingerprint(body) };
      const answer = answerSubmit(context, call, { notification: undefined, idempotency });
      answer.headers.set('preference-applied', RESPOND_ASYNC);
      return answer;
    }
    case 'execute':
      return answerExecute(context, call);
    case 'options':
      return answerOptions(call);
    default:
      return route.endpoint satisfies never;
  }
}

/**
 * The steps every endpoint shares, in order: method (405, after a CORS preflight, which needs no
 * token), tokens (401), rate limit (429); resolves to the user's id, or to the preflight's answer.
 */
function checkUser(
  context: ServiceContext,
  request: Request,
  method: 'GET' | 'POST',
): string | Response {
  const allow = `${method}, OPTIONS`;
  // A CORS preflight needs no token (docs/protocol.md, "Headers and tokens").
  if (request.method === 'OPTIONS') {
    return optionsRequestResponse(request, allow, context.events !== undefined);
  }
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
  return userId;
}

/**
 * A read of resumable streams, checked in the order of every endpoint: route, method, tokens, rate
 * limit, headers; then the task name of an events read (404 `TASK_NOT_FOUND`, as Get Result), or
 * the content type, size and body of the multiplexed read.
 */
async function handleEventsRead(
  context: ServiceContext,
  log: EventLog,
  route: EventsRoute,
  request: Request,
): Promise<Response> {
  const userId = checkUser(context, request, methodOfEventsRead(route));
  if (typeof userId !== 'string') return userId;
  checkOptionalHeaders(request.headers, false);
  if (route.read === 'events') {
    context.findTask(route.taskName);
    return answerEvents(context, log, route, userId, request);
  }
  checkJsonContentType(request.headers);
  const body = parseJsonObject(await readBody(request, context.bodyBytes));
  return answerFollow(context, log, body, userId, request.signal);
}
