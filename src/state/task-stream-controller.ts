/**
 * Runs one streamed task at a time and keeps its {@link TaskStreamState}: reduces what its run
 * reports, tells subscribers at most once per frame (frame-scheduler.ts), shows the final state at
 * once or, when this frame has already flushed, on the next one. How the task's messages travel is
 * the run's job (task-run.ts): the controller only picks the run. A start takes a slot of the
 * stream budget first and streams with it; over budget it starts the task with Submit and watches
 * its record (docs/protocol.md, "The stream budget"). A stream that breaks with a known task id
 * hands over to the watch of its record instead of posting again (docs/protocol.md, "Streams"), so
 * a stream recovers the same way with or without React.
 */
import type { StreamOptions, TaskStream } from '../client/types.js';
import { canonicalJson } from '../protocol/canonical-json.js';
import type { EventReference, TaskRecord } from '../protocol/records.js';
import type { CustomEvent, StreamEvent } from '../protocol/stream-events.js';
import type { EventFeed } from './event-feed.js';
import { createFrameScheduler, type FrameScheduler } from './frame-scheduler.js';
import { logReadRun } from './log-read-run.js';
import { streamRun } from './stream-run.js';
import type { ReleaseStreamSlot } from './stream-slots.js';
import { submitAndWatchRun } from './submit-and-watch-run.js';
import type { TaskRun, TaskRunSink } from './task-run.js';
import {
  eventReferenceOf,
  initialTaskStreamState,
  isSettledStreamStatus,
  liveRecordOfStream,
  recordOfStream,
  reduceTaskStream,
  type TaskStreamAction,
  type TaskStreamState,
} from './task-stream-state.js';
import { watchRun } from './watch-run.js';
import type { WatchTaskRecord } from './watch-task-record.js';

/** Opens the stream of one task run: a bound `client.stream(task, params, options)`. */
export type OpenTaskStream<Params, Event> = (
  params: Params,
  options: StreamOptions,
) => TaskStream<Event>;

/**
 * The stream budget of a {@link TaskStreamController} (docs/protocol.md, "The stream budget"): a run
 * streams only with a slot, and a run without one starts its task with `submit` and follows it.
 */
export interface StreamBudget<Params> {
  /** Takes a slot if one is free now: the function that frees it, or `undefined` when all are held. */
  takeSlot(): Promise<ReleaseStreamSlot | undefined>;
  /** Starts the run's task with Submit under `idempotencyKey`, the same on every try. */
  submit(
    params: Params,
    options: { idempotencyKey: string; signal: AbortSignal },
  ): Promise<{ id: string }>;
}

/**
 * The resumable streams of a service (docs/protocol.md, "Resumable streams (0.4)"),
 * for a {@link TaskStreamController}: a task is followed through the page's one read of its tasks'
 * logs, with every message once and its payload, after a break, a reload or an `attach`.
 */
export interface ResumableStreams<Params> {
  /** The task name the controller's runs follow. */
  task: string;
  /**
   * Whether the service said it offers resumable streams: then a start is a short request and the
   * task is read from its log, holding no connection of its own.
   */
  offered(): boolean;
  /**
   * The page's one read of its tasks' logs and the short start, loaded on demand: `undefined` when
   * they could not be loaded, and the task is then followed as with a service that offers none.
   */
  load(): Promise<LoadedResumableStreams<Params> | undefined>;
}

/** What {@link ResumableStreams} load. */
export interface LoadedResumableStreams<Params> {
  /** The page's one read of its tasks' logs. */
  feed: EventFeed;
  /** Starts the run's task with a short request under `idempotencyKey`, the same on every try. */
  startDetached(
    params: Params,
    options: { idempotencyKey: string; signal: AbortSignal },
  ): Promise<{ id: string }>;
}

