/**
 * The wire of resumable streams (docs/protocol.md, "Resumable streams (0.4)"), written once for the
 * client, the reference service, the proxy and the event log: the header that offers them, the
 * short start's preference, the two reads' paths, and the schemas of the multiplexed read's body
 * and of its messages.
 */
import * as z from 'zod/mini';
import { errorBodySchema } from './error-body.js';
import { TASK_NAME_PATTERN } from './names.js';
import { jsonObjectSchema, taskIdSchema } from './records.js';

/** The header every answer of a service that offers resumable streams carries, with the value `1`. */
export const RESUMABLE_HEADER = 'x-taskwire-resumable';

/** The preference a short start sends (`Prefer`), and the service repeats in `Preference-Applied`. */
export const RESPOND_ASYNC = 'respond-async';

/** The path of the multiplexed read, below the base URL: two segments, no task endpoint's shape. */
export const FOLLOW_PATH = '/workflows/events';

/** The most tasks one multiplexed read follows. */
export const MAX_FOLLOWED_TASKS = 100;

/** The path of a task's events read, below the base URL, each part encoded. */
export function eventsPath(taskName: string, taskId: string): string {
  return `/workflows/${encodeURIComponent(taskName)}/${encodeURIComponent(taskId)}/events`;
}

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
export const positionSchema = z.string().check(z.regex(/^[\x21-\x7e]{1,64}$/));

/** One task a multiplexed read follows: its name, its id, and the position it has (or null). */
export const followedTaskSchema = z.object({
  task: z.string().check(z.regex(TASK_NAME_PATTERN)),
  id: taskIdSchema,
  after: z.nullable(positionSchema),
});

/** The body of a multiplexed read: 1 to 100 tasks, each named once. */
export const followRequestSchema = z.object({
  follow: z.array(followedTaskSchema).check(
    z.minLength(1),
    z.maxLength(MAX_FOLLOWED_TASKS),
    z.refine(
      (tasks) => new Set(tasks.map(({ task, id }) => `${task}\0${id}`)).size === tasks.length,
      'each task may be followed once',
    ),
  ),
});

/** A task a multiplexed read follows. */
export type FollowedTask = z.infer<typeof followedTaskSchema>;

/** One message of a multiplexed read: a task's stream message at its position, or its error. */
export const followMessageSchema = z.union([
  z.object({
    task: z.string(),
    id: z.string(),
    position: positionSchema,
    message: jsonObjectSchema,
  }),
  z.object({ task: z.string(), id: z.string(), error: errorBodySchema }),
]);
