/**
 * Runs one streamed task at a time and keeps its {@link TaskStreamState}: reduces every event, tells
 * subscribers at most once per frame, shows the final state at once or, when this frame has already
 * flushed, on the next one, and when the connection breaks with a known task id, hands over to Get
 * Result instead of posting again.
 */
import { TaskwireError } from '../client/errors.js';
import { canonicalJson } from '../protocol/canonical-json.js';
import { createFrameScheduler, type FrameScheduler } from './frame-scheduler.js';
import type { CustomEvent, StreamEvent } from '../protocol/stream-events.js';
import type { EventReference, TaskRecord } from '../protocol/records.js';
import {
  eventReferenceOf,
  initialTaskStreamState,
  isSettledStreamStatus,
  reduceTaskStream,
  type TaskStreamAction,
  type TaskStreamState,
} from './task-stream-state.js';
import type { StreamOptions, TaskStream } from '../client/types.js';

/** Opens the stream of one task run: a bound `client.stream(task, params, options)`. */
export type OpenTaskStream<Params, Event> = (
  params: Params,
  options: StreamOptions,
) => TaskStream<Event>;

/** The callbacks of a {@link TaskStreamController}, replaceable with `configure`. */
export interface TaskStreamCallbacks<Params, Result, Event> {
  /** Opens the stream of one run. */
  openStream: OpenTaskStream<Params, StreamEvent<Result> | Event>;
  /** Called for every custom event, including those the bounded list no longer holds. */
  onEvent?: (event: Event) => void;
  /**
   * Called once a stream has ended with the TaskRecord it amounts to, when it can be rebuilt exactly
   * (every custom event carried its id); the React layer writes it into the query cache.
   */
  onRecord?: (record: TaskRecord<Result>) => void;
}

/** Settings of a {@link TaskStreamController}. */
export interface TaskStreamControllerOptions<Params, Result, Event> extends TaskStreamCallbacks<
  Params,
  Result,
  Event
> {
  /** How many custom events the state keeps (the oldest go first). Defaults to `100`. */
  maxEvents?: number;
  /** How flushes are scheduled. Defaults to one per animation frame. */
  createScheduler?: (flush: () => void) => FrameScheduler;
}

/** A store of one stream's state that React (or anything else) can subscribe to. */
export interface TaskStreamController<Params, Result, Event> {
  /** The current state; a new object only when something changed and a flush happened. */
  getSnapshot(): TaskStreamState<Result, Event>;
  /** Listens for new snapshots. */
  subscribe(listener: () => void): () => void;
  /** Starts a stream; joins the one running when the params are the same, else replaces it. */
  start(params: Params): void;
  /** Aborts the running stream (the task itself goes on at the service). */
  stop(): void;
  /** Feeds a record read with Get Result while `recovering`. */
  applyRecord(record: TaskRecord<Result>): void;
  /** Ends a recovery that cannot succeed (Get Result failed for good). */
  applyError(error: TaskwireError): void;
  /** Replaces the callbacks (and the stream opener), for a host whose props change. */
  configure(callbacks: TaskStreamCallbacks<Params, Result, Event>): void;
  /** Stops and ignores everything from now on. */
  dispose(): void;
}

/** More custom events than this in one stream and no record is rebuilt from it (memory stays flat). */
const MAX_RECORD_EVENTS = 10_000;

/** Creates a {@link TaskStreamController}. */
export function createTaskStreamController<
  Params,
  Result,
  Event extends { type: string } = CustomEvent,