/** The callbacks of a {@link TaskStreamController}, replaceable with `configure`. */
export interface TaskStreamCallbacks<Params, Result, Event> {
  /** Opens the stream of one run. */
  openStream: OpenTaskStream<Params, StreamEvent<Result> | Event>;
  /**
   * Reads the record of a task whose stream broke (`recovering`) or that runs over the stream
   * budget, until it settles.
   */
  watchRecord: WatchTaskRecord<Result>;
  /** The stream budget; without one, every run opens a stream. */
  streamBudget?: StreamBudget<Params> | undefined;
  /**
   * The service's resumable streams; without them a broken stream, a task taken up after a reload
   * and an attached one are read with Get Result, as in 0.3.
   */
  resumable?: ResumableStreams<Params> | undefined;
  /** Called for every custom event, including those the bounded list no longer holds. */
  onEvent?: ((event: Event) => void) | undefined;
  /**
   * Called when `start` begins a run, before its request leaves (the moment to write the start
   * ahead); not for a start with the params of the run already going, which changes nothing.
   */
  onStart?: ((params: Params) => void) | undefined;
  /** Called once the service has accepted a stream, with its task id (the moment to journal it). */
  onTaskId?: ((taskId: string) => void) | undefined;
  /**
   * Called with the TaskRecord the stream amounts to, for the cache that other views of the task
   * read (one task, one truth on a page): while it streams, an `IN_PROGRESS` record with the
   * progress, partial result and events shown, at most once per flush (one per animation frame)
   * and only when they changed; once it has completed, the record as Get Result would answer it,
   * when it can be rebuilt exactly (every custom event carried its id).
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
  /**
   * How long a recovery may go without reading the record before it gives up with status `error`,
   * in milliseconds. Defaults to `600000` (10 minutes).
   */
  recoverForMs?: number;
  /**
   * Looks up a task started earlier (before a reload, say) to take up, or `undefined` for none. It
   * is called once, lazily, by the first `getSnapshot` or `subscribe`, never at creation nor by
   * `getServerSnapshot`, so that a host rendering on a server reads no storage or clock: with a
   * task id, the controller is `recovering` it from there on, reading its outcome with its record
   * watch from the first subscription on, and posts nothing. Defaults to none.
   */
  resume?: () => string | undefined;
}

/**
 * A store of one stream's state that React (or anything else) can subscribe to. Its work follows its
 * subscriptions: when the last subscriber leaves, and no new one has come by the end of the current
 * task (React's StrictMode unsubscribes and subscribes again at once), the running stream is aborted
 * and any watch stopped, as `stop()` would; a later subscriber sees the latest state.
 */
export interface TaskStreamController<Params, Result, Event> {
  /** The current state; a new object only when something changed and a flush happened. */
  getSnapshot(): TaskStreamState<Result, Event>;
  /**
   * The state a server render shows, and so the first client render that hydrates it: always the
   * state before anything started (`idle`), the same object every time, whatever there is to
   * resume; the task to resume shows from the next `getSnapshot` on, right after hydration.
   */
  getServerSnapshot(): TaskStreamState<Result, Event>;
  /** Listens for new snapshots; the returned function stops listening. */
  subscribe(listener: () => void): () => void;
  /** Starts a stream; joins the one running when the params are the same, else replaces it. */
  start(params: Params): void;
  /**
   * Follows task `taskId`, started elsewhere (another tab, another device, the app's server), from
   * its first message where its log can be read, else through its record; posts nothing. Replaces
   * the run in progress; attaching the task already followed does nothing.
   */
  attach(taskId: string): void;
  /**
   * Closes the page's reading of the task (its stream, log read or watch). The task itself goes on
   * at the service, which has no cancel, and `attach` can follow it again.
   */
  stop(): void;
  /** Replaces the callbacks (the stream opener, the record watch), for a host whose props change. */
  configure(callbacks: TaskStreamCallbacks<Params, Result, Event>): void;
}

/** How long a recovery may go without a record before it gives up: 10 minutes. */
export const DEFAULT_RECOVER_FOR_MS = 600_000;

/** More custom events than this in one stream and no record is rebuilt from it (memory stays flat). */
const MAX_RECORD_EVENTS = 10_000;

/**
 * The run in progress as the controller sees it: the abort that ends it, its params' key (a start
 * with the same params joins it), the release of its stream slot, and whether it reads its task's
 * record rather than its stream (then it has no record to hand to `onRecord`).
 */
interface CurrentRun {
  abort: AbortController;
  paramsKey: string;
  slot?: ReleaseStreamSlot | undefined;
  fromRecord?: boolean;
}

/** Creates a {@link TaskStreamController}. */
export function createTaskStreamController<
  Params,
  Result,
  Event extends { type: string } = CustomEvent,
