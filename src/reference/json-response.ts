/**
 * Builders of the service's JSON answers: the success envelope (§2.7) and the error body (CONTRACT
 * 1.2). Both are `no-store`, since a task record changes from one poll to the next.
 */
import type { ServiceError } from './service-error.js';

/** A JSON answer with the given status, body and extra headers. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    },
  });
}

/** The success envelope `{ status: 'success', response }`. */
export function successResponse(
  status: number,
  response: unknown,
  headers: Readonly<Record<string, string>> = {},
): Response {
  return jsonResponse(status, { status: 'success', response }, headers);
}

/** The error body of CONTRACT 1.2, plus `taskId` when the error concerns a known task. */
export function errorResponse(error: ServiceError): Response {
  const body: Record<string, unknown> = {
    status: 'error',
    statusCode: error.statusCode,
    reason: error.reason,
    message: error.message,
  };
  if (error.taskId !== undefined) body.taskId = error.taskId;
  return jsonResponse(error.statusCode, body, error.headers);
}
