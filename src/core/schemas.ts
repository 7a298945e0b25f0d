/**
 * Zod schemas of every record and event of the service interface (CONTRACT §1), written with
 * `zod/mini` so that validation costs a few kB in a browser bundle, not ninety.
 *
 * Unknown fields in records are accepted and dropped (a newer service may add fields); a known field
 * with a wrong type is a protocol error. Custom events keep every field, since their shape belongs to
 * the task.
 */
import * as z from 'zod/mini';
import type { executeRecordSchema, optionsResultSchema } from './start-task.js';
import type { failedEventSchema, progressEventSchema } from './stream-event-schemas.js';

/** The four states of a task (§3). */
export const taskStatusSchema = z.enum(['ACCEPTED', 'IN_PROGRESS', 'COMPLETED', 'FAILED']);
/** A state of a task: `ACCEPTED`, `IN_PROGRESS`, `COMPLETED` or `FAILED`. */
export type TaskStatus = z.infer<typeof taskStatusSchema>;

/** The two terminal states. */
export const TERMINAL_STATUSES: readonly TaskStatus[] = ['COMPLETED', 'FAILED'];

/** Whether a task in this state will never change again. */
export function isTerminalStatus(status: TaskStatus): boolean {
  return status === 'COMPLETED' || status === 'FAILED';
}

/** A task id: an opaque string of 1 to 256 characters (CONTRACT §1). */
export const taskIdSchema = z.string().check(z.minLength(1), z.maxLength(256));

/** Any JSON object: the shape of `params` and of a task's `result`, which depend on the task. */
export const jsonObjectSchema = z.record(z.string(), z.unknown());
/** A JSON object whose members depend on the task. */
export type JsonObject = z.infer<typeof jsonObjectSchema>;

/** Progress of a running task (§2.2). */
export const progressSchema = z.object({
  percent: z.number(),
  estimatedSecondsLeft: z.number(),
});
/** Completion percentage and estimated seconds left. */
export type Progress = z.infer<typeof progressSchema>;

/** A custom event the task emitted, as listed by Get Result (§2.3). */
export const eventReferenceSchema = z.object({
  type: z.string().check(z.minLength(1)),
  id: z.string().check(z.minLength(1)),
});
/** Type and id of a custom event a task emitted. */
export type EventReference = z.infer<typeof eventReferenceSchema>;

/** One tool's line of a usage record (§2.4). */
export const usageDetailSchema = z.object({
  toolId: z.string(),
  price: z.number().check(z.nonnegative()),
  amount: z.number().check(z.nonnegative()),
  credits: z.number().check(z.nonnegative()),
  failed: z.boolean(),
});
/** One tool's line of a usage record: price × amount = credits, not charged when `failed`. */
export type UsageDetail = z.infer<typeof usageDetailSchema>;

/**
 * How far a sum of fractional credits may stray from its parts before it counts as a mismatch:
 * prices such as 0.1 add up with floating-point error, and a service may round to a few decimals.
 */
export const CREDITS_TOLERANCE = 1e-6;

