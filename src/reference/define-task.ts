/**
 * `defineTask` (docs/protocol.md, "The reference service"): how a task of the reference service is
 * declared: its name, the zod schema of its params, its monetization, and the `run` function that
 * does the work through a {@link TaskContext}.
 */
import type * as z from 'zod/mini';
import type { JsonObject } from '../protocol/records.js';
import type { OptionsResult } from '../protocol/start-answers.js';
import { TASK_NAME_PATTERN } from '../protocol/names.js';

/**
 * One charge of a tool (docs/protocol.md, "Usage and credits"): `credits = price × amount`, not
 * counted when `failed`.
 */
export interface Charge {
  /** The tool that was used. */
  toolId: string;
  /** Credits per single use. */
  price: number;
  /** How many uses. */
  amount: number;
  /** Whether the sub-task failed, so that it is not charged. Defaults to `false`. */
  failed?: boolean;
}

/** The static monetization of a task (docs/protocol.md, "Options", rule 2). */
export interface Monetization {
  /** The tool charged for the task. */
  toolId: string;
  /** Credits per use of the tool. */
  price: number;
  /** Uses per run. Defaults to `1`. */
  usageAmount?: number;
}

/** What a running task can do: report progress and results, emit events, charge tools, fail. */
export interface TaskContext<Result = JsonObject> {
  /** The id of the running task. */
  readonly taskId: string;
  /** Aborted when the service closes; long work should stop when it is. */
  readonly signal: AbortSignal;
  /** The service's time scale: multiply a nominal delay by it (`sleep` already does). */
  readonly timeScale: number;
  /** Reports progress (`task.progress`); percent is clamped to 0–100. */
  progress(percent: number, estimatedSecondsLeft: number): void;
  /** Reports a partial result (`task.partial-result`); Get Result shows the latest one. */
  partial(result: Result): void;
  /** Emits a custom event `event.<action>` with these fields; Get Result lists its type and id. */
  emit(action: string, fields?: JsonObject): void;
  /** Records a charge in the task's usage (docs/protocol.md, "Usage and credits"). */
  charge(charge: Charge): void;
  /**
   * Ends the run at once as FAILED with this reason and message (status code 500 unless given);
   * it throws, so nothing after it runs.
   */
  fail(reason: string, message: string, statusCode?: number): never;
  /** Waits `ms × timeScale` milliseconds; rejects when {@link TaskContext.signal} aborts. */
  sleep(ms: number): Promise<void>;
}

/** The declaration of a task: what `defineTask` takes and returns. */
export interface TaskDefinition<
  Params extends z.core.$ZodType = z.core.$ZodType,
  Result = JsonObject,
> {
  /** The task name used in paths; must match `^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`. */
  readonly name: string;
  /** The schema of `params`; a failing parse is 422 `INVALID_PARAMS`. */
  readonly params: Params;
  /** The schema of the final and partial results; a final result that fails it fails the task. */
  readonly result?: z.core.$ZodType<Result>;
  /** The schema of the task's custom events, for clients that type them (not checked here). */
  readonly events?: z.core.$ZodType;
  /** The static monetization answered by Options (docs/protocol.md, "Options", rule 2). */
  readonly monetization?: Monetization;
  /**
   * Whether Options calls {@link TaskDefinition.options} (docs/protocol.md, "Options", rule 1).
   * Defaults to `false`.
   */
  readonly enablePreflight?: boolean;
  /** The preflight: what running the task with these params would cost. */
  options?(params: z.output<Params>): OptionsResult | Promise<OptionsResult>;
  /** Whether the task sends a completion notification when Submit asks for one. Defaults to `false`. */
  readonly notifies?: boolean;
  /** Does the work; returns the final result (an object, or null). */
  run(
    context: TaskContext<Result>,
    params: z.output<Params>,
  ): Result | null | Promise<Result | null>;
}

/** Any task definition, whatever its params and result. */
// The methods of TaskDefinition are bivariant in their parameters, so every definition fits here.
export type AnyTaskDefinition = TaskDefinition<z.core.$ZodType, unknown>;

/**
 * Declares a task (docs/protocol.md, "The reference service"). Throws when the name breaks the
 * task-name rule or when `enablePreflight` is set without an `options` function.
 */
export function defineTask<Params extends z.core.$ZodType, Result = JsonObject>(
  definition: TaskDefinition<Params, Result>,
): TaskDefinition<Params, Result> {
  if (!TASK_NAME_PATTERN.test(definition.name)) {
    throw new TypeError(
      `Task name '${definition.name.slice(0, 140)}' must match ${String(TASK_NAME_PATTERN)}.`,
    );
  }
  if (definition.enablePreflight === true && typeof definition.options !== 'function') {
    throw new TypeError(`Task '${definition.name}' sets enablePreflight but has no options().`);
  }
  const monetization = definition.monetization;
  if (
    monetization !== undefined &&
    (!(monetization.price >= 0) ||
      !(monetization.usageAmount === undefined || monetization.usageAmount >= 0))
  ) {
    throw new TypeError(`Task '${definition.name}' has a negative or missing monetization price.`);
  }
  return Object.freeze({ ...definition });
}
