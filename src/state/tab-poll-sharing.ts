/**
 * One poll per task across the tabs of an origin (docs/protocol.md, "The hooks", on the journal).
 * Of the tabs that read a task's record through a journal, one at a time holds the task's lease and
 * asks the service; it posts each record it reads on a BroadcastChannel (one per client scope, so
 * one user's tabs never hear another's), and the others take their records from there.
 *
 * The rules, each tab applying them on its own:
 * - A tab that first reads a task asks who polls it and waits a moment for an answer; nobody
 *   answering, it claims the task and polls. Two tabs asking at once: the one whose id sorts first
 *   claims, the other waits for its claim.
 * - Each record posted carries a lease: twice the delay until the holder's next poll (by the polling
 *   policy, `Retry-After` included) and a second more. While the lease runs, the others read no
 *   record themselves; once it lapses (the holder closed, hung, or froze) the next tab to poll claims
 *   the task. A tab that goes away (`pagehide`) or is hidden hands its leases back at once.
 * - Two tabs that both hold a task (a race, or a frozen tab come back) settle it: a visible tab
 *   outranks a hidden one, then the smaller id wins; the loser follows.
 * - A terminal record (COMPLETED or FAILED) ends the sharing of that task: every tab keeps the record
 *   and never asks for it again.
 *
 * Where `BroadcastChannel` does not exist, there is no sharing: each tab polls alone, as it would
 * without a journal. The `storage` event is no fallback: it needs a storage the tabs share, which a
 * session or memory journal is not, and every browser this package supports has BroadcastChannel.
 */
import * as z from 'zod/mini';
import { isTerminalStatus, taskIdSchema, taskRecordSchema } from '../protocol/records.js';
import type { TaskRecord } from '../protocol/records.js';
import {
  isPageHidden as isHidden,
  nextPollDelay,
  retryAfterHints,
  slowestPollDelay,
} from './polling-policy.js';
import type { PollingPolicyOptions } from './polling-policy.js';

/** How long a tab reading a task for the first time waits for another tab to say it polls it. */
export const DISCOVERY_MS = 100;
/** The lease of a claim, before the claimant's first record: time enough for one Get Result. */
export const CLAIM_LEASE_MS = 5000;
/** What a record's lease adds to twice the delay until the holder's next poll. */
export const LEASE_GRACE_MS = 1000;

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
  /** The QueryClient that holds the query. */
  client: {
    /** The query's state, or `undefined` when nothing reads it (no record is put then). */
    getQueryState(queryKey: readonly unknown[]): unknown;
    /** Puts a record heard from another tab into the query. */
    setQueryData(queryKey: readonly unknown[], data: unknown): unknown;
  };
}

/** Reads a task's record from the service: the query function being shared. */
export type ReadSharedRecord<Record> = (context: { signal: AbortSignal }) => Promise<Record>;

/** The polls of one client scope, shared with the other tabs of the origin. */
export interface TabPollSharing {
  /**
   * Wraps `read` so that, of all tabs, only the one holding task `id`'s lease calls it; in the others
   * the wrapper resolves to the newest record that tab posted. `polling` is the schedule the reads
   * follow, from which the lease is reckoned.
   */
  share<Record extends TaskRecord<unknown>>(
    id: string,
    read: ReadSharedRecord<Record>,
    polling?: PollingPolicyOptions,
  ): (context: SharedPollContext) => Promise<Record>;
  /** Hands back every lease this tab holds, as a tab going away does. */
  release(): void;
  /** Hands back the leases and stops listening. */
  close(): void;
}

const messageSchema = z.object({
  type: z.enum(['ask', 'claim', 'record', 'release']),
  id: taskIdSchema,
  from: z.string(),
  hidden: z.optional(z.boolean()),
  leaseMs: z.optional(z.number().check(z.nonnegative())),
  record: z.optional(taskRecordSchema),
});

type Message = z.infer<typeof messageSchema>;

