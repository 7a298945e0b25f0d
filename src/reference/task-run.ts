/**
 * One task of the reference service, from ACCEPTED to COMPLETED or FAILED: it runs the task's `run`
 * with a {@link TaskContext}, keeps the record that Get Result answers
 * (docs/protocol.md, "Get Result"), and tells its subscribers (open streams) every event as it
 * happens (docs/protocol.md, "Streams").
 */
import * as z from 'zod/mini';
import type {
  EventReference,
  Progress,
  TaskFailure,
  TaskRecord,
  TaskStatus,
} from '../protocol/records.js';
import type { ExecuteRecord } from '../protocol/start-answers.js';
import type { Usage, UsageDetail } from '../protocol/usage.js';
import { chargedCredits } from '../protocol/usage.js';
import { describeIssues } from '../protocol/describe-issues.js';
import { isTerminalStatus } from '../protocol/records.js';
import { EVENT_ACTION_PATTERN } from '../protocol/names.js';
import type { AnyTaskDefinition, Charge, TaskContext } from './define-task.js';
import { isJsonObject } from './parse-json-body.js';
import type { TimerRegistry } from './timer-registry.js';

/** A stream message as a run emits it: the JSON event, and the SSE id of a custom event. */
export interface RunMessage {
  /** The event object sent as the message's `data` (it has a string `type`). */
  event: Record<string, unknown>;
  /** The uuid of a custom `event.*` message, the one Get Result lists for it. */
  id?: string;
}

/** Everything a run needs from its service. */
export interface TaskRunOptions {
  /** The task id. */
  id: string;
  /** The user the task belongs to. */
  userId: string;
  /** The task's declaration. */
  definition: AnyTaskDefinition;
  /** The params, already checked against the task's schema. */
  params: unknown;
  /** Multiplies the delays of `ctx.sleep`. */
  timeScale: number;
  /** Where the run's timers are registered, so `close()` can clear them. */
  timers: TimerRegistry;
  /** The service's clock. */
  now: () => number;
}

/** Thrown by `ctx.fail` to unwind the task's own code; the failure is already recorded by then. */
class TaskFailSignal extends Error {
  override readonly name = 'TaskFailSignal';
}

/** A JSON copy of `value`, so later changes by the task cannot alter what was reported. */
function jsonCopy(value: unknown, what: string): unknown {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`${what} is not JSON.`);
  return JSON.parse(text) as unknown;
}

function jsonObjectCopy(value: unknown, what: string): Record<string, unknown> {
  const copy = jsonCopy(value, what);
  if (!isJsonObject(copy)) throw new TypeError(`${what} must be a JSON object.`);
  return copy;
}

function failure(statusCode: number, reason: string, message: string): TaskFailure {
  return { status: 'error', statusCode, reason, message };
}

/** A task of the reference service and its record. */
export class TaskRun {
  /** The task id. */
  readonly id: string;
  /** The user the task belongs to. */
  readonly userId: string;
  /** The task's declaration. */
  readonly definition: AnyTaskDefinition;
  /** Where the task is (docs/protocol.md, "Records"). */
  status: TaskStatus = 'ACCEPTED';
  /** When the task reached COMPLETED or FAILED, on the service's clock. */
  finishedAt: number | undefined;

  private result: unknown = null;
  private progress: Progress = { percent: 0, estimatedSecondsLeft: 0 };
  private readonly events: EventReference[] = [];
  private details: UsageDetail[] | undefined;
  private readonly listeners = new Set<(message: RunMessage) => void>();
  private readonly abortController = new AbortController();
  private readonly settledPromise: Promise<void>;
  private resolveSettled: () => void = () => undefined;

  constructor(private readonly options: TaskRunOptions) {
    this.id = options.id;
    this.userId = options.userId;
    this.definition = options.definition;
    this.settledPromise = new Promise((resolve) => {
      this.resolveSettled = resolve;
    });
  }

