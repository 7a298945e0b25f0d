/**
 * The schemas of the multiplexed read of resumable streams (docs/protocol.md, "Resumable streams
 * (0.4)"): its body, and its messages.
 */
import * as z from 'zod/mini';
import { errorBodySchema } from './error-body.js';
import { taskNameSchema } from './names.js';
import { jsonObjectSchema, taskIdSchema } from './records.js';
import { MAX_FOLLOWED_TASKS, POSITION_PATTERN } from './resumable-streams.js';

/** A position as the wire carries it (see `isPosition`). */
export const positionSchema = z.string().check(z.regex(POSITION_PATTERN));

/** One task a multiplexed read follows: its name, its id, and the position it has (or null). */
export const followedTaskSchema = z.object({
  task: taskNameSchema,
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
