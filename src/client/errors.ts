/**
 * The one error family of taskwire. Everything that goes wrong *around* a task (HTTP, network,
 * protocol, timeout, abort) is a `TaskwireError`; a task that itself failed is data, not an error.
 */
import type { ErrorBody } from '../protocol/error-body.js';

/**
 * What kind of failure a {@link TaskwireError} is: `http` (the service answered an error, or a
 * redirect), `network`, `timeout`, `protocol` (an answer or a call that breaks the protocol),
 * `aborted`, or `auth` (the app's token function or `onUnauthorized` failed).
 */
export type TaskwireErrorCode = 'http' | 'network' | 'timeout' | 'protocol' | 'aborted' | 'auth';

/** Everything a {@link TaskwireError} can carry besides its code and message. */
export interface TaskwireErrorDetails {
  /** HTTP status of the answer, for `http` (and `timeout` from the service's 504). */
  status?: number;
  /**
   * The `reason` of the error body (docs/protocol.md, "Error bodies"), when the service sent one.
   */
  reason?: string;
  /** The parsed error body, or the raw text of a body that was not one (an HTML 502 from a proxy). */
  body?: ErrorBody | string;
  /** The task this error concerns, when it is known. */
  taskId?: string;
  /** How long the service asked the caller to wait before trying again (`Retry-After`). */
  retryAfterMs?: number;
  /** The underlying error. */
  cause?: unknown;
  /**
   * Whether the same call may succeed later. Defaults by code: `network` and `auth` are, `http` is
   * for 408, 429 and 5xx, the others are not.
   */
  retryable?: boolean;
}

const marker = Symbol.for('taskwire.error');

/** Statuses after which the same request may succeed if sent again later. */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * An error of the taskwire client. Check with {@link TaskwireError.isInstance}, which also works
 * across duplicate copies of the package, then switch on `code`.
 */
// Fields are `declare`d and set in the constructor: no field initialisers to emit twice.
export class TaskwireError extends Error {
  override readonly name = 'TaskwireError';
  /** What kind of failure this is. */
  declare readonly code: TaskwireErrorCode;
  /** HTTP status, for `http` and for the service's `EXECUTE_TIMEOUT`. */
  declare readonly status: number | undefined;
  /** The service's `reason`, when it sent an error body. */
  declare readonly reason: string | undefined;
  /** The parsed error body, or the raw text when it was not JSON. */
  declare readonly body: ErrorBody | string | undefined;
  /** The id of the task this error concerns, when known. */
  declare readonly taskId: string | undefined;
  /** The delay the service asked for before a retry, in milliseconds. */
  declare readonly retryAfterMs: number | undefined;
  /** Whether sending the same request again later may succeed (408, 429, 5xx, network, auth, a request's deadline). */
  declare readonly retryable: boolean;
  /** Brand read by {@link TaskwireError.isInstance}; a symbol from the global registry, so copies agree. */
  readonly [marker] = true;

  constructor(code: TaskwireErrorCode, message: string, details: TaskwireErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.status = details.status;
    this.reason = details.reason;
    this.body = details.body;
    this.taskId = details.taskId;
    this.retryAfterMs = details.retryAfterMs;
    this.retryable =
      details.retryable ??
      (code === 'network' ||
        code === 'auth' ||
        (code === 'http' && details.status !== undefined && isRetryableStatus(details.status)));
  }

  /** Whether `value` is a TaskwireError, from this copy of the package or another. */
  static isInstance(value: unknown): value is TaskwireError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[marker] === true
    );
  }

  /** A plain object for logs; it never holds request headers, so no token can leak through it. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      status: this.status,
      reason: this.reason,
      taskId: this.taskId,
      retryable: this.retryable,
      retryAfterMs: this.retryAfterMs,
    };
  }
}
