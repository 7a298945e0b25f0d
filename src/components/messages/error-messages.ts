/**
 * What the components say for an error (docs/protocol.md, "Error bodies"): a text for each code of
 * a `TaskwireError`, and one for each `reason` the service, the client, the journal or the server
 * proxy may give, so an app in another language shows none of the service's or the client's own
 * (English) sentences. {@link errorText} picks the text for an error.
 */

/**
 * The codes of a `TaskwireError` (`TaskwireErrorCode` of `taskwire/client`; the components never
 * import the client, so they name them again).
 */
export type ErrorCodeName = 'http' | 'network' | 'timeout' | 'protocol' | 'aborted' | 'auth';

/**
 * Every `reason` the components have words for: those of docs/protocol.md, "Error bodies", the
 * client's own refusals and findings (`INVALID_TASK_NAME`, `INVALID_TASK_ID`, `INVALID_BASE_URL`,
 * `REDIRECT`, `CONNECT_FAILED`, `NOT_A_TASKWIRE_ANSWER`), the journal's `SCOPE_REQUIRED` and
 * `JOURNAL_ENTRY_REFUSED`, the server proxy's `UPSTREAM_*`, and those of the reads of resumable
 * streams (`EVENTS_EXPIRED`, `EVENTS_UNAVAILABLE`, `INVALID_FOLLOW`).
 */
export type ErrorReasonName =
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
  | 'EVENTS_EXPIRED'
  | 'EVENTS_UNAVAILABLE'
  | 'INVALID_FOLLOW'
  | 'TASK_ERROR'
  | 'INTERNAL'
  | 'INVALID_TASK_NAME'
  | 'INVALID_TASK_ID'
  | 'INVALID_BASE_URL'
  | 'REDIRECT'
  | 'CONNECT_FAILED'
  | 'NOT_A_TASKWIRE_ANSWER'
  | 'SCOPE_REQUIRED'
  | 'JOURNAL_ENTRY_REFUSED'
  | 'UPSTREAM_REDIRECT'
  | 'UPSTREAM_NOT_JSON'
  | 'UPSTREAM_TIMEOUT'
  | 'UPSTREAM_UNAVAILABLE';

/**
 * The words for errors: one per code (`http` a function of the status), one per reason, and
 * `refused` (an error answer whose reason has no message here, such as a service's own), `taskFailed`
 * (a failed task whose reason has none) and `unknown` (anything else).
 */
export type ErrorMessages = Record<Exclude<ErrorCodeName, 'http'> | ErrorReasonName, string> & {
  /**
   * An error answer that is not the protocol's error body (a wrong base URL, a proxy's page), with
   * the HTTP status as a figure: "Unexpected answer (404): the service address may be wrong.".
   */
  http: (status: string | undefined) => string;
  /** An error answer with a reason that has no message of its own: "The service refused the request (409).". */
  refused: (status: string | undefined) => string;
  /** A task that failed with a reason that has no message of its own: "The task failed.". */
  taskFailed: string;
  /** Anything else that went wrong: "Something went wrong.". */
  unknown: string;
};

// Shared by several reasons, so the table holds each once.
const notTaken = 'The service could not take the request.';
const tooSlow = 'The service did not answer in time. Try again.';
const taskFailed = 'The task failed.';
const redirects = 'The service address redirects: it may be wrong.';

