/**
 * Reading an error answer (docs/protocol.md, "Error bodies"): loaded on the first one, since a call
 * that goes well never needs it.
 */
import { errorBodySchema, type ErrorBody } from '../protocol/error-body.js';
import { parseRetryAfter } from '../protocol/retry-after.js';
import { TaskwireError } from './errors.js';
import { readCapped } from './request.js';

/** The most of an error body kept in `TaskwireError.body`: 64 KiB, enough for any proxy's page. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * The error for a non-2xx answer: `http` with status, reason and body (the parsed error body, or the
 * raw text when it is not one, such as a proxy's HTML page, cut at 64 KiB and marked so), or
 * `timeout` for `EXECUTE_TIMEOUT`.
 */
export async function errorFromResponse(
  response: Response,
  signal: AbortSignal,
  taskId?: string,
): Promise<TaskwireError> {
  const { text, cut } = await readCapped(response, MAX_ERROR_BODY_BYTES, signal, taskId);
  let body: ErrorBody | undefined;
  try {
    if (!cut) body = errorBodySchema.safeParse(JSON.parse(text)).data;
  } catch {
    // Not JSON: the text itself is the body.
  }
  const { status } = response;
  const message = body
    ? `The service answered ${status} ${body.reason}: ${body.message}`
    : `The service answered ${status}${response.statusText ? ` ${response.statusText}` : ''}.`;
  return new TaskwireError(body?.reason === 'EXECUTE_TIMEOUT' ? 'timeout' : 'http', message, {
    status,
    body:
      body ??
      (cut ? `${text}\n[cut: the body was larger than ${MAX_ERROR_BODY_BYTES} bytes]` : text),
    reason: body?.reason,
    taskId: body?.taskId ?? taskId,
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
  });
}