>(
  options: TaskStreamControllerOptions<Params, Result, Event>,
): TaskStreamController<Params, Result, Event> {
  const maxEvents = options.maxEvents ?? 100;
  const recoverForMs = options.recoverForMs ?? DEFAULT_RECOVER_FOR_MS;
  let callbacks: TaskStreamCallbacks<Params, Result, Event> = options;
  const listeners = new Set<() => void>();
  const serverSnapshot = initialTaskStreamState<Result, Event>();
  let working = serverSnapshot;
  let snapshot = working;
  let current: CurrentRun | undefined;
  let references: EventReference[] | undefined = [];
  // The lookup of a task to resume runs once, at the first snapshot or subscription (never at
  // creation, which a server render also does); the task's watch waits for the first subscriber,
  // so that a render starts no work.
  let lookUpResume = options.resume;
  let resumeOnSubscribe = false;
  const takeUpResumed = () => {
    const lookUp = lookUpResume;
    lookUpResume = undefined;
    const taskId = lookUp?.();
    // A start already made on this controller wins over an old task.
    if (taskId === undefined || working !== serverSnapshot) return;
    working = { ...working, status: 'recovering', taskId };
    snapshot = working;
    current = { abort: new AbortController(), paramsKey: '' };
    resumeOnSubscribe = true;
  };

  // What the last live record carried, so that an unchanged state writes none.
  let published: { progress: unknown; partialResult: unknown; events: number } | undefined;
  /** Hands the record of a stream in progress to `onRecord`, once per flush, when it changed. */
  const publishLiveRecord = () => {
    const { status, progress, partialResult } = working;
    // A run that reads the record reads that cache; only a stream has a record to add.
    if (status !== 'streaming' || current?.fromRecord || callbacks.onRecord === undefined) return;
    const events = references?.length ?? 0;
    if (
      published !== undefined &&
      published.progress === progress &&
      published.partialResult === partialResult &&
      published.events === events
    ) {
      return;
    }
    const record = liveRecordOfStream(working, references);
    if (!record) return;
    published = { progress, partialResult, events };
    callbacks.onRecord(record);
  };

  const scheduler = (options.createScheduler ?? createFrameScheduler)(() => {
    if (snapshot === working) return;
    snapshot = working;
    publishLiveRecord();
    for (const listener of listeners) listener();
  });

  /**
   * `now` for what the user did (start, stop), shown at once; `soon` for a change that should show
   * promptly but not add a second flush to a frame (the stream opening or ending, a record read);
   * `frame` for the events in between.
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

  /**
   * Ends the run in progress: its signal aborts (its connection, watch and timers stop) and its
   * slot is freed at once, so that a start replacing it finds the slot.
   */
  const endRun = () => {
    const run = current;
    current = undefined;
    run?.abort.abort();
    run?.slot?.();
  };

  /** The sink of `run`: what it reports counts while it is the run in progress, and no longer. */
  const sinkOf = (run: CurrentRun): TaskRunSink<Result, Event> => ({
    open(taskId, source) {
      if (current !== run) return;
      run.fromRecord = source === 'record';
      // A task taken up or attached was told when it was: only a new one is.
      const known = working.taskId;
      dispatch({ type: 'open', taskId }, 'soon');
      if (taskId !== undefined && taskId !== known) callbacks.onTaskId?.(taskId);
    },
    event(event) {
      if (current !== run) return;
      if (event.type.startsWith('event.')) {
        rememberReference(event as { type: string; eventId?: unknown });
        callbacks.onEvent?.(event as Event);
      }
      dispatch({ type: 'event', event }, 'frame');
      if (!isSettledStreamStatus(working.status)) return;
      endRun();
      // At once, or on the next frame when this frame has flushed already: never two in one.
      scheduler.flushSoon();
      const record = recordOfStream(working, references);
      if (record) callbacks.onRecord?.(record);
    },
    record(record) {
      if (current !== run) return;
      dispatch({ type: 'record', record }, 'soon');
      if (isSettledStreamStatus(working.status)) endRun();
    },
    recovering(taskId) {
      if (current !== run) return;
      working = { ...working, taskId };
      dispatch({ type: 'recover' }, 'soon');
    },
    readFailed(error) {
      if (current !== run) return;
      // One flush for both: `recovering` shows with its error.
      if (working.status !== 'recovering') working = { ...working, status: 'recovering' };
      dispatch({ type: 'recovery-failure', error }, 'soon');
    },
    fail(error) {
      if (current !== run) return;
      endRun();
      dispatch({ type: 'error', error }, 'soon');
    },
    handOver(next) {
      if (current !== run) return;
      endRun();
      const after: CurrentRun = { abort: new AbortController(), paramsKey: run.paramsKey };
      current = after;
      go(after, next);
    },
  });

  /** Starts `next` as the run in progress `run`. */
  const go = (run: CurrentRun, next: TaskRun<Result, Event>) => next(sinkOf(run), run.abort.signal);

  /** The watch of task `taskId`'s record, with the record watch of the latest callbacks. */
  const watch = (taskId: string, after: 'break' | 'submit') =>
    watchRun<Result, Event>({ taskId, after, watchRecord: callbacks.watchRecord, recoverForMs });

  /**
   * The read of task `taskId`'s log after `after`, handing over to the watch of its record where
   * the log cannot be read; without resumable streams, that watch at once.
   */
  const readLog = (taskId: string, after: string | null, opens: boolean) => {
    const resumable = callbacks.resumable;
    if (resumable === undefined) return watch(taskId, 'break');
    return logReadRun<Result, Event>({
      feed: async () => (await resumable.load())?.feed,
      task: resumable.task,
      taskId,
      after,
      opens,
      fallback: (id) => watch(id, 'break'),
    });
  };

  /**
   * Starts the run in progress: with resumable streams offered, a short start and the read of the
   * task's log; else a stream with a slot of the budget (or without a budget), else Submit and the
   * watch of its record.
   */
  const follow = async (params: Params, run: CurrentRun, slot: ReleaseStreamSlot | undefined) => {
    const { resumable, streamBudget: budget } = callbacks;
    // Loaded since the service's first answer that offered them; where they could not be, the
    // task streams as with a service that offers none.
    const loaded = resumable?.offered() ? await resumable.load() : undefined;
    if (current !== run) return slot?.();
    if (loaded !== undefined) {
      // The page's one read holds the connection (and the budget's slot): none of its own.
      slot?.();
      return go(
        run,
        submitAndWatchRun<Result, Event>({
          submit: (submitOptions) => loaded.startDetached(params, submitOptions),
          source: 'stream',
          watch: (taskId) => readLog(taskId, null, false),
        }),
      );
    }
    const stream = () =>
      streamRun<Result, Event>({
        open: (streamOptions) => callbacks.openStream(params, streamOptions),
        afterBreak: (taskId, position) =>
          position === undefined ? watch(taskId, 'break') : readLog(taskId, position, false),
      });
    if (budget === undefined) {
      slot?.();
      return go(run, stream());
    }
    const release = slot ?? (await budget.takeSlot());
    if (current !== run) return release?.();
    if (release === undefined) {
      return go(
        run,
        submitAndWatchRun<Result, Event>({
          submit: (submitOptions) => budget.submit(params, submitOptions),
          watch: (taskId) => watch(taskId, 'submit'),
        }),
      );
    }
    run.slot = release;
    go(run, stream());
  };

  const stop = () => {
    endRun();
    dispatch({ type: 'stop' }, 'now');
  };

  return {
    getSnapshot() {
      if (lookUpResume) takeUpResumed();
      return snapshot;
    },
    getServerSnapshot: () => serverSnapshot,
    subscribe(listener) {
      if (lookUpResume) takeUpResumed();
      listeners.add(listener);
      // A subscriber that comes after the others left sees what changed meanwhile.
      snapshot = working;
      if (resumeOnSubscribe && current !== undefined && working.taskId !== undefined) {
        resumeOnSubscribe = false;
        go(current, readLog(working.taskId, null, true));
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0) return;
        queueMicrotask(() => {
          if (listeners.size > 0) return;
          if (current !== undefined) stop();
          scheduler.cancel();
        });
      };
    },
    start(params) {
      const paramsKey = canonicalJson(params);
      const running = current !== undefined && working.status !== 'recovering';
      if (running && current?.paramsKey === paramsKey) return;
      callbacks.onStart?.(params);
      // A start before the first snapshot (from an effect) replaces whatever was there to resume.
      lookUpResume = undefined;
      resumeOnSubscribe = false;
      // A stream's slot goes to the run that replaces it: a Web Lock given up is free only a few
      // microtasks later, and the new run would find none and follow by polling.
      const slot = current?.slot;
      if (current) current.slot = undefined;
      endRun();
      const run: CurrentRun = { abort: new AbortController(), paramsKey };
      current = run;
      references = [];
      published = undefined;
      dispatch({ type: 'start' }, 'now');
      void follow(params, run, slot);
    },
    attach(taskId) {
      if (current !== undefined && working.taskId === taskId) return;
      lookUpResume = undefined;
      resumeOnSubscribe = false;
      endRun();
      const run: CurrentRun = { abort: new AbortController(), paramsKey: '' };
      current = run;
      references = [];
      published = undefined;
      // `connecting` to the task, its id shown (and journaled) at once: nothing is posted.
      working = { ...reduceTaskStream(working, { type: 'start' }, maxEvents), taskId };
      scheduler.flushNow();
      callbacks.onTaskId?.(taskId);
      go(run, readLog(taskId, null, true));
    },
    stop,
    configure(next) {
      callbacks = next;
    },
  };
}
