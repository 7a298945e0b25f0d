/**
 * Zod schemas of the records of the service interface (docs/protocol.md, "Records"), written with
 * `zod/mini` so that validation costs a few kB in a browser bundle, not ninety.
 *
 * Unknown fields in records are accepted and dropped (a newer service may add fields); a known field
 * with a wrong type is a protocol error. Custom events keep every field, since their shape belongs to
 * the task.
 */
import * as z from 'zod/mini';
import { usageSchema, type Usage } from './usage.js';

/** The four states of a task (docs/protocol.md, "Records"). */
export const taskStatusSchema = z.enum(['ACCEPTED', 'IN_PROGRESS', 'COMPLETED', 'FAILED']);
/** A state of a task: `ACCEPTED`, `IN_PROGRESS`, `COMPLETED` or `FAILED`. */
export type TaskStatus = 'ACCEPTED' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

/** The two terminal states. */
export const TERMINAL_STATUSES: readonly TaskStatus[] = ['COMPLETED', 'FAILED'];

/** Whether a task in this state will never change again. */
export function isTerminalStatus(status: TaskStatus): boolean {
  return status === 'COMPLETED' || status === 'FAILED';
}

/**
 * A task id (docs/protocol.md, "Paths and names"): an opaque string of 1 to 256 characters, never
 * `.` or `..`, which a URL parser reads as path steps even when encoded. Every id goes into a path
 * (Get Result, the events read), so this one rule holds for the ids the client is given and the ids
 * a service answers with.
 */
export const taskIdSchema = z
  .string()
  .check(z.minLength(1), z.maxLength(256), z.regex(/^(?!\.\.?$)/));

/** Any JSON object: the shape of `params` and of a task's `result`, which depend on the task. */
export const jsonObjectSchema = z.record(z.string(), z.unknown());
/** A JSON object whose members depend on the task. */
export type JsonObject = Record<string, unknown>;

/** Progress of a running task (docs/protocol.md, "Records"). */
export const progressSchema = z.object({
  percent: z.number(),
  estimatedSecondsLeft: z.number(),
});
/** Completion percentage and estimated seconds left. */
export type Progress = {
  /** How much of the task is done, from 0 to 100. */
  percent: number;
  /** The service's estimate of the seconds left. */
  estimatedSecondsLeft: number;
};

/** A custom event the task emitted, as listed by Get Result (docs/protocol.md, "Records"). */
export const eventReferenceSchema = z.object({
  type: z.string().check(z.minLength(1)),
  id: z.string().check(z.minLength(1)),
});
/** Type and id of a custom event a task emitted. */
export type EventReference = {
  /** The event's type, `event.<action>`. */
  type: string;
  /** The event's id, the `id:` line of its stream message. */
  id: string;
};

/**
 * The result of a failed task (docs/protocol.md, "Records"), and the body of every error answer
 * (docs/protocol.md, "Error bodies").
 */
export const failureSchema = z.object({
  status: z.literal('error'),
  statusCode: z.number(),
  reason: z.string(),
  message: z.string(),
});
/** Why a task failed: `status: 'error'`, a status code, a machine-readable reason and a message. */
export type TaskFailure = {
  /** Always `'error'`. */
  status: 'error';
  /** The HTTP status that goes with the failure (500 for a task's own failure). */
  statusCode: number;
  /** What went wrong, for programs: `TASK_ERROR`, or a reason of the task's own. */
  reason: string;
  /** What went wrong, for people. */
  message: string;
};

/** A task record as Get Result returns it (docs/protocol.md, "Get Result"). */
export const taskRecordSchema = z.object({
  id: taskIdSchema,
  status: taskStatusSchema,
  result: z.nullable(z.unknown()),
  progress: progressSchema,
  events: z.array(eventReferenceSchema),
  usage: z.optional(usageSchema),
});
/**
 * A task as Get Result returns it, a union on `status`: `result` is null until there is one, the
 * latest partial result while running, the final result (or null) when COMPLETED, and a
 * {@link TaskFailure} when FAILED, so `record.status === 'FAILED'` narrows it to the failure.
 */
export type TaskRecord<Result = unknown> =
  | {
      id: string;
      status: 'ACCEPTED' | 'IN_PROGRESS' | 'COMPLETED';
      result: Result | null;
      progress: Progress;
      events: EventReference[];
      usage?: Usage | undefined;
    }
  | {
      id: string;
      status: 'FAILED';
      result: TaskFailure;
      progress: Progress;
      events: EventReference[];
      usage?: Usage | undefined;
    };

/**
 * The success envelope `{ status: 'success', response }` around a record
 * (docs/protocol.md, "Records").
 */
export function envelopeSchema<Schema extends z.ZodMiniType>(response: Schema) {
  return z.object({ status: z.literal('success'), response });
}
