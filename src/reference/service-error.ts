/**
 * The errors the reference service answers with (docs/protocol.md, "Error bodies"). Every refusal is
 * thrown as a {@link ServiceError} inside the handler and turned into the one error body at its
 * edge, so no code path can answer an error of another shape.
 */

/**
 * Every `reason` of docs/protocol.md, "Error bodies", with the HTTP statuses it is answered with:
 * the one list of reasons, which the `ErrorReason` type and the OpenAPI document both read.
 */
export const ERROR_REASON_STATUSES = {
  UNAUTHENTICATED: [401],
  INVALID_HEADER: [400, 431],
  MALFORMED_REQUEST: [400],
  MALFORMED_BODY: [400],
  INVALID_PARAMS: [422],
  INVALID_NOTIFICATION: [422],
  UNSUPPORTED_MEDIA_TYPE: [415],
  PAYLOAD_TOO_LARGE: [413],
  REQUEST_TIMEOUT: [408],
  TASK_NOT_FOUND: [404],
  RESULT_NOT_FOUND: [404],
  RESULT_EXPIRED: [410],
  METHOD_NOT_ALLOWED: [405],
  NOT_FOUND: [404],
  IDEMPOTENCY_KEY_REUSED: [422],
  RATE_LIMITED: [429],
  TOO_MANY_TASKS: [429],
  EXECUTE_TIMEOUT: [504],
  // The reads of resumable streams (docs/protocol.md, "Resumable streams (0.4)").
  EVENTS_EXPIRED: [410],
  EVENTS_UNAVAILABLE: [503],
  INVALID_FOLLOW: [422],
  // Only ever a failed task's reason (with `statusCode` 500 in its result), never an answer's.
  TASK_ERROR: [],
  INTERNAL: [500],
} as const satisfies Readonly<Record<string, readonly number[]>>;

/**
 * Every `reason` of docs/protocol.md, "Error bodies".
 *
 * @useDeclaredType
 */
export type ErrorReason = keyof typeof ERROR_REASON_STATUSES;

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
