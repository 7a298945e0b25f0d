/**
 * Builders of the service's JSON answers: the success envelope (docs/protocol.md, "Records") and
 * the error body (docs/protocol.md, "Error bodies"). Both are `no-store`, since a task record changes
 * from one poll to the next.
 */
import type { ServiceError } from './service-error.js';

/** The headers of every JSON answer. */
export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
});

/** A JSON answer with the given status, body and extra headers. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** The success envelope `{ status: 'success', response }`. */
export function successResponse(
  status: number,
  response: unknown,
  headers: Readonly<Record<string, string>> = {},
): Response {
  return jsonResponse(status, { status: 'success', response }, headers);
}

/** The error body of `error`, plus `taskId` when the error concerns a known task. */
export function errorBody(error: ServiceError): Record<string, unknown> {
  const body: Record<string, unknown> = {
    status: 'error',
    statusCode: error.statusCode,
    reason: error.reason,
    message: error.message,
  };
  if (error.taskId !== undefined) body.taskId = error.taskId;
  return body;
}

/** The answer carrying the error body of `error`, with its status and extra headers. */
export function errorResponse(error: ServiceError): Response {
  return jsonResponse(error.statusCode, errorBody(error), error.headers);
}
