/**
 * One poll per task across the tabs of an origin (docs/protocol.md, "The hooks", on the journal),
 * on the platform's own tools: a Web Lock per task and client scope names the one tab that polls
 * it, and a BroadcastChannel per scope carries the records that tab reads to the others. The
 * browser grants the lock to one tab at a time and hands it to a waiting tab when the holder
 * releases it or dies, so there are no leases, claims or clocks of our own.
 *
 * Nothing heard on the channel is trusted: a record is checked as the client checks a Get Result
 * answer, the task's own result schema included (src/state/check-shared-record.ts), and one that
 * fails is ignored. A tab that does not hold the lock waits for the holder's next record at most the
 * policy's ceiling (`maxIntervalMs`), then reads the task itself, so that no tab, however it
 * behaves, delays another's polling past that.
 *
 * What a tab keeps per task is dropped when the task ends (a terminal record), when no query of
 * the page reads it any more, or when nothing has asked for it for two ceilings; `close()` releases
 * the locks, the channel and the listeners. A tab whose components stop reading a task (the last
 * observer of its query goes, the tab still open) gives up that task's lock at once, so that a tab
 * still watching it polls from its next read on, never a ceiling late. Where `BroadcastChannel` or
 * the Web Locks API is missing, there is no sharing: each tab polls alone, as it would without a
 * journal.
 */
import * as z from 'zod/mini';
import { isTerminalStatus, taskIdSchema } from '../protocol/records.js';
import type { TaskRecord } from '../protocol/records.js';
import { clampDelay, MAX_RETRY_AFTER_MS } from '../protocol/retry-after.js';
import type { CheckSharedRecord } from './check-shared-record.js';
import { isPageHidden, nextPollDelay, slowestPollDelay } from './polling-policy.js';
import type { PollingPolicyOptions } from './polling-policy.js';
import { platformLocks, type WebLocks } from './web-locks.js';

/** What a task's sharing may sit idle (nobody reading it) beyond two ceilings before it is dropped. */
export const IDLE_GRACE_MS = 1000;

/**
 * The part of TanStack Query's query function context that a shared read uses, written by shape so
 * that src/state stays framework-free: the abort signal, and the QueryClient and key under which a
 * record heard from another tab is put, so that the components reading it update without a request.
 */
export interface SharedPollContext {
  /** Aborts the read (the query was cancelled). */
  signal: AbortSignal;
  /** The query's key. */
  queryKey: readonly unknown[];
  /**
   * Told the service's `Retry-After` hint (in milliseconds, or `undefined`) of each record the read
   * resolves to or puts into the query, before it does: the hint of this tab's own read, or the one
   * the polling tab heard with the record. Defaults to none.
   */
  onRetryAfter?: ((retryAfterMs: number | undefined) => void) | undefined;
  /** The QueryClient that holds the query. */
  client: {
    /** The query's state, or `undefined` when nothing reads it (no record is put then). */
    getQueryState(queryKey: readonly unknown[]): unknown;
    /** Puts a record heard from another tab into the query. */
    setQueryData(queryKey: readonly unknown[], data: unknown): unknown;
    /**
     * The query cache, whose events (a query losing an observer, or leaving) say when this tab's
     * components stop reading the task.
     */
    getQueryCache?(): {
      /** Listens for the cache's events; returns the unsubscribe. */
      subscribe(
        listener: (event: {
          type: string;
          query: { queryKey: readonly unknown[]; getObserversCount(): number };
        }) => void,
      ): () => void;
    };
  };
}

/**
 * Reads a task's record from the service: the query function being shared. It tells
 * `onRetryAfter`, when given, the `Retry-After` hint that came with the record (as `getResult`'s
 * option of that name does), so that the other tabs poll by it too.
 */
export type ReadSharedRecord<Record> = (context: {
  signal: AbortSignal;
  onRetryAfter?: (retryAfterMs: number | undefined) => void;
}) => Promise<Record>;

/** The polls of one client scope, shared with the other tabs of the origin. */
export interface TabPollSharing {
  /**
   * Wraps `read` so that, of all tabs, only the one holding task `id`'s lock calls it; in the others
   * the wrapper resolves to the next record that tab posts and `check` accepts, or reads itself
   * after the ceiling of `polling` without one.
   */
  share<Record extends TaskRecord<unknown>>(
    id: string,
    read: ReadSharedRecord<Record>,
    check: CheckSharedRecord<Record>,
    polling?: PollingPolicyOptions,
  ): (context: SharedPollContext) => Promise<Record>;
  /** How many tasks this tab keeps sharing state for now. */
  trackedTasks(): number;
  /** Releases every lock this tab holds, as a tab going away does. */
  release(): void;
  /** Releases the locks, drops every task and stops listening. */
  close(): void;
}