/** English error wording, the default. */
export const errorMessages: ErrorMessages = {
  http: (status) =>
    `Unexpected answer${status === undefined ? '' : ` (${status})`}: the service address may be wrong.`,
  refused: (status) =>
    `The service refused the request${status === undefined ? '' : ` (${status})`}.`,
  network: 'No connection to the service. Try again.',
  timeout: tooSlow,
  protocol: "The service's answer could not be read.",
  aborted: 'Cancelled.',
  auth: 'Sign-in failed. Sign in again.',
  taskFailed,
  unknown: 'Something went wrong.',
  UNAUTHENTICATED: 'Not signed in. Sign in again.',
  INVALID_HEADER: notTaken,
  MALFORMED_REQUEST: notTaken,
  MALFORMED_BODY: notTaken,
  INVALID_PARAMS: 'Some input is not valid.',
  INVALID_NOTIFICATION: 'The notification is not valid.',
  UNSUPPORTED_MEDIA_TYPE: notTaken,
  PAYLOAD_TOO_LARGE: 'The request is too large.',
  REQUEST_TIMEOUT: tooSlow,
  TASK_NOT_FOUND: 'The service has no such task.',
  RESULT_NOT_FOUND: 'The task was not found.',
  RESULT_EXPIRED: 'The result has expired.',
  METHOD_NOT_ALLOWED: notTaken,
  NOT_FOUND: 'Nothing at this address: the service address may be wrong.',
  IDEMPOTENCY_KEY_REUSED: 'The request was sent again with other content.',
  RATE_LIMITED: 'Too many requests. Wait, then try again.',
  TOO_MANY_TASKS: 'Too many tasks are running. Wait, then try again.',
  EXECUTE_TIMEOUT: 'The task runs on; its result comes later.',
  EVENTS_EXPIRED: "The task's updates are no longer kept; its result is read instead.",
  EVENTS_UNAVAILABLE: "The task's updates could not be read. Try again later.",
  INVALID_FOLLOW: notTaken,
  TASK_ERROR: taskFailed,
  INTERNAL: 'The service failed. Try again later.',
  INVALID_TASK_NAME: 'The task name is not valid.',
  INVALID_TASK_ID: 'The task id is not valid.',
  INVALID_BASE_URL: 'The service address is not valid.',
  REDIRECT: redirects,
  CONNECT_FAILED: 'The service could not be reached; nothing was sent. Try again.',
  NOT_A_TASKWIRE_ANSWER:
    'The service address answered, but not as the task service: it may be wrong.',
  SCOPE_REQUIRED: 'The task list does not know whose tasks to keep.',
  JOURNAL_ENTRY_REFUSED: 'The task could not be kept in the task list.',
  UPSTREAM_REDIRECT: redirects,
  UPSTREAM_NOT_JSON: 'The service answered with a page instead of data. Try again later.',
  UPSTREAM_TIMEOUT: tooSlow,
  UPSTREAM_UNAVAILABLE: 'The service is not available. Try again later.',
};

const CODES: ReadonlySet<string> = new Set<ErrorCodeName>([
  'http',
  'network',
  'timeout',
  'protocol',
  'aborted',
  'auth',
]);

/** A key of `text` that is a reason's (upper case, so never a code's or one of the others). */
function reasonText(text: ErrorMessages, reason: unknown): string | undefined {
  return typeof reason === 'string' &&
    /^[A-Z][A-Z_]*$/.test(reason) &&
    Object.prototype.hasOwnProperty.call(text, reason)
    ? (text as unknown as Record<string, string>)[reason]
    : undefined;
}

/**
 * The text a component shows for `error`, from `text`: by its `reason` when it has one with a
 * message, else by its `code` (a `TaskwireError`, of this copy of the package or another); a failed
 * task's failure (`{ reason, message }`, as in a FAILED record's `result` or a stream's `failure`)
 * by its reason, else `taskFailed`; an app's own `Error` by its message (the app's own words); and
 * anything else as `unknown`. The service's and the client's own messages are never shown: they are
 * English, and meant for developers.
 */
export function errorText(
  error: unknown,
  text: ErrorMessages,
  formatStatus: (status: number) => string = String,
): string {
  if (typeof error !== 'object' || error === null) return text.unknown;
  const { code, reason, status } = error as { code?: unknown; reason?: unknown; status?: unknown };
  const byReason = reasonText(text, reason);
  if (byReason !== undefined) return byReason;
  const figure = typeof status === 'number' ? formatStatus(status) : undefined;
  if (typeof code === 'string' && CODES.has(code)) {
    if (code !== 'http') return text[code as Exclude<ErrorCodeName, 'http'>];
    return reason === undefined ? text.http(figure) : text.refused(figure);
  }
  if (typeof reason === 'string') return text.taskFailed;
  if (error instanceof Error && error.message !== '') return error.message;
  return text.unknown;
}