/** What this tab knows of one task. */
interface SharedTask {
  /** The tab that polls it, or `undefined` when none is known. */
  holder: string | undefined;
  /** Whether the holder was hidden when it last said so. */
  holderHidden: boolean;
  /** When the holder's lease lapses, in epoch milliseconds. */
  until: number;
  /** The newest record this tab knows. */
  record: TaskRecord<unknown> | undefined;
  /** Whether this tab has asked the others who polls it. */
  asked: boolean;
  /** Puts a record heard from another tab where this tab's components read it. */
  deliver: ((record: TaskRecord<unknown>) => void) | undefined;
  /** Reads waiting for news of the task. */
  waiters: Set<() => void>;
}

/** Waits until `task` has news, `ms` have passed, or `signal` aborts. */
function news(task: SharedTask, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      task.waiters.delete(done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    task.waiters.add(done);
    signal.addEventListener('abort', done);
  });
}

function wake(task: SharedTask): void {
  for (const waiter of [...task.waiters]) waiter();
}

/** How long the others should wait for this tab's next record after `record`. */
function leaseAfter(
  record: TaskRecord<unknown>,
  polling: PollingPolicyOptions | undefined,
): number {
  const now = Date.now();
  const delay = nextPollDelay(
    {
      status: record.status,
      estimatedSecondsLeft: record.progress.estimatedSecondsLeft,
      retryAfterMs: retryAfterHints.get(record),
      errorCount: 0,
      error: undefined,
      startedAt: now,
      now,
    },
    polling,
  );
  if (delay === false) return 0;
  // A hidden tab polls at the ceiling if at all (useCompletionNotice).
  return 2 * (isHidden() ? Math.max(delay, slowestPollDelay(polling)) : delay) + LEASE_GRACE_MS;
}

/**
 * Creates the sharing of the polls over the BroadcastChannel `channelName`, or `undefined` where
 * the runtime has no BroadcastChannel (then each tab polls alone).
 */
