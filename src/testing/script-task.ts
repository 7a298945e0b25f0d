/**
 * `scriptTask`: a task of the reference service that plays a fixed script, so a test decides exactly
 * which events a task sends, in which order, and how it ends, without writing a `run` function.
 * Every step is one call of the {@link TaskContext}; the script adds no event of its own, and its
 * waits are `ctx.sleep`, on the service's clock (its `timeScale`, and fake timers where a test
 * installs them).
 */
import * as z from 'zod/mini';
import { EVENT_ACTION_PATTERN } from '../protocol/names.js';
import type { JsonObject } from '../protocol/records.js';
import { defineTask } from '../reference/define-task.js';
import type {
  Charge,
  Monetization,
  TaskDefinition,
  TaskContext,
} from '../reference/define-task.js';

/** The kinds of step, each the one key of its step object. */
type StepKind = 'progress' | 'partial' | 'emit' | 'charge' | 'wait' | 'complete' | 'fail';

/** A step with `Kind` as its only key (any other key of a step is refused by the type). */
type Step<Kind extends StepKind, Value> = { readonly [K in Kind]: Value } & {
  readonly [K in Exclude<StepKind, Kind>]?: never;
};

/**
 * One step of a script, told apart by its one key: `progress` (`[percent, secondsLeft]`), `partial`
 * (a partial result), `emit` (`[action, fields?]`, the custom event `event.<action>`), `charge` (a
 * tool's use), `wait` (milliseconds on the service's clock); the last step, and only the last, is
 * `complete` (the result, or `null`) or `fail` (`{ reason, message, statusCode = 500 }`).
 */
export type ScriptStep =
  | Step<'progress', readonly [percent: number, secondsLeft: number]>
  | Step<'partial', JsonObject>
  | Step<'emit', readonly [action: string, fields?: JsonObject]>
  | Step<'charge', Charge>
  | Step<'wait', number>
  | Step<'complete', JsonObject | null>
  | Step<'fail', { reason: string; message: string; statusCode?: number }>;

/** Options of {@link scriptTask}. */
export interface ScriptTaskOptions<Params extends z.core.$ZodType> {
  /** The schema of the task's params; a request that fails it is 422. Defaults to any object. */
  params?: Params;
  /** The task's static monetization, which Options answers (as in `defineTask`). */
  monetization?: Monetization;
}

const STEP_KINDS: readonly StepKind[] = [
  'progress',
  'partial',
  'emit',
  'charge',
  'wait',
  'complete',
  'fail',
];

/** Params of a task whose script names no schema: any object, every field kept. */
const anyParams = z.looseObject({});

/** The one kind of `step`; throws a `TypeError` naming the step when it has none or several. */
function kindOf(name: string, step: unknown, index: number): StepKind {
  const where = `scriptTask('${name}'): step ${index + 1}`;
  if (typeof step !== 'object' || step === null || Array.isArray(step)) {
    throw new TypeError(`${where} is not a step object.`);
  }
  const keys = Object.keys(step);
  const kind = STEP_KINDS.find((candidate) => keys.includes(candidate));
  if (keys.length !== 1 || kind === undefined) {
    throw new TypeError(
      `${where} must have exactly one of the keys ${STEP_KINDS.join(', ')}; it has ${keys.join(', ') || 'none'}.`,
    );
  }
  return kind;
}