  /** The task name. */
  get taskName(): string {
    return this.definition.name;
  }

  /** Resolves once the task is COMPLETED or FAILED. */
  get settled(): Promise<void> {
    return this.settledPromise;
  }

  /** Whether the task is COMPLETED or FAILED. */
  get isTerminal(): boolean {
    return isTerminalStatus(this.status);
  }

  /** The task's last reported progress. */
  get currentProgress(): Progress {
    return { ...this.progress };
  }

  /** Calls `listener` with every later message; returns the function that stops it. */
  subscribe(listener: (message: RunMessage) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Starts the task's `run`; the first line of it runs in a later microtask, never inside Submit. */
  start(): void {
    if (this.status !== 'ACCEPTED') return;
    this.status = 'IN_PROGRESS';
    const context = this.createContext();
    Promise.resolve()
      .then(() => this.definition.run(context, this.options.params))
      .then(
        (value) => this.complete(value),
        (error: unknown) => this.handleRunError(error),
      );
  }

  /** Ends a task that has not finished because the service is closing, and aborts its signal. */
  abort(): void {
    if (!this.isTerminal) {
      this.finishFailed(failure(500, 'TASK_ERROR', 'The service closed before the task finished.'));
    }
    this.abortController.abort(new DOMException('The service closed.', 'AbortError'));
  }

  /**
   * The usage record (docs/protocol.md, "Usage and credits"), present once any charge was made or
   * attempted.
   */
  usage(): Usage | undefined {
    if (this.details === undefined) return undefined;
    const details = this.details.map((detail) => ({ ...detail }));
    return { credits: chargedCredits(details), details };
  }

  /** The record Get Result answers (docs/protocol.md, "Get Result"). */
  record(): TaskRecord {
    // A FAILED run's result is its failure object, set by the run itself.
    const record = {
      id: this.id,
      status: this.status,
      result: this.result,
      progress: { ...this.progress },
      events: this.events.map((event) => ({ ...event })),
    } as TaskRecord;
    const usage = this.usage();
    if (usage !== undefined) record.usage = usage;
    return record;
  }

  /**
   * The record Execute answers (docs/protocol.md, "Execute"); only meaningful once the task is
   * terminal.
   */
  executeRecord(): ExecuteRecord {
    const status = this.status === 'FAILED' ? 'FAILED' : 'COMPLETED';
    const record = { id: this.id, status, result: this.result } as ExecuteRecord;
    const usage = this.usage();
    if (usage !== undefined) record.usage = usage;
    return record;
  }

  private send(message: RunMessage): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(message);
      } catch {
        // One broken subscriber (a stream whose client left) must not stop the task or the others.
      }
    }
  }

  private createContext(): TaskContext<unknown> {
    const { timers, timeScale } = this.options;
    const signal = this.abortController.signal;
    return {
      taskId: this.id,
      signal,
      timeScale,
      progress: (percent, estimatedSecondsLeft) => {
        if (!Number.isFinite(percent) || !Number.isFinite(estimatedSecondsLeft)) {
          throw new TypeError('progress() takes two finite numbers.');
        }
        if (this.isTerminal) return;
        this.progress = {
          percent: Math.min(100, Math.max(0, percent)),
          estimatedSecondsLeft: Math.max(0, estimatedSecondsLeft),
        };
        this.send({ event: { type: 'task.progress', ...this.progress } });
      },
      partial: (result) => {
        const copy = jsonObjectCopy(result, 'A partial result');
        if (this.isTerminal) return;
        this.result = copy;
        this.send({ event: { type: 'task.partial-result', result: copy } });
      },
      emit: (action, fields = {}) => {
        if (!EVENT_ACTION_PATTERN.test(action)) {
          throw new TypeError(`emit() needs an action matching ${String(EVENT_ACTION_PATTERN)}.`);
        }
        const copy = jsonObjectCopy(fields, 'The fields of an event');
        if (this.isTerminal) return;
        const type = `event.${action}`;
        const id = crypto.randomUUID();
        delete copy.type;
        this.events.push({ type, id });
        this.send({ event: { type, ...copy }, id });
      },
      charge: (charge) => this.charge(charge),
      fail: (reason, message, statusCode = 500) => {
        if (!this.isTerminal) {
          const code =
            Number.isInteger(statusCode) && statusCode >= 400 && statusCode <= 599
              ? statusCode
              : 500;
          this.finishFailed(failure(code, String(reason), String(message)));
        }
        throw new TaskFailSignal('The task failed.');
      },
      sleep: (ms) =>
        new Promise<void>((resolve, reject) => {
          if (signal.aborted) {
            reject(signal.reason as Error);
            return;
          }
          const onAbort = () => {
            timers.clear(handle);
            reject(signal.reason as Error);
          };
          const handle = timers.setTimeout(
            () => {
              signal.removeEventListener('abort', onAbort);
              resolve();
            },
            Math.max(0, ms * timeScale),
          );
          signal.addEventListener('abort', onAbort, { once: true });
        }),
    };
  }

  private charge(charge: Charge): void {
    const { toolId, price, amount } = charge;
    if (typeof toolId !== 'string' || toolId === '') {
      throw new TypeError('charge() needs a toolId.');
    }
    if (!(Number.isFinite(price) && price >= 0 && Number.isFinite(amount) && amount >= 0)) {
      throw new TypeError('charge() needs a finite, non-negative price and amount.');
    }
    if (this.isTerminal) return;
    const failed = charge.failed === true;
    this.details ??= [];
    // Usage has one entry per tool (docs/protocol.md, "Usage and credits"): charges of the same tool at the same price and with the same outcome add up in one
    // entry; a different price or outcome gets an entry of its own.
    const entry = this.details.find(
      (detail) => detail.toolId === toolId && detail.price === price && detail.failed === failed,
    );
    if (entry) {
      entry.amount += amount;
      entry.credits = entry.price * entry.amount;
    } else {
      this.details.push({ toolId, price, amount, credits: price * amount, failed });
    }
  }

  private complete(value: unknown): void {
    if (this.isTerminal) return;
    let result: unknown;
    try {
      result = value === undefined || value === null ? null : jsonObjectCopy(value, 'The result');
    } catch {
      this.finishFailed(
        failure(500, 'TASK_ERROR', 'The task returned a result that is not a JSON object.'),
      );
      return;
    }
    const resultSchema = this.definition.result;
    if (result !== null && resultSchema !== undefined) {
      const parsed = z.safeParse(resultSchema, result);
      if (!parsed.success) {
        this.finishFailed(
          failure(
            500,
            'TASK_ERROR',
            `The task returned an invalid result: ${describeIssues(parsed.error.issues)}`,
          ),
        );
        return;
      }
    }
    this.status = 'COMPLETED';
    this.result = result;
    this.progress = { percent: 100, estimatedSecondsLeft: 0 };
    this.finishedAt = this.options.now();
    const event: Record<string, unknown> = { type: 'task.completed', result };
    const usage = this.usage();
    if (usage !== undefined) event.usage = usage;
    this.send({ event });
    this.settle();
  }

  private handleRunError(error: unknown): void {
    if (this.isTerminal) return;
    // The message says what failed without the error's own text or stack, which may hold
    // internals (paths, queries) that a client should not see.
    const kind = error instanceof Error ? ` (${error.name})` : '';
    this.finishFailed(failure(500, 'TASK_ERROR', `The task failed unexpectedly${kind}.`));
  }

  private finishFailed(result: TaskFailure): void {
    this.status = 'FAILED';
    this.result = result;
    this.finishedAt = this.options.now();
    this.send({ event: { type: 'task.failed', result } });
    this.settle();
  }

  private settle(): void {
    this.listeners.clear();
    this.resolveSettled();
  }
}