export function createTabPollSharing(channelName: string): TabPollSharing | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined;
  const channel = new BroadcastChannel(channelName);
  // Node's channel would keep a process (a server render, a test run) alive; browsers have no unref.
  (channel as { unref?: () => void }).unref?.();
  const tabId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const tasks = new Map<string, SharedTask>();

  const post = (message: Omit<Message, 'from' | 'hidden'>) => {
    try {
      channel.postMessage({ ...message, from: tabId, hidden: isHidden() });
    } catch {
      // A record that cannot be cloned, or a closed channel: the others poll for themselves.
    }
  };

  /** Tells the others what this tab holds: its newest record, or its claim. */
  const answer = (id: string, task: SharedTask) => {
    const leaseMs = Math.max(0, task.until - Date.now());
    post(
      task.record
        ? { type: 'record', id, leaseMs, record: task.record }
        : { type: 'claim', id, leaseMs },
    );
  };

  /** Whether this tab, holding a task, keeps it against `message`'s sender. */
  const outranks = (message: Message) => {
    const hidden = isHidden();
    const otherHidden = message.hidden ?? false;
    return hidden === otherHidden ? tabId < message.from : otherHidden;
  };

  const settle = (task: SharedTask, record: TaskRecord<unknown>) => {
    task.record = record;
    // A terminal record ends the sharing: nobody holds the task, nobody reads it again.
    if (isTerminalStatus(record.status)) task.holder = undefined;
  };

  const onMessage = ({ data }: MessageEvent) => {
    const parsed = messageSchema.safeParse(data);
    if (!parsed.success) return;
    const message = parsed.data;
    const task = tasks.get(message.id);
    if (!task || message.from === tabId) return;
    if (task.record && isTerminalStatus(task.record.status)) return;
    const now = Date.now();
    const leading = task.holder === tabId && task.until > now;
    switch (message.type) {
      case 'ask':
        if (leading) answer(message.id, task);
        else if (task.holder === undefined && message.from < tabId) {
          // Two tabs looking for the poll at once: the other claims it, this one waits for that.
          task.holder = message.from;
          task.holderHidden = message.hidden ?? false;
          task.until = now + 2 * DISCOVERY_MS;
        }
        break;
      case 'release':
        if (task.holder === message.from) task.holder = undefined;
        break;
      case 'claim':
      case 'record':
        if (message.record && message.record.id === message.id) {
          // The holder's client checked it against the task's result schema before posting it.
          const record = message.record as TaskRecord<unknown>;
          settle(task, record);
          task.deliver?.(record);
          if (isTerminalStatus(record.status)) break;
        }
        if (leading && outranks(message)) answer(message.id, task);
        else {
          task.holder = message.from;
          task.holderHidden = message.hidden ?? false;
          task.until = now + (message.leaseMs ?? 0);
        }
        break;
      default:
        message.type satisfies never;
    }
    wake(task);
  };
  channel.addEventListener('message', onMessage);

  const release = () => {
    const now = Date.now();
    for (const [id, task] of tasks) {
      if (task.holder !== tabId || task.until <= now) continue;
      post({ type: 'release', id });
      task.holder = undefined;
    }
  };
  const onVisibilityChange = () => {
    // A hidden tab may stop polling (TanStack Query pauses it): let a visible one take over now.
    if (isHidden()) release();
  };
  if (typeof addEventListener === 'function') addEventListener('pagehide', release);
  if (typeof document !== 'undefined')
    document.addEventListener('visibilitychange', onVisibilityChange);

  const taskOf = (id: string) => {
    let task = tasks.get(id);
    if (!task) {
      task = {
        holder: undefined,
        holderHidden: false,
        until: 0,
        record: undefined,
        asked: false,
        deliver: undefined,
        waiters: new Set(),
      };
      tasks.set(id, task);
    }
    return task;
  };

  /** This tab polls: claims the task unless it holds it already, reads, and posts the record. */
  const lead = async <Record extends TaskRecord<unknown>>(
    id: string,
    task: SharedTask,
    read: () => Promise<Record>,
    polling: PollingPolicyOptions | undefined,
  ): Promise<Record> => {
    if (task.holder !== tabId || task.until <= Date.now()) {
      task.holder = tabId;
      task.until = Date.now() + CLAIM_LEASE_MS;
      post({ type: 'claim', id, leaseMs: CLAIM_LEASE_MS });
    }
    const record = await read();
    if (task.holder === tabId) {
      const leaseMs = leaseAfter(record, polling);
      task.until = Date.now() + leaseMs;
      post({ type: 'record', id, leaseMs, record });
    }
    settle(task, record);
    wake(task);
    return record;
  };

  return {
    share(id, read, polling) {
      return async (context) => {
        const task = taskOf(id);
        const { client, queryKey, signal } = context;
        task.deliver = (record) => {
          // Only into a query that still exists: a record never brings a dropped query back.
          if (client.getQueryState(queryKey) !== undefined) client.setQueryData(queryKey, record);
        };
        for (;;) {
          if (signal.aborted) throw signal.reason;
          const known = task.record as Awaited<ReturnType<typeof read>> | undefined;
          if (known && isTerminalStatus(known.status)) return known;
          const now = Date.now();
          const followed =
            task.holder !== undefined &&
            task.holder !== tabId &&
            task.until > now &&
            // A visible tab takes the poll from a hidden one, which may have stopped polling.
            (!task.holderHidden || isHidden());
          if (followed) {
            if (known) return known;
            await news(task, task.until - now, signal);
          } else if (task.holder === undefined && !task.asked) {
            task.asked = true;
            post({ type: 'ask', id });
            await news(task, DISCOVERY_MS, signal);
          } else {
            return lead(id, task, () => read({ signal }), polling);
          }
        }
      };
    },
    release,
    close() {
      release();
      channel.removeEventListener('message', onMessage);
      channel.close();
      if (typeof removeEventListener === 'function') removeEventListener('pagehide', release);
      if (typeof document !== 'undefined')
        document.removeEventListener('visibilitychange', onVisibilityChange);
    },
  };
}
