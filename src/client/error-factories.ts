/**
 * The `TaskwireError`s the client makes itself, each with a message that names what went wrong and
 * where (docs/protocol.md, "Error bodies"): refusals of calls that break the contract, answers that
 * break it, requests that got no answer, deadlines.
 */
import { TaskwireError } from './errors.js';

/** Client-side refusal reasons: requests the client will not send because they break the contract. */
type RefusalReason =
  | 'INVALID_TASK_NAME'
  | 'INVALID_TASK_ID'
  | 'INVALID_PARAMS'
  | 'INVALID_HEADER'
  | 'INVALID_BASE_URL';

/** A `protocol` error for a request the client refuses to send; `status` stays undefined. */
export function refusal(reason: RefusalReason, message: string): TaskwireError {
  return new TaskwireError('protocol', message, { reason });
}

/** A `protocol` error about an answer or event; `what` says which one. */
export function protocolError(
  what: string,
  problem: string,
  taskId?: string,
  cause?: unknown,
): TaskwireError {
  return new TaskwireError('protocol', `${what} breaks the contract: ${problem}`, {
    taskId,
    cause,
  });
}

/** The `timeout` of a request past the client's `requestTimeoutMs`: worth trying again. */
export function requestTimeout(what: string, ms: number, taskId?: string): TaskwireError {
  return new TaskwireError('timeout', `${what} did not come within ${ms} ms.`, {
    retryable: true,
    taskId,
  });
}

/** A URL as messages show it: origin and path, never a query that might hold a secret. */
export function withoutQuery(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** Error codes of Node and undici that say the connection was never made, so nothing was sent. */
const CONNECT_FAILURES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * What proves that the connection was never made, where the runtime tells: the first connection
 * error code in `error`'s cause chain (Node), or a browser that says it is offline.
 */
function connectFailureOf(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause && depth < 4; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECT_FAILURES.has(code)) return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  const navigator = (globalThis as { navigator?: { onLine?: unknown } }).navigator;
  return navigator?.onLine === false ? 'the browser is offline' : undefined;
}

/**
 * The `network` error of a request that got no answer, naming the method and the URL and saying
 * that the service could not be reached (docs/protocol.md, "Error bodies"). Where the runtime
 * proves the connection was never made (a refused connection in Node, an offline browser), the
 * reason is `CONNECT_FAILED` and the message says that nothing was sent; otherwise the request may
 * have reached the service, and the message does not claim otherwise.
 */
export function networkError(
  method: string,
  url: string,
  cause: unknown,
  taskId?: string,
): TaskwireError {
  const where = `${method} ${withoutQuery(url)}`;
  const refused = connectFailureOf(cause);
  return refused === undefined
    ? new TaskwireError(
        'network',
        `${where} got no answer: the service could not be reached, or the connection broke before it answered, so the outcome is unknown. Check that the service runs there and that the baseUrl is right.`,
        { cause, taskId },
      )
    : new TaskwireError('network', `${where}: could not connect (${refused}); nothing was sent.`, {
        cause,
        taskId,
        reason: 'CONNECT_FAILED',
      });
}
