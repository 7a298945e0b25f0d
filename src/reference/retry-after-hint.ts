/**
 * The `Retry-After` hint of a task that has not ended (docs/protocol.md, "Get Result"): the task's
 * own estimate of the seconds it has left, in whole seconds, never below 1 (the header's least) and
 * never above 5, so that an estimate that is wrong, or a task that never reports one, cannot park a
 * client for long.
 */

/** The longest `Retry-After` hint the service gives for a task that has not ended, in seconds. */
export const MAX_RETRY_AFTER_SECONDS = 5;

/** The hint for a task expected to end in `estimatedSecondsLeft` seconds: rounded up, 1 to 5. */
export function retryAfterSeconds(estimatedSecondsLeft: number): number {
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(estimatedSecondsLeft)));
}
