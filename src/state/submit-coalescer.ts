/**
 * Makes sure one intent to submit creates one task: a retry of the same call reuses its idempotency
 * key, and a call with the same content as one still in flight joins it (a double click, or a React
 * StrictMode double effect). The wait before such a retry, shared by `useSubmitTask` and a stream
 * over budget, and the retries of a stream over budget's Submit, are here too.
 */
import { pause } from '../client/abort.js';
import { TaskwireError } from '../client/errors.js';
import { canonicalJson } from '../protocol/canonical-json.js';
import { retryDelay } from '../protocol/retry-after.js';
import { randomUuid } from '../protocol/random-uuid.js';

/** What identifies a submit call. */
export interface SubmitCall {
  /** The task's params. */
  params: unknown;
  /** The notification request, if any. */
  notification?: unknown;
  /** An idempotency key chosen by the caller; otherwise one is generated per call. */
  idempotencyKey?: string;
}

/** Runs submit calls so that none creates a second task. */
export interface SubmitCoalescer {
  /**
   * Runs `send` with the call's idempotency key, or joins the identical call in flight. Pass the very
   * same `call` object again to retry it with the same key.
   */
  run<Answer>(
    task: string,
    call: SubmitCall,
    send: (idempotencyKey: string) => Promise<Answer>,
  ): Promise<Answer>;
  /** The idempotency key `call` was sent under (or joined the call in flight with), or `undefined` before it ran. */
  keyOf(call: SubmitCall): string | undefined;
}

/**
 * Creates a {@link SubmitCoalescer}; `newKey` defaults to a random UUID from `crypto.getRandomValues`
 * (`crypto.randomUUID` is missing on plain-http origins).
 */
export function createSubmitCoalescer(newKey: () => string = randomUuid): SubmitCoalescer {
  // Keyed by the call object itself: a retry passes the very same object again.
  const keysByCall = new WeakMap<SubmitCall, string>();
  const inFlight = new Map<string, { idempotencyKey: string; promise: Promise<unknown> }>();
  return {
    run<Answer>(
      task: string,
      call: SubmitCall,
      send: (idempotencyKey: string) => Promise<Answer>,
    ): Promise<Answer> {
      const content = canonicalJson([
        task,
        call.params,
        call.notification ?? null,
        call.idempotencyKey ?? null,
      ]);
      const joined = inFlight.get(content);
      if (joined) {
        keysByCall.set(call, joined.idempotencyKey);
        return joined.promise as Promise<Answer>;
      }
      const idempotencyKey = call.idempotencyKey ?? keysByCall.get(call) ?? newKey();
      keysByCall.set(call, idempotencyKey);
      const promise = send(idempotencyKey).finally(() => {
        if (inFlight.get(content)?.promise === promise) inFlight.delete(content);
      });
      inFlight.set(content, { idempotencyKey, promise });
      return promise;
    },
    keyOf: (call) => keysByCall.get(call),
  };
}

/**
 * The delay before retry number `attempt` of a Submit that failed with `error`: the one wait of
 * every request that may heal (`retryDelay`), the service's `Retry-After` when it sent one, else
 * 1 s, 2 s, 4 s… up to 10 s. In TanStack Query's `retryDelay` shape, for useSubmitTask's mutation.
 */
export function submitRetryDelay(attempt: number, error: unknown): number {
  return retryDelay(attempt, TaskwireError.isInstance(error) ? error.retryAfterMs : undefined);
}

/** How often a Submit is sent again after a retryable failure, by default: three times. */
export const SUBMIT_RETRIES = 3;

/**
 * Whether a Submit that failed `failures` times, the last with `error`, is sent again (with the same
 * key): only a retryable failure, at most `retries` times. The one rule of both drivers of a
 * Submit's retries: TanStack Query's retryer under useSubmitTask's mutation (its `failureCount` and
 * its pause while offline are the mutation's), and {@link submitWithRetries} for a stream over its
 * budget, which has no mutation. In TanStack Query's `retry` shape.
 */
export function retriesSubmit(failures: number, error: unknown, retries = SUBMIT_RETRIES): boolean {
  return TaskwireError.isInstance(error) && error.retryable && failures <= retries;
}

/**
 * Sends one Submit with `send`, under one idempotency key, and again with the same key after a
 * retryable failure (up to three times, waiting {@link submitRetryDelay}), so that one intent makes
 * one task: resolves to the task id. Rejects with the failure that ends it, or with the signal's
 * reason when it aborts during a wait.
 */
export async function submitWithRetries(
  send: (idempotencyKey: string) => Promise<{ id: string }>,
  signal: AbortSignal,
  newKey: () => string = randomUuid,
): Promise<string> {
  const idempotencyKey = newKey();
  for (let attempt = 0; ; attempt++) {
    try {
      return (await send(idempotencyKey)).id;
    } catch (error) {
      if (!retriesSubmit(attempt + 1, error) || signal.aborted) throw error;
      await pause(submitRetryDelay(attempt, error), signal);
    }
  }
}
