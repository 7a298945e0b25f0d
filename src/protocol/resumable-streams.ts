/**
 * The wire of resumable streams (docs/protocol.md, "Resumable streams (0.4)"), written once for the
 * client, the reference service, the proxy and the event log: the header that offers them, the
 * short start's preference, the multiplexed read's path (a task's events read is in
 * match-route.ts, with the other paths of a task), and what a position is. The schemas of the
 * multiplexed read are in follow-schemas.ts, so that only what reads or serves it loads them.
 */

/** The header every answer of a service that offers resumable streams carries, with the value `1`. */
export const RESUMABLE_HEADER = 'x-taskwire-resumable';

/** The preference a short start sends (`Prefer`), and the service repeats in `Preference-Applied`. */
export const RESPOND_ASYNC = 'respond-async';

/** The path of the multiplexed read, below the base URL: two segments, no task endpoint's shape. */
export const FOLLOW_PATH = '/workflows/events';

/**
 * The task name the activity feed gives the multiplexed read's own call (its requests and errors);
 * each event of it is reported under its own task.
 */
export const FOLLOW_TASK = '*';

/** The most tasks one multiplexed read follows. */
export const MAX_FOLLOWED_TASKS = 100;

/** Whether a `Prefer` header asks for `respond-async` (among other preferences, in any case). */
export function prefersRespondAsync(prefer: string | null): boolean {
  if (prefer === null) return false;
  return prefer
    .split(',')
    .some((preference) => preference.split(/[;=]/)[0]?.trim().toLowerCase() === RESPOND_ASYNC);
}

/** Whether an answer's headers say that its service offers resumable streams. */
export function offersResumableStreams(headers: Headers): boolean {
  return headers.get(RESUMABLE_HEADER)?.trim() === '1';
}

/** A position as the wire carries it: a non-empty string of visible ASCII, at most 64 characters. */
export const POSITION_PATTERN = /^[\x21-\x7e]{1,64}$/;

/** Whether `value` can be a position (docs/protocol.md, "Resumable streams (0.4)"). */
export function isPosition(value: unknown): value is string {
  return typeof value === 'string' && POSITION_PATTERN.test(value);
}
