/**
 * `GET /openapi.json` (docs/protocol.md, "The reference service"): the OpenAPI document of the
 * service's own tasks. Like a CORS preflight it needs no token: it says what the service serves,
 * nothing about anyone's tasks.
 */
import { optionsRequestResponse } from '../cors.js';
import { JSON_HEADERS } from '../json-response.js';
import { createOpenApiDocument } from '../openapi/create-openapi-document.js';
import type { ServiceContext } from '../service-context.js';
import { ServiceError } from '../service-error.js';

/** The path of the document, below the service's base path. */
export const OPENAPI_PATH = '/openapi.json';

/** The methods the document's path takes. */
const ALLOW = 'GET, OPTIONS';

/**
 * The document of each service, as JSON text, made on the first request: the tasks of a service
 * never change, and another service (other tasks) has its own entry.
 */
const documents = new WeakMap<ServiceContext, string>();

/** Answers a request for the document: 200 to GET, 204 to OPTIONS, 405 with `Allow` otherwise. */
export function answerOpenApiDocument(context: ServiceContext, request: Request): Response {
  if (request.method === 'OPTIONS') {
    return optionsRequestResponse(request, ALLOW, context.events !== undefined);
  }
  if (request.method !== 'GET') {
    throw new ServiceError(
      405,
      'METHOD_NOT_ALLOWED',
      `This path takes GET, not ${request.method.slice(0, 16)}.`,
      { allow: ALLOW },
    );
  }
  let text = documents.get(context);
  if (text === undefined) {
    text = JSON.stringify(createOpenApiDocument({ tasks: context.tasks }));
    documents.set(context, text);
  }
  return new Response(text, { status: 200, headers: JSON_HEADERS });
}