/** The query cache a shared read's context hands over, when it does. */
type SharedPollQueryCache = ReturnType<NonNullable<SharedPollContext['client']['getQueryCache']>>;

/** The two messages: a record the polling tab read, and a question for the latest one. */
const messageSchema = z.object({
  type: z.enum(['record', 'ask']),
  id: taskIdSchema,
  record: z.optional(z.unknown()),
  retryAfterMs: z.optional(z.number()),
});

/** What this tab keeps of one task while it reads it. */
interface SharedTask {
  /** The newest record this tab knows (its own read, or one heard and checked). */
  record: TaskRecord<unknown> | undefined;
  /** When this tab came to know it, in epoch milliseconds. */
  knownAt: number;
  /** The service's `Retry-After` hint that came with `record`, in milliseconds. */
  retryAfterMs: number | undefined;
  /** Whether this tab holds the task's lock, and so polls it. */
  holding: boolean;
  /** Lets the held lock go. */
  letGo: (() => void) | undefined;
  /** Drops this tab's waiting request for the lock. */
  waiting: AbortController | undefined;
  /** Checks a record heard from another tab. */
  check: CheckSharedRecord<TaskRecord<unknown>>;
  /** Puts a record heard from another tab, and its hint, where this tab's components read it. */
  deliver: ((record: TaskRecord<unknown>, retryAfterMs: number | undefined) => void) | undefined;
  /** Reads waiting for news of the task: a record, or the lock. */
  waiters: Set<() => void>;
  /** Drops the task when nothing has read it for a while. */
  idle: ReturnType<typeof setTimeout> | undefined;
  /** Whether this tab has asked the holder for its latest record. */
  asked: boolean;
  /** Whether a record heard for the task failed its checks since this tab last read it. */
  doubted: boolean;
  /** The key of the query that reads the task in this tab (the query's own key object). */
  queryKey: readonly unknown[] | undefined;
  /** The query cache listened to for that query's readers, and the stop of that listening. */
  readers: { cache: SharedPollQueryCache; stop: () => void } | undefined;
}

/** Waits until `task` has news or `ms` have passed; `true` for news. Rejects when `signal` aborts. */
function news(task: SharedTask, ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const settle = (outcome: boolean | 'aborted') => {
      clearTimeout(timer);
      task.waiters.delete(onNews);
      signal.removeEventListener('abort', onAbort);
      if (outcome === 'aborted') reject(signal.reason as Error);
      else resolve(outcome);
    };
    const onNews = () => settle(true);
    const onAbort = () => settle('aborted');
    const timer = setTimeout(() => settle(false), clampDelay(ms));
    task.waiters.add(onNews);
    signal.addEventListener('abort', onAbort);
  });
}

function wake(task: SharedTask): void {
  for (const waiter of [...task.waiters]) waiter();
}

/**
 * How long a record (that came with the hint `retryAfterMs`) stays as good as a read of this tab's
 * own: its next poll delay, at most `ceiling`.
 */
function freshFor(
  record: TaskRecord<unknown>,
  retryAfterMs: number | undefined,
  polling: PollingPolicyOptions | undefined,
  ceiling: number,
): number {
  const now = Date.now();
  const delay = nextPollDelay(
    {
      status: record.status,
      estimatedSecondsLeft: record.progress.estimatedSecondsLeft,
      retryAfterMs,
      errorCount: 0,
      error: undefined,
      startedAt: now,
      now,
    },
    polling,
  );
  return delay === false ? 0 : Math.min(delay, ceiling);
}

/** The platform objects a sharing needs, each `undefined` where the runtime lacks it. */
export interface TabPollSharingPlatform {
  /** The Web Locks API of this tab. Defaults to `navigator.locks`. */
  locks?: WebLocks | undefined;
}

/**
 * Creates the sharing of the polls over the BroadcastChannel `channelName` and the Web Locks named
 * after it, or `undefined` where the runtime has no BroadcastChannel or no Web Locks (then each tab
 * polls alone).
 */