/** Whether two credit figures agree within {@link CREDITS_TOLERANCE}, relative to their size. */
export function creditsAgree(a: number, b: number): boolean {
  return Math.abs(a - b) <= CREDITS_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * The sum of `credits` over the entries that did not fail: what CONTRACT 1.8 says the total must be.
 */
export function chargedCredits(details: readonly UsageDetail[]): number {
  let total = 0;
  for (const detail of details) if (!detail.failed) total += detail.credits;
  return total;
}

/**
 * Checks a usage record against CONTRACT 1.8 and returns what is wrong, or `undefined` when it is
 * consistent. A failed entry may carry its would-be credits or `0`; both are accepted.
 */
export function findUsageInconsistency(usage: Usage): string | undefined {
  for (const [index, detail] of usage.details.entries()) {
    const expected = detail.price * detail.amount;
    if (!creditsAgree(detail.credits, expected) && !(detail.failed && detail.credits === 0)) {
      return `usage.details[${index}].credits is ${detail.credits}, but price × amount is ${expected}`;
    }
  }
  const charged = chargedCredits(usage.details);
  if (!creditsAgree(usage.credits, charged)) {
    return `usage.credits is ${usage.credits}, but the entries that did not fail add up to ${charged}`;
  }
  return undefined;
}

/** The usage record of a task, without the consistency check (for building records). */
export const usageShapeSchema = z.object({
  credits: z.number().check(z.nonnegative()),
  details: z.array(usageDetailSchema),
});
/** Credits charged for a task and their per-tool breakdown (§2.4). */
export type Usage = z.infer<typeof usageShapeSchema>;

/** A usage record whose total agrees with its entries (CONTRACT 1.8); a mismatch is a protocol error. */
export const usageSchema = usageShapeSchema.check(
  z.superRefine((usage, context) => {
    const problem = findUsageInconsistency(usage);
    if (problem) context.issues.push({ code: 'custom', message: problem, input: usage });
  }),
);

/** The result of a failed task, and the body of every error answer (CONTRACT 1.2). */
export const failureSchema = z.object({
  status: z.literal('error'),
  statusCode: z.number(),
  reason: z.string(),
  message: z.string(),
});
/** Why a task failed: `status: 'error'`, a status code, a machine-readable reason and a message. */
export type TaskFailure = z.infer<typeof failureSchema>;

/** The body of a non-2xx answer (CONTRACT 1.2); `taskId` is set on `EXECUTE_TIMEOUT`. */
export const errorBodySchema = z.extend(failureSchema, { taskId: z.optional(taskIdSchema) });
/** The body of an error answer. */
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** A task record as Get Result returns it (§4.2, CONTRACT 1.4). */
export const taskRecordSchema = z.object({
  id: taskIdSchema,
  status: taskStatusSchema,
  result: z.nullable(z.unknown()),
  progress: progressSchema,
  events: z.array(eventReferenceSchema),
  usage: z.optional(usageSchema),
});
/**
 * A task as Get Result returns it. `result` is null until there is one, the latest partial result
 * while running, the final result when COMPLETED, and a {@link TaskFailure} when FAILED.
 */
export type TaskRecord<Result = unknown> = Omit<z.infer<typeof taskRecordSchema>, 'result'> & {
  result: Result | TaskFailure | null;
};

/** The answer of Submit Task (CONTRACT 1.3). */
export const submitAnswerSchema = z.object({
  id: taskIdSchema,
  status: z.literal('ACCEPTED'),
});
/** The id and first state of a submitted task. */
export type SubmitAnswer = z.infer<typeof submitAnswerSchema>;

/** The final outcome of an executed task. A FAILED task carries its {@link TaskFailure} in `result`. */
export type ExecuteRecord<Result = unknown> = Omit<
  z.infer<typeof executeRecordSchema>,
  'result'
> & {
  result: Result | TaskFailure | null;
};

/** What a task would cost: the resolved tool, usage amount and credits; `{}` when it is free. */
export type OptionsResult = z.infer<typeof optionsResultSchema>;

/** The success envelope `{ status: 'success', response }` around a record (§2.7). */
export function envelopeSchema<Schema extends z.ZodMiniType>(response: Schema) {
  return z.object({ status: z.literal('success'), response });
}

/** A progress update from a stream. */
export type ProgressEvent = z.infer<typeof progressEventSchema>;
/** A partial result from a stream. */
export type PartialResultEvent<Result = JsonObject> = {
  type: 'task.partial-result';
  result: Result;
};
/** The successful end of a stream. */
export type CompletedEvent<Result = JsonObject> = {
  type: 'task.completed';
  result: Result | null;
  usage?: Usage;
};
/** The failed end of a stream. */
export type FailedEvent = z.infer<typeof failedEventSchema>;

/**
 * A custom event (`event.<action>`, §6.1): `type` is fixed, the other fields belong to the task.
 * `eventId` is the message's SSE `id:` line when the service sent one (the id Get Result lists).
 */
export type CustomEvent = { type: `event.${string}`; eventId?: string; [field: string]: unknown };

/** A `task.*` event this client does not know, passed through unvalidated for forward compatibility. */
export type UnknownTaskEvent = { type: `task.${string}`; [field: string]: unknown };

/** Any message of a stream (§6.1). */
export type StreamEvent<Result = JsonObject> =
  | ProgressEvent
  | PartialResultEvent<Result>
  | CompletedEvent<Result>
  | FailedEvent
  | CustomEvent
  | UnknownTaskEvent;

/** Whether an event ends its stream. */
export function isFinalEvent(event: {
  type: string;
}): event is CompletedEvent<unknown> | FailedEvent {
  return event.type === 'task.completed' || event.type === 'task.failed';
}

/** The rule for task names (CONTRACT §1), checked before any request is made. */
export const TASK_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Renders zod issues as one line that names the first bad field, its path prefixed with `under`
 * (such as `['response', 'result']` for a value checked on its own).
 */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  under: readonly PropertyKey[] = [],
): string {
  const first = issues[0];
  if (!first) return 'invalid value';
  const steps = [...under, ...first.path];
  const path = steps.length > 0 ? steps.map(String).join('.') : '(root)';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `${path}: ${first.message}${more}`;
}