>(
  options: TaskStreamControllerOptions<Params, Result, Event>,
): TaskStreamController<Params, Result, Event> {
  const maxEvents = options.maxEvents ?? 100;
  let callbacks: TaskStreamCallbacks<Params, Result, Event> = options;
  const listeners = new Set<() => void>();
  let working = initialTaskStreamState<Result, Event>();
  let snapshot = working;
  let disposed = false;
  let current: { abort: AbortController; paramsKey: string } | undefined;
  let references: EventReference[] | undefined = [];

  const scheduler = (options.createScheduler ?? createFrameScheduler)(() => {
    if (snapshot === working) return;
    snapshot = working;
    for (const listener of listeners) listener();
  });

  /**
   * `now` for what the user did (start, stop), shown at once; `soon` for a change that should show
   * promptly but not add a second flush to a frame (the stream opening or ending, Get Result's
   * outcome); `frame` for the events in between.
   */
  const dispatch = (action: TaskStreamAction<Result, Event>, flush: 'now' | 'soon' | 'frame') => {
    working = reduceTaskStream(working, action, maxEvents);
    switch (flush) {
      case 'now':
        scheduler.flushNow();
        break;
      case 'soon':
        scheduler.flushSoon();
        break;
      case 'frame':
        scheduler.schedule();
        break;
      default:
        flush satisfies never;
    }
  };

  const rememberReference = (event: { type: string; eventId?: unknown }) => {
    if (references === undefined) return;
    const reference = eventReferenceOf(event);
    // Without every id, or past the cap, the record could not match Get Result's: build none.
    if (reference && references.length < MAX_RECORD_EVENTS) references.push(reference);
    else references = undefined;
  };

  const emitRecord = () => {
    const { taskId, status } = working;
    if (taskId === undefined || references === undefined || !callbacks.onRecord) return;
    if (status !== 'completed' && status !== 'failed') return;
    callbacks.onRecord({
      id: taskId,
      status: status === 'completed' ? 'COMPLETED' : 'FAILED',
      result: status === 'completed' ? (working.result ?? null) : (working.failure ?? null),
      progress: working.progress ?? { percent: 100, estimatedSecondsLeft: 0 },
      events: references,
      ...(working.usage ? { usage: working.usage } : {}),
    });
  };

  const run = async (params: Params, abort: AbortController) => {
    const isCurrent = () => !disposed && current?.abort === abort;
    let taskId: string | undefined;
    try {
      const stream = callbacks.openStream(params, {
        signal: abort.signal,
        onOpen: (info) => {
          taskId = info.taskId;
          if (isCurrent()) dispatch({ type: 'open', taskId: info.taskId }, 'soon');
        },
      });
      for await (const event of stream) {
        if (!isCurrent()) return;
        if (event.type.startsWith('event.')) {
          rememberReference(event as { type: string; eventId?: unknown });
          callbacks.onEvent?.(event as Event);
        }
        dispatch({ type: 'event', event }, 'frame');
        if (isSettledStreamStatus(working.status)) {
          // At once, or on the next frame when this frame has flushed already: never two in one.
          scheduler.flushSoon();
          emitRecord();
          return;
        }
      }
    } catch (error) {
      if (!isCurrent() || abort.signal.aborted) return;
      const failure = TaskwireError.isInstance(error)
        ? error
        : new TaskwireError('protocol', 'The stream failed unexpectedly.', { cause: error });
      const knownTaskId = failure.taskId ?? taskId;
      if (failure.code === 'network' && knownTaskId !== undefined) {
        // The task runs on at the service: read its outcome instead of posting (and paying) again.
        working = { ...working, taskId: knownTaskId };
        dispatch({ type: 'recover' }, 'soon');
        return;
      }
      const outcomeUnknown =
        failure.code === 'network'
          ? new TaskwireError(
              'network',
              'The stream broke before the task ended and the service sent no task id, so the outcome is unknown.',
              { cause: failure },
            )
          : failure;
      dispatch({ type: 'error', error: outcomeUnknown }, 'soon');
    }
  };

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start(params) {
      if (disposed) return;
      const paramsKey = canonicalJson(params);
      const running =
        current !== undefined &&
        !isSettledStreamStatus(working.status) &&
        working.status !== 'recovering';
      if (running && current?.paramsKey === paramsKey) return;
      current?.abort.abort();
      const abort = new AbortController();
      current = { abort, paramsKey };
      references = [];
      dispatch({ type: 'start' }, 'now');
      void run(params, abort);
    },
    stop() {
      current?.abort.abort();
      current = undefined;
      dispatch({ type: 'stop' }, 'now');
    },
    applyRecord(record) {
      if (disposed || working.status !== 'recovering' || record.id !== working.taskId) return;
      dispatch({ type: 'record', record }, 'soon');
    },
    applyError(error) {
      if (disposed || working.status !== 'recovering') return;
      dispatch({ type: 'error', error }, 'soon');
    },
    configure(next) {
      callbacks = next;
    },
    dispose() {
      disposed = true;
      current?.abort.abort();
      current = undefined;
      scheduler.cancel();
      listeners.clear();
    },
  };
}
