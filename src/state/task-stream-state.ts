/**
 * The state of one streamed task, built by a reducer over its events. Framework-free; the React
 * hook renders snapshots of it.
 */
import type { TaskwireError } from '../client/errors.js';
import type { CustomEvent, StreamEvent } from '../protocol/stream-events.js';
import type { EventReference, Progress, TaskFailure, TaskRecord } from '../protocol/records.js';
import type { Usage } from '../protocol/usage.js';

/**
 * Where a stream is: `idle` before start, `connecting` until the service answers, `streaming` while
 * events come, `recovering` while a broken stream's outcome is read with Get Result, then one of
 * `completed`, `failed` (the task failed), `error` (something around the task went wrong) or `stopped`.
 */
export type TaskStreamStatus =
  'idle' | 'connecting' | 'streaming' | 'recovering' | 'completed' | 'failed' | 'error' | 'stopped';

/** Everything known about a streamed task. */
export interface TaskStreamState<Result = unknown, Event = CustomEvent> {
  /** Where the stream is. */
  status: TaskStreamStatus;
  /** The task id from `x-task-id`, once known. */
  taskId: string | undefined;
  /** The latest progress; the percent never goes back and stays within 0–100. */
  progress: Progress | undefined;
  /** The latest partial result. */
  partialResult: Result | undefined;
  /** The final result once `completed` (`null` when the task returned none). */
  result: Result | null | undefined;
  /** Credits charged, once the task has ended with usage. */
  usage: Usage | undefined;
  /** The most recent custom events, oldest first, at most `maxEvents` of them. */
  events: readonly Event[];
  /** Why the task failed, once `failed`. */
  failure: TaskFailure | undefined;
  /**
   * What went wrong around the task, once `error`; while `recovering`, the latest failed read of
   * the task's record (cleared by the next good one).
   */
  error: TaskwireError | undefined;
}

/** The state before a stream starts. */
export function initialTaskStreamState<Result, Event>(): TaskStreamState<Result, Event> {
  return {
    status: 'idle',
    taskId: undefined,
    progress: undefined,
    partialResult: undefined,
    result: undefined,
    usage: undefined,
    events: [],
    failure: undefined,
    error: undefined,
  };
}

/** What can happen to a stream. */
export type TaskStreamAction<Result, Event> =
  | { type: 'start' }
  | { type: 'open'; taskId: string | undefined }
  | { type: 'event'; event: StreamEvent<Result> | Event }
  | { type: 'recover' }
  | { type: 'recovery-failure'; error: TaskwireError }
  | { type: 'record'; record: TaskRecord<Result> }
  | { type: 'error'; error: TaskwireError }
  | { type: 'stop' };

/** Whether the stream has ended for good (no more actions but `start` change it). */
export function isSettledStreamStatus(status: TaskStreamStatus): boolean {
  switch (status) {
    case 'completed':
    case 'failed':
    case 'error':
    case 'stopped':
      return true;
    case 'idle':
    case 'connecting':
    case 'streaming':
    case 'recovering':
      return false;
    default:
      return status satisfies never;
  }
}

function clampPercent(percent: number): number {
  return Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) : 0;
}

function nextProgress(
  previous: Progress | undefined,
  percent: number,
  estimatedSecondsLeft: number,
): Progress {
  // A percent that goes back is ignored (the bar never moves backwards); the time left still updates.
  const clamped = Math.max(previous?.percent ?? 0, clampPercent(percent));
  const secondsLeft = Number.isFinite(estimatedSecondsLeft) ? Math.max(0, estimatedSecondsLeft) : 0;
  return { percent: clamped, estimatedSecondsLeft: secondsLeft };
}

function appendBounded<Event>(
  events: readonly Event[],
  event: Event,
  maxEvents: number,
): readonly Event[] {
  if (maxEvents <= 0) return events;
  const kept =
    events.length >= maxEvents ? events.slice(events.length - maxEvents + 1) : events.slice();
  kept.push(event);
  return kept;
}

/** Applies one action to the state; `maxEvents` bounds the list of custom events kept. */
export function reduceTaskStream<Result, Event>(
  state: TaskStreamState<Result, Event>,
  action: TaskStreamAction<Result, Event>,
  maxEvents: number,
): TaskStreamState<Result, Event> {
  switch (action.type) {
    case 'start':
      return { ...initialTaskStreamState<Result, Event>(), status: 'connecting' };
    case 'open':
      return { ...state, status: 'streaming', taskId: action.taskId };
    case 'event':
      return reduceEvent(state, action.event, maxEvents);
    case 'recover':
      return { ...state, status: 'recovering', error: undefined };
    case 'recovery-failure':
      return state.status === 'recovering' ? { ...state, error: action.error } : state;
    case 'record':
      return reduceRecord(state, action.record);
    case 'error':
      return { ...state, status: 'error', error: action.error };
    case 'stop':
      return isSettledStreamStatus(state.status) ? state : { ...state, status: 'stopped' };
    default:
      return action satisfies never;
  }
}

