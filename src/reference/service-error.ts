/**
 * The errors the reference service answers with (docs/protocol.md, "Error bodies"). Every refusal is
 * thrown as a {@link ServiceError} inside the handler and turned into the one error body at its
 * edge, so no code path can answer an error of another shape.
 */

/** Every `reason` of docs/protocol.md, "Error bodies". */
export type ErrorReason =
  | 'UNAUTHENTICATED'
  | 'INVALID_HEADER'
  | 'MALFORMED_REQUEST'
  | 'MALFORMED_BODY'
  | 'INVALID_PARAMS'
  | 'INVALID_NOTIFICATION'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'REQUEST_TIMEOUT'
  | 'TASK_NOT_FOUND'
  | 'RESULT_NOT_FOUND'
  | 'RESULT_EXPIRED'
  | 'METHOD_NOT_ALLOWED'
  | 'NOT_FOUND'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'RATE_LIMITED'
  | 'TOO_MANY_TASKS'
  | 'EXECUTE_TIMEOUT'
  | 'TASK_ERROR'
  | 'INTERNAL';

/** What the service answers for a refused request, before it becomes a JSON error body. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';

  constructor(
    /** HTTP status of the answer. */
    readonly statusCode: number,
    /** The machine-readable reason (docs/protocol.md, "Error bodies"). */
    readonly reason: ErrorReason,
    message: string,
    /** Extra answer headers, such as `Allow` or `Retry-After`. */
    readonly headers: Readonly<Record<string, string>> = {},
    /** The task concerned, for `EXECUTE_TIMEOUT`. */
    readonly taskId?: string,
  ) {
    super(message);
  }
}
