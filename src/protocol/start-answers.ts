/**
 * The answers of Submit, Execute and Options (docs/protocol.md, "Submit", "Execute" and "Options"):
 * their schemas and their types.
 */
import * as z from 'zod/mini';
import { taskIdSchema, type TaskFailure } from './records.js';
import { usageSchema, type Usage } from './usage.js';

/** The answer of Submit Task (docs/protocol.md, "Submit"). */
export const submitAnswerSchema = z.object({
  id: taskIdSchema,
  status: z.literal('ACCEPTED'),
});
/** The id and first state of a submitted task. */
export type SubmitAnswer = {
  /** The new task's id. */
  id: string;
  /** Always `'ACCEPTED'`. */
  status: 'ACCEPTED';
};

/** The answer of Execute: the final outcome of the task. */
export const executeRecordSchema = z.object({
  id: taskIdSchema,
  status: z.enum(['COMPLETED', 'FAILED']),
  result: z.nullable(z.unknown()),
  usage: z.optional(usageSchema),
});

/** The answer of Options: the credit cost, or `{}` when the task has no monetization. */
export const optionsResultSchema = z.object({
  monetization: z.optional(z.object({ toolId: z.string() })),
  usageAmount: z.optional(z.number().check(z.nonnegative())),
  credits: z.optional(z.number().check(z.nonnegative())),
});

/**
 * The final outcome of an executed task, a union on `status`: a FAILED task carries its
 * {@link TaskFailure} in `result`, so `record.status === 'FAILED'` narrows it.
 */
export type ExecuteRecord<Result = unknown> =
  | { id: string; status: 'COMPLETED'; result: Result | null; usage?: Usage | undefined }
  | { id: string; status: 'FAILED'; result: TaskFailure; usage?: Usage | undefined };

/** What a task would cost: the resolved tool, usage amount and credits; `{}` when it is free. */
export type OptionsResult = {
  /** The tool the price is for. */
  monetization?: { toolId: string } | undefined;
  /** How many units the task would use. */
  usageAmount?: number | undefined;
  /** The credits it would cost. */
  credits?: number | undefined;
};
