/**
 * Aborts and deadlines: a call's own deadline beside the caller's signal aborts one request, and
 * which of them fired decides the error, `timeout` for the deadline and `aborted` for the caller
 * (docs/protocol.md, "The client").
 */
import { TaskwireError } from './errors.js';

/** Does nothing; used to mark promises whose rejection is deliberately ignored. */
export function noop(): void {}

/** The `aborted` error, carrying the signal's reason as its cause. */
export function abortedError(signal: AbortSignal, taskId?: string): TaskwireError {
  return new TaskwireError('aborted', 'The request was aborted.', { taskId, cause: signal.reason });
}

/**
 * Settles like `promise`, or rejects with the signal's reason as soon as it aborts: a custom `fetch`
 * (an in-process service) may not watch the request's signal, and a caller must not wait for it.
 */
export function raceAbort<Value>(promise: Promise<Value>, signal: AbortSignal): Promise<Value> {
  if (signal.aborted) {
    promise.catch(noop);
    return Promise.reject(signal.reason);
  }
  return new Promise<Value>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

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

/**
 * Waits `ms`, or rejects with the signal's reason when it aborts first: the wait between two tries
 * of a request (a Submit's retries, a log read opened again).
 */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