function reduceEvent<Result, Event>(
  state: TaskStreamState<Result, Event>,
  event: StreamEvent<Result> | Event,
  maxEvents: number,
): TaskStreamState<Result, Event> {
  const typed = event as StreamEvent<Result>;
  switch (typed.type) {
    case 'task.progress': {
      const { percent, estimatedSecondsLeft } = typed as {
        percent: number;
        estimatedSecondsLeft: number;
      };
      return { ...state, progress: nextProgress(state.progress, percent, estimatedSecondsLeft) };
    }
    case 'task.partial-result':
      return { ...state, partialResult: (typed as { result: Result }).result };
    case 'task.completed': {
      const completed = typed as { result: Result | null; usage?: Usage };
      return {
        ...state,
        status: 'completed',
        result: completed.result,
        usage: completed.usage,
        progress: { percent: 100, estimatedSecondsLeft: 0 },
      };
    }
    case 'task.failed':
      return { ...state, status: 'failed', failure: (typed as { result: TaskFailure }).result };
    default:
      if (typed.type.startsWith('event.')) {
        return { ...state, events: appendBounded(state.events, event as Event, maxEvents) };
      }
      // An unknown `task.*` type from a newer service: nothing to show for it.
      return state;
  }
}

function reduceRecord<Result, Event>(
  state: TaskStreamState<Result, Event>,
  record: TaskRecord<Result>,
): TaskStreamState<Result, Event> {
  const progress = nextProgress(
    state.progress,
    record.progress.percent,
    record.progress.estimatedSecondsLeft,
  );
  switch (record.status) {
    case 'COMPLETED':
      return {
        ...state,
        status: 'completed',
        error: undefined,
        taskId: record.id,
        result: record.result as Result | null,
        usage: record.usage,
        progress: { percent: 100, estimatedSecondsLeft: 0 },
      };
    case 'FAILED':
      return {
        ...state,
        status: 'failed',
        error: undefined,
        taskId: record.id,
        failure: record.result as TaskFailure,
        usage: record.usage,
        progress,
      };
    case 'ACCEPTED':
    case 'IN_PROGRESS':
      return {
        ...state,
        error: undefined,
        taskId: record.id,
        progress,
        partialResult: record.result === null ? state.partialResult : (record.result as Result),
      };
    default:
      return record satisfies never;
  }
}

/**
 * The TaskRecord a completed stream amounts to, as Get Result would answer it, or `undefined` when
 * it cannot be rebuilt exactly: before completion, without a task id, with `events` undefined (a
 * custom event came without its id), or after `task.failed`, which carries no usage although the
 * task may have charged for tools before it failed (docs/protocol.md, "Streams").
 */
export function recordOfStream<Result, Event>(
  state: TaskStreamState<Result, Event>,
  events: readonly EventReference[] | undefined,
): TaskRecord<Result> | undefined {
  const { taskId } = state;
  if (taskId === undefined || events === undefined || state.status !== 'completed')
    return undefined;
  return {
    id: taskId,
    status: 'COMPLETED',
    result: state.result ?? null,
    progress: { percent: 100, estimatedSecondsLeft: 0 },
    events: [...events],
    ...(state.usage ? { usage: state.usage } : {}),
  };
}

/**
 * The `IN_PROGRESS` TaskRecord a stream that runs amounts to, for the views of the task that read
 * Get Result's cache (docs/protocol.md, "The hooks"): its progress, latest partial result (`null`
 * before one) and the ids of its custom events so far (`[]` when one came without an id), or
 * `undefined` while it is not `streaming`, has no task id or has not reported progress yet.
 */
export function liveRecordOfStream<Result, Event>(
  state: TaskStreamState<Result, Event>,
  events: readonly EventReference[] | undefined,
): TaskRecord<Result> | undefined {
  const { taskId, progress } = state;
  if (state.status !== 'streaming' || taskId === undefined || progress === undefined) {
    return undefined;
  }
  return {
    id: taskId,
    status: 'IN_PROGRESS',
    result: state.partialResult ?? null,
    progress,
    events: events ? [...events] : [],
  };
}

/** The event references of custom events, for writing a TaskRecord built from a stream. */
export function eventReferenceOf(event: {
  type: string;
  eventId?: unknown;
}): EventReference | undefined {
  return typeof event.eventId === 'string' && event.eventId !== ''
    ? { type: event.type, id: event.eventId }
    : undefined;
}
