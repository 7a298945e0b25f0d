/** Zod schemas of the four `task.*` stream events (docs/protocol.md, "Streams"). */
import * as z from 'zod/mini';
import { failureSchema, jsonObjectSchema } from './records.js';
import { usageSchema } from './usage.js';

/** `task.progress` (docs/protocol.md, "Streams"). */
export const progressEventSchema = z.object({
  type: z.literal('task.progress'),
  percent: z.number(),
  estimatedSecondsLeft: z.number(),
});
/** `task.partial-result` (docs/protocol.md, "Streams"). */
export const partialResultEventSchema = z.object({
  type: z.literal('task.partial-result'),
  result: jsonObjectSchema,
});
/**
 * `task.completed` (docs/protocol.md, "Streams"): the final result (null when the task returns
 * none) and usage.
 */
export const completedEventSchema = z.object({
  type: z.literal('task.completed'),
  result: z.nullable(jsonObjectSchema),
  usage: z.optional(usageSchema),
});
/** `task.failed` (docs/protocol.md, "Streams"). */
export const failedEventSchema = z.object({
  type: z.literal('task.failed'),
  result: failureSchema,
});

/** The schema of each known stream event type, by type. */
export const knownStreamEventSchemas = {
  'task.progress': progressEventSchema,
  'task.partial-result': partialResultEventSchema,
  'task.completed': completedEventSchema,
  'task.failed': failedEventSchema,
} as const;
