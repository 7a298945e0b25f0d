/**
 * A call's own deadline beside the caller's signal: both abort one request, and which of them fired
 * decides the error, `timeout` for the deadline and `aborted` for the caller (docs/protocol.md,
 * "The client").
 */
import { TaskwireError } from './errors.js';
import { abortedError } from './request.js';

/**
 * Runs `work` with a signal that aborts when `signal` does or after `ms`; an abort by the deadline
 * rejects with `timeout()` instead of `aborted`.
 */
export async function withDeadline<Value>(
  signal: AbortSignal | undefined,
  ms: number,
  timeout: () => TaskwireError,
  work: (signal: AbortSignal) => Promise<Value>,
): Promise<Value> {
  if (signal?.aborted) throw abortedError(signal);
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, ms);
  try {
    return await work(controller.signal);
  } catch (error) {
    if (timedOut && TaskwireError.isInstance(error) && error.code === 'aborted') throw timeout();
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The `timeout` of a request past the client's `requestTimeoutMs`: worth trying again. */
export function requestTimeout(what: string, ms: number, taskId?: string): TaskwireError {
  return new TaskwireError('timeout', `${what} did not come within ${ms} ms.`, {
    retryable: true,
    taskId,
  });
}
