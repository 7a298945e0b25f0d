/**
 * The errors the reference service answers with (CONTRACT 1.2). Every refusal is thrown as a
 * {@link ServiceError} inside the handler and turned into the one error body at its edge, so no
 * code path can answer an error of another shape.
 */

/** Every `reason` of CONTRACT 1.2. */
export type ErrorReason =
  | 'UNAUTHENTICATED'
  | 'INVALID_HEADER'
  | 'MALFORMED_BODY'
  | 'INVALID_PARAMS'
  | 'INVALID_NOTIFICATION'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'TASK_NOT_FOUND'
  | 'RESULT_NOT_FOUND'
  | 'RESULT_EXPIRED'
  | 'METHOD_NOT_ALLOWED'
  | 'NOT_FOUND'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'RATE_LIMITED'
  | 'EXECUTE_TIMEOUT'
  | 'TASK_ERROR'
  | 'INTERNAL';

/** What the service answers for a refused request, before it becomes a JSON error body. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';

  constructor(
    /** HTTP status of the answer. */
    readonly statusCode: number,
    /** The machine-readable reason (CONTRACT 1.2). */
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