/** Throws a `TypeError` when a step's value cannot be played, so a broken script fails at once. */
function checkStep(name: string, step: ScriptStep, kind: StepKind, index: number): void {
  const where = `scriptTask('${name}'): step ${index + 1} (${kind})`;
  const finite = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
  const isObject = (value: unknown) =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  const problem = (() => {
    switch (kind) {
      case 'progress': {
        const value = step.progress;
        return Array.isArray(value) && value.length === 2 && value.every(finite)
          ? undefined
          : 'takes [percent, secondsLeft], two finite numbers';
      }
      case 'wait':
        return finite(step.wait) && (step.wait ?? 0) >= 0
          ? undefined
          : 'takes a number of milliseconds, 0 or more';
      case 'emit': {
        const [action, fields] = step.emit ?? [];
        if (typeof action !== 'string' || !EVENT_ACTION_PATTERN.test(action)) {
          return `takes [action, fields?] with an action matching ${String(EVENT_ACTION_PATTERN)}`;
        }
        return fields === undefined || isObject(fields) ? undefined : 'takes fields as an object';
      }
      case 'partial':
        return isObject(step.partial) ? undefined : 'takes a partial result object';
      case 'charge': {
        const charge = step.charge;
        return isObject(charge) &&
          typeof charge?.toolId === 'string' &&
          charge.toolId !== '' &&
          finite(charge.price) &&
          charge.price >= 0 &&
          finite(charge.amount) &&
          charge.amount >= 0
          ? undefined
          : 'takes a charge { toolId, price, amount } with a price and amount of 0 or more';
      }
      case 'complete':
        return step.complete === null || isObject(step.complete)
          ? undefined
          : 'takes a result object or null';
      case 'fail': {
        const value = step.fail;
        return isObject(value) &&
          typeof value?.reason === 'string' &&
          typeof value.message === 'string'
          ? undefined
          : 'takes { reason, message, statusCode? }';
      }
      default:
        return kind satisfies never;
    }
  })();
  if (problem !== undefined) throw new TypeError(`${where} ${problem}.`);
}

/** Plays one step that does not end the script. */
async function play(context: TaskContext<JsonObject>, step: ScriptStep): Promise<void> {
  if (step.progress) context.progress(step.progress[0], step.progress[1]);
  else if (step.partial) context.partial(step.partial);
  else if (step.emit) context.emit(step.emit[0], step.emit[1]);
  else if (step.charge) context.charge(step.charge);
  else if (step.wait !== undefined) await context.sleep(step.wait);
}

/**
 * A task for the reference service that plays `steps` in order and adds no event of its own; the
 * last step, and only the last, is `complete` or `fail`. Throws a `TypeError` for a script without
 * such an end, a step that is not exactly one known key, a value that cannot be played, and
 * whatever `defineTask` refuses (a bad name or price).
 */
export function scriptTask<Params extends z.core.$ZodType = typeof anyParams>(
  name: string,
  steps: readonly ScriptStep[],
  options: ScriptTaskOptions<Params> = {},
): TaskDefinition<Params, JsonObject> {
  if (!Array.isArray(steps)) {
    throw new TypeError(`scriptTask('${name}'): steps must be an array.`);
  }
  const kinds = steps.map((step, index) => kindOf(name, step, index));
  steps.forEach((step, index) => checkStep(name, step, kinds[index] as StepKind, index));
  const endAt = kinds.findIndex((kind) => kind === 'complete' || kind === 'fail');
  if (endAt === -1) {
    throw new TypeError(
      `scriptTask('${name}'): the script has no end; its last step must be { complete: result | null } or { fail: { reason, message } }.`,
    );
  }
  if (endAt !== steps.length - 1) {
    throw new TypeError(
      `scriptTask('${name}'): step ${endAt + 1} (${kinds[endAt]}) ends the script, but ${steps.length - endAt - 1} more step(s) follow it.`,
    );
  }
  // A copy, so that changing the array afterwards cannot change a task already defined.
  const script: readonly ScriptStep[] = structuredClone(steps);
  const end = script[endAt] as ScriptStep;
  return defineTask<Params, JsonObject>({
    name,
    params: options.params ?? (anyParams as unknown as Params),
    ...(options.monetization ? { monetization: options.monetization } : {}),
    async run(context) {
      for (const step of script.slice(0, -1)) await play(context, step);
      if (end.fail) return context.fail(end.fail.reason, end.fail.message, end.fail.statusCode);
      return end.complete ?? null;
    },
  });
}