export function createTabPollSharing(
  channelName: string,
  platform: TabPollSharingPlatform = { locks: platformLocks() },
): TabPollSharing | undefined {
  const { locks } = platform;
  if (typeof BroadcastChannel === 'undefined' || locks === undefined) return undefined;
  const channel = new BroadcastChannel(channelName);
  // Node's channel would keep a process (a server render, a test run) alive; browsers have no unref.
  (channel as { unref?: () => void }).unref?.();
  const tasks = new Map<string, SharedTask>();
  const lockName = (id: string) => `${channelName}:poll:${id}`;

  const post = (message: z.infer<typeof messageSchema>) => {
    try {
      channel.postMessage(message);
    } catch {
      // A record that cannot be cloned, or a closed channel: the others read for themselves.
    }
  };

  /** Tells the other tabs the record this tab read, with the service's hint that came with it. */
  const postRecord = (id: string, record: TaskRecord<unknown>, hint: number | undefined) =>
    post({ type: 'record', id, record, ...(hint === undefined ? {} : { retryAfterMs: hint }) });

  /** Forgets `task`: its lock released, its waiting request dropped, its timer cleared. */
  const finish = (id: string, task: SharedTask) => {
    if (tasks.get(id) === task) tasks.delete(id);
    clearTimeout(task.idle);
    task.letGo?.();
    task.waiting?.abort();
    task.waiting = undefined;
    task.deliver = undefined;
    task.readers?.stop();
    task.readers = undefined;
    wake(task);
  };

  /**
   * Gives up `task` (its lock, its waiting request) as soon as the query reading it in this tab
   * has no observer left (its components unmounted) or leaves the cache, so that another tab
   * watching it takes the poll over at once instead of waiting a ceiling for records that no
   * longer come. Without a query cache (a caller of its own), the idle timer does it later.
   */
  const watchReaders = (id: string, task: SharedTask, context: SharedPollContext) => {
    task.queryKey = context.queryKey;
    const cache = context.client.getQueryCache?.();
    if (cache === undefined || task.readers?.cache === cache) return;
    task.readers?.stop();
    const stop = cache.subscribe(({ type, query }) => {
      // TanStack Query hands the query function the query's own key object.
      if (query.queryKey !== task.queryKey || tasks.get(id) !== task) return;
      if (type === 'removed' || (type === 'observerRemoved' && query.getObserversCount() === 0))
        finish(id, task);
    });
    task.readers = { cache, stop };
  };

  /** Takes `record` (and its hint) as the newest; a terminal one ends the task's sharing in this tab. */
  const settle = (
    id: string,
    task: SharedTask,
    record: TaskRecord<unknown>,
    retryAfterMs: number | undefined,
  ) => {
    task.record = record;
    task.retryAfterMs = retryAfterMs;
    task.knownAt = Date.now();
    wake(task);
    if (isTerminalStatus(record.status)) finish(id, task);
  };

  /** The callback of a granted lock: held until `letGo`, or let go at once for a dropped task. */
  const hold = (id: string, task: SharedTask) => (lock: unknown) => {
    if (lock === null || lock === undefined || tasks.get(id) !== task) return undefined;
    task.holding = true;
    wake(task);
    return new Promise<void>((resolve) => {
      task.letGo = () => {
        task.holding = false;
        task.letGo = undefined;
        resolve();
      };
    });
  };

  /** Takes the lock if nobody holds it; whether this tab holds it now. */
  const tryLock = (id: string, task: SharedTask) =>
    new Promise<boolean>((decided) => {
      const granted = hold(id, task);
      locks
        .request(lockName(id), { ifAvailable: true }, (lock) => {
          const held = granted(lock);
          decided(held !== undefined);
          return held;
        })
        .catch(() => decided(false));
    });

  /** Queues for the lock, so that this tab polls as soon as the holder lets go or dies. */
  const waitForLock = (id: string, task: SharedTask) => {
    const abort = new AbortController();
    task.waiting = abort;
    const granted = hold(id, task);
    locks
      .request(lockName(id), { signal: abort.signal }, (lock) => {
        if (task.waiting === abort) task.waiting = undefined;
        return granted(lock);
      })
      .catch(() => {
        // Dropped (the task ended here) or refused: the next read asks again.
        if (task.waiting === abort) task.waiting = undefined;
      });
  };

  const onMessage = ({ data }: MessageEvent) => {
    const parsed = messageSchema.safeParse(data);
    if (!parsed.success) return;
    const { type, id } = parsed.data;
    // Only tasks this tab reads: a message never makes this tab keep anything.
    const task = tasks.get(id);
    if (!task) return;
    if (type === 'ask') {
      if (task.holding && task.record) postRecord(id, task.record, task.retryAfterMs);
      return;
    }
    // Checked as an answer of the service would be; a record that fails is not used, and a read
    // waiting for one reads the task itself instead.
    const record = task.check(parsed.data.record);
    if (!record) {
      task.doubted = true;
      wake(task);
      return;
    }
    const hint = parsed.data.retryAfterMs;
    const retryAfterMs = hint === undefined ? undefined : clampDelay(hint, MAX_RETRY_AFTER_MS);
    const deliver = task.deliver;
    settle(id, task, record, retryAfterMs);
    deliver?.(record, retryAfterMs);
  };
  channel.addEventListener('message', onMessage);

  const release = () => {
    for (const task of tasks.values()) task.letGo?.();
  };
  const onVisibilityChange = () => {
    // A hidden tab may stop polling (TanStack Query pauses it): a visible one waiting takes over.
    if (isPageHidden()) release();
  };
  if (typeof addEventListener === 'function') addEventListener('pagehide', release);
  if (typeof document !== 'undefined')
    document.addEventListener('visibilitychange', onVisibilityChange);

  const taskOf = (id: string, check: CheckSharedRecord<TaskRecord<unknown>>) => {
    let task = tasks.get(id);
    if (!task) {
      task = {
        record: undefined,
        knownAt: 0,
        retryAfterMs: undefined,
        holding: false,
        letGo: undefined,
        waiting: undefined,
        check,
        deliver: undefined,
        waiters: new Set(),
        idle: undefined,
        asked: false,
        doubted: false,
        queryKey: undefined,
        readers: undefined,
      };
      tasks.set(id, task);
    }
    return task;
  };

  return {
    share(id, read, check, polling) {
      const ceiling = slowestPollDelay(polling);
      return async (context) => {
        type Record = Awaited<ReturnType<typeof read>>;
        const { client, queryKey, signal, onRetryAfter } = context;
        const task = taskOf(id, check as CheckSharedRecord<TaskRecord<unknown>>);
        /** This tab's own read: its hint told to the query, and kept for the other tabs. */
        const readOwn = async () => {
          let hint: number | undefined;
          const record = await read({
            signal,
            onRetryAfter: (retryAfterMs) => {
              hint = retryAfterMs;
              onRetryAfter?.(retryAfterMs);
            },
          });
          return { record, hint };
        };
        /** A record this tab already knows, its hint told to the query first. */
        const knownRecord = (record: Record) => {
          onRetryAfter?.(task.retryAfterMs);
          return record;
        };
        task.deliver = (record, retryAfterMs) => {
          // Only into a query that still exists: a record never brings a dropped query back, and
          // a task that no query reads is dropped here too.
          if (client.getQueryState(queryKey) === undefined) return finish(id, task);
          onRetryAfter?.(retryAfterMs);
          client.setQueryData(queryKey, record);
        };
        watchReaders(id, task, context);
        clearTimeout(task.idle);
        task.idle = setTimeout(() => finish(id, task), clampDelay(2 * ceiling + IDLE_GRACE_MS));
        for (;;) {
          if (signal.aborted) throw signal.reason;
          const known = task.record as Record | undefined;
          if (known && isTerminalStatus(known.status)) return knownRecord(known);
          if (!tasks.has(id)) return (await readOwn()).record;
          if (!task.holding && !task.waiting && !(await tryLock(id, task))) waitForLock(id, task);
          if (task.holding) {
            const { record, hint } = await readOwn();
            // From this tab's own client, which checked it: posted as it is, with its hint.
            postRecord(id, record, hint);
            settle(id, task, record, hint);
            return record;
          }
          // A record heard within one of this tab's own intervals is as good as reading it now
          // (the interval counted at most to the ceiling, whatever hint the record came with).
          if (
            known &&
            Date.now() - task.knownAt < freshFor(known, task.retryAfterMs, polling, ceiling)
          )
            return knownRecord(known);
          if (!task.asked && !known) {
            task.asked = true;
            post({ type: 'ask', id });
          }
          const heard = await news(task, ceiling, signal);
          if (!heard || task.doubted) {
            // The holder said nothing for a whole ceiling (gone quiet, hung, or never polling), or
            // what came failed its checks: this tab reads the task itself.
            task.doubted = false;
            const { record, hint } = await readOwn();
            if (tasks.get(id) === task) settle(id, task, record, hint);
            return record;
          }
          const record = task.record as Record | undefined;
          if (record && record !== known) return knownRecord(record);
        }
      };
    },
    trackedTasks: () => tasks.size,
    release,
    close() {
      for (const [id, task] of [...tasks]) finish(id, task);
      channel.removeEventListener('message', onMessage);
      channel.close();
      if (typeof removeEventListener === 'function') removeEventListener('pagehide', release);
      if (typeof document !== 'undefined')
        document.removeEventListener('visibilitychange', onVisibilityChange);
    },
  };
}
