/**
 * The journal of the tasks this browser started, so that a reload or a second tab does not lose a
 * task that runs, and is paid for, at the service (docs/protocol.md, "The hooks"). Entries are
 * stored per client scope (another scope's entries are never read), bounded in number and age, and
 * kept in a Web Storage object or in memory.
 *
 * Storage is untrusted: each stored entry is checked on its own, and one that fails is dropped while
 * the others are kept. What the journal accepts it keeps: an entry it could not store again (too long
 * a key) is refused when written, with an error, before anything is sent; a storage that throws keeps
 * the entries in memory and is tried again on the next write; entries past their age are removed
 * from the storage itself.
 *
 * A start is recorded before its request leaves (`begin`): a Submit with its idempotency key and
 * body, so that after a reload mid-request the same Submit is sent again and the service answers
 * the first task; a stream's start, so that one cut before its task id arrived is listed as a start
 * whose outcome is unknown. A start lives no longer than its request: the task's entry replaces it
 * when the answer arrives, and an error the page shows forgets it (src/state/submit-write-ahead.ts),
 * so only a start cut by a reload is left.
 *
 * Through the journal, too, the tabs of an origin share the polling of the tasks they watch
 * (src/state/tab-poll-sharing.ts), so that an app without a journal loads none of that code.
 */
import * as z from 'zod/mini';
import { TaskwireError } from '../client/errors.js';
import {
  isTerminalStatus,
  taskIdSchema,
  taskStatusSchema,
  type TaskRecord,
  type TaskStatus,
} from '../protocol/records.js';
import { sharedRecordCheck, type SharedPollClient } from './check-shared-record.js';
import type { PollingPolicyOptions } from './polling-policy.js';
import {
  createTabPollSharing,
  type ReadSharedRecord,
  type SharedPollContext,
  type TabPollSharing,
} from './tab-poll-sharing.js';
import { platformLocks } from './web-locks.js';

/** How a journal entry's task was started. */
export type TaskJournalMode = 'submit' | 'stream' | 'execute';

/** One task this browser started. */
export interface TaskJournalEntry {
  /** The `resumeKey` it was started under, when the hook was given one. */
  key?: string | undefined;
  /** The task name. */
  task: string;
  /** The task id. */
  id: string;
  /** How it was started. */
  mode: TaskJournalMode;
  /** Its latest known status. */
  status: TaskStatus;
  /** When it was started, in epoch milliseconds; its age counts from here. */
  startedAt: number;
  /**
   * The params it was started with, kept only by a journal created with `keepParams: true`, so that
   * a page after a reload can show the form as the task was started. The hooks give them checked
   * against the task's params schema in the client's task map; params that fail are left out.
   */
  params?: unknown;
}

/** What a Submit sends, kept by a start until its answer arrives, to send it again after a reload. */
export interface TaskJournalSubmitBody {
  /** The task's params. */
  params: unknown;
  /** The notification request, if any. */
  notification?: unknown;
}

/**
 * A start whose answer has not arrived: recorded before the request leaves, replaced by the task's
 * entry when the answer comes. One left after a reload is a start whose outcome is unknown.
 */
export interface TaskJournalStart {
  /** The `resumeKey` the hook started it under; a key names one task, or start, at a time. */
  key: string;
  /** The task name. */
  task: string;
  /** How it was started: `'submit'` (sent again after a reload) or `'stream'` (listed as unknown). */
  mode: 'submit' | 'stream';
  /** When it was started, in epoch milliseconds. */
  startedAt: number;
  /** The idempotency key the Submit carries, so that sending it again makes no second task. */
  idempotencyKey?: string | undefined;
  /**
   * The Submit's body, to send it again; removed from storage as soon as the request ends. Absent
   * for a body over 64 KiB of JSON: that Submit is sent without it, and one cut by a reload is
   * listed as a start whose outcome is unknown, never sent again.
   */
  body?: TaskJournalSubmitBody | undefined;
}

/**
 * The part of a Web Storage area (`sessionStorage`, `localStorage`) a journal uses, written by
 * shape so that the declarations need no DOM library.
 */
export interface TaskJournalStorageArea {
  /** The value stored under `key`, or `null`. */
  getItem(key: string): string | null;
  /** Stores `value` under `key`; may throw (a full quota, private mode). */
  setItem(key: string, value: string): void;
  /** Removes the value under `key`. */
  removeItem(key: string): void;
  /**
   * How many keys it holds. With `key`, it lets the journal remove the entries past their age of
   * every scope, not only of those it reads; a Web Storage area has both.
   */
  readonly length?: number;
  /** The name of the `index`-th key, or `null`. */
  key?(index: number): string | null;
}

/** Where a journal keeps its entries: a Web Storage area, memory, or any object of that shape. */
export type TaskJournalStorage = 'session' | 'local' | 'memory' | TaskJournalStorageArea;

/** Settings of {@link createTaskJournal}. */
export interface TaskJournalOptions {
  /** Where entries are kept. Defaults to `'session'` where `sessionStorage` exists, else `'memory'`. */
  storage?: TaskJournalStorage;
  /** How many entries are kept per scope, the newest first. Defaults to `50`. */
  maxEntries?: number;
  /** How long an entry is kept after its task started, in milliseconds. Defaults to 24 hours. */
  maxAgeMs?: number;
  /** The clock, in epoch milliseconds. Defaults to `Date.now`. */
  now?: () => number;
  /**
   * Whether each task's params are kept with its entry (`TaskJournalEntry.params`), so that a page
   * after a reload can show the form as the running task was started. They live as long as the
   * entry, under its scope only; params over 64 KiB of JSON are not kept. Without it, no params are
   * kept past the answer (a Submit's body leaves the storage when its request ends). Defaults to
   * `false`.
   */
  keepParams?: boolean;
  /**
   * Whether the tabs of this origin share the polling of a task they all watch (docs/protocol.md,
   * "The hooks"): the tab that holds the task's Web Lock reads the record and posts it on a
   * BroadcastChannel named after the client scope; the others check it and take it from there.
   * Where BroadcastChannel or Web Locks do not exist each tab polls alone. Defaults to `true`.
   */
  sharePolling?: boolean;
}

/** The tasks this browser started, per client scope. */
export interface TaskJournal {
  /** The entries of `scope`, newest first, without those past their age. */
  entries(scope: string): readonly TaskJournalEntry[];
  /** The starts of `scope` whose answer has not arrived, newest first. */
  starts(scope: string): readonly TaskJournalStart[];
  /**
   * Adds an entry, replacing the one with the same task id, any older one with the same `key` (a
   * key names one task at a time) and the start of that key; the oldest beyond the bound go.
   *
   * @throws TaskwireError (`protocol`, `JOURNAL_ENTRY_REFUSED`) for an entry the journal could not
   * store and read back (a key or task name too long); nothing is changed then.
   */
  record(scope: string, entry: TaskJournalEntry): void;
  /**
   * Records a start before its request leaves, replacing any start or entry of the same key. A
   * body over 64 KiB of JSON is not stored: the start is kept without it.
   *
   * @throws TaskwireError (`protocol`, `JOURNAL_ENTRY_REFUSED`) for a start it could not store and
   * read back (a key or task name too long); nothing is changed then, and nothing should be sent.
   */
  begin(scope: string, start: TaskJournalStart): void;
  /**
   * Forgets the start of `key`, body and all: its request ended in an error the page showed, or
   * the user dismissed it.
   */
  forgetStart(scope: string, key: string): void;
  /** Changes the status of the entry of task `id`, if there is one. */
  update(scope: string, id: string, change: Pick<TaskJournalEntry, 'status'>): void;
  /** Removes the entry of task `id`. */
  remove(scope: string, id: string): void;
  /**
   * Removes every entry and start of `scope` from the storage, bodies and params included: call
   * it when that user signs out. The tasks themselves go on at the service.
   */
  clear(scope: string): void;
  /**
   * Removes the entries and starts past their age from the storage itself: of `scope`, or without
   * one of every scope the storage holds (the provider does this when a page first reads it).
   */
  prune(scope?: string): void;
  /** Listens for changes, this tab's and (with local storage) other tabs'; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /**
   * Wraps `read`, the query function that reads the record of task `id` (of `task`, by `client`,
   * polled on the schedule `polling`), so that of the tabs of this origin watching the task only one
   * calls it at a time; the others take the records it posts, checked against `client`'s task map,
   * into the query's cache (through the `client` and `queryKey` of TanStack Query's query function
   * context). The hooks call it. Returns `read` itself when `sharePolling` is `false`, the journal
   * is closed, or the runtime has no BroadcastChannel or Web Locks.
   */
  sharePoll<Record extends TaskRecord<unknown>>(
    client: SharedPollClient,
    task: string,
    id: string,
    read: ReadSharedRecord<Record>,
    polling?: PollingPolicyOptions,
  ): (context: SharedPollContext) => Promise<Record>;
  /** How many tasks the tab sharing keeps state for now, over every scope. */
  sharedTasks(): number;
  /** Releases the journal's channels, locks and listeners; it reads and writes no more after. */
  close(): void;
}

/** The longest `resumeKey`, task name or last event id the journal stores. */
export const MAX_JOURNAL_KEY_LENGTH = 256;
/** The largest Submit body a start keeps, as JSON text; a larger one is sent without being stored. */
export const MAX_JOURNAL_BODY_LENGTH = 64 * 1024;

const keySchema = z.string().check(z.minLength(1), z.maxLength(MAX_JOURNAL_KEY_LENGTH));
const taskNameSchema = z.string().check(z.minLength(1), z.maxLength(128));

const entrySchema = z.object({
  key: z.optional(keySchema),
  task: taskNameSchema,
  id: taskIdSchema,
  mode: z.enum(['submit', 'stream', 'execute']),
  status: taskStatusSchema,
  startedAt: z.number().check(z.nonnegative()),
  params: z.optional(z.unknown()),
});

const startSchema = z.object({
  key: keySchema,
  task: taskNameSchema,
  mode: z.enum(['submit', 'stream']),
  startedAt: z.number().check(z.nonnegative()),
  idempotencyKey: z.optional(keySchema),
  body: z.optional(z.object({ params: z.unknown(), notification: z.optional(z.unknown()) })),
});

/** The stored value: its entries and starts are checked one by one, not as a whole. */
const storedSchema = z.object({
  version: z.literal(1),
  entries: z.array(z.unknown()),
  starts: z.optional(z.array(z.unknown())),
});

/** The prefix of every storage key the journal writes; keys of other origins' code are left alone. */
const STORAGE_PREFIX = 'taskwire:journal:';

function memoryStorage(): TaskJournalStorageArea {
  const values = new Map<string, string>();
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
    get length() {
      return values.size;
    },
    key: (index) => [...values.keys()][index] ?? null,
  };
}

/** The Web Storage area named, or `undefined` where the runtime has none (or refuses access). */
function webStorage(name: 'sessionStorage' | 'localStorage'): TaskJournalStorageArea | undefined {
  try {
    return (globalThis as Record<string, unknown>)[name] as TaskJournalStorageArea | undefined;
  } catch {
    // Reading `localStorage` throws where cookies are blocked.
    return undefined;
  }
}

/** What the journal holds for one scope. */
interface ScopeState {
  entries: readonly TaskJournalEntry[];
  starts: readonly TaskJournalStart[];
}

/** The stored value of `state`, or `null` (no key at all) when it holds nothing. */
function serialize({ entries, starts }: ScopeState): string | null {
  if (entries.length === 0 && starts.length === 0) return null;
  return JSON.stringify(
    starts.length === 0 ? { version: 1, entries } : { version: 1, entries, starts },
  );
}

/** `value`'s length as JSON, or `Infinity` for a value JSON cannot hold. */
function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? Infinity;
  } catch {
    return Infinity;
  }
}

const EMPTY: ScopeState = { entries: [], starts: [] };

/** The error for what the journal will not store, naming what to change. */
function refused(what: string, issues: readonly z.core.$ZodIssue[]): TaskwireError {
  const first = issues[0];
  const where =
    first && first.path.length > 0 ? ` (${first.path.join('.')}: ${first.message})` : '';
  return new TaskwireError(
    'protocol',
    `The task journal cannot store this ${what}${where}: a resumeKey and a task name may be at most ${String(MAX_JOURNAL_KEY_LENGTH)} characters. Use a shorter resumeKey.`,
    { reason: 'JOURNAL_ENTRY_REFUSED', retryable: false },
  );
}

/** Creates a {@link TaskJournal}. Nothing is stored until a task is recorded. */
export function createTaskJournal(options: TaskJournalOptions = {}): TaskJournal {
  const maxEntries = options.maxEntries ?? 50;
  const maxAgeMs = options.maxAgeMs ?? 24 * 60 * 60 * 1000;
  const now = options.now ?? Date.now;
  const keepParams = options.keepParams ?? false;
  const requested = options.storage ?? 'session';
  const storage: TaskJournalStorageArea =
    typeof requested === 'object'
      ? requested
      : requested === 'memory'
        ? memoryStorage()
        : (webStorage(requested === 'local' ? 'localStorage' : 'sessionStorage') ??
          memoryStorage());
  // Read once, when the journal is made: the tabs' lock manager (absent on a server).
  const locks = options.sharePolling === false ? undefined : platformLocks();
  const listeners = new Set<() => void>();
  // Each scope's state as last read or written, so `entries` returns the same array until they
  // change (React's useSyncExternalStore compares snapshots by identity).
  const cache = new Map<string, { text: string | null; state: ScopeState }>();
  // What a throwing storage did not take, per scope: read from here, written again on the next write.
  const unsaved = new Map<string, string | null>();
  let closed = false;

  const keyOf = (scope: string) => STORAGE_PREFIX + scope;

  function readText(scope: string): string | null {
    if (unsaved.has(scope)) return unsaved.get(scope) ?? null;
    try {
      return storage.getItem(keyOf(scope));
    } catch {
      return null;
    }
  }

  /**
   * `entry` with the params this journal keeps: none without `keepParams`, nor any too large to
   * store; `undefined` params are left out, so an entry never shows the member empty.
   */
  function withKeptParams(entry: TaskJournalEntry): TaskJournalEntry {
    const { params, ...rest } = entry;
    return keepParams && params !== undefined && jsonLength(params) <= MAX_JOURNAL_BODY_LENGTH
      ? { ...rest, params }
      : rest;
  }

  /** The stored value, each entry and start checked on its own; a future start time is now. */
  function parse(text: string | null): ScopeState {
    if (text === null) return EMPTY;
    let stored;
    try {
      stored = storedSchema.safeParse(JSON.parse(text));
    } catch {
      return EMPTY;
    }
    if (!stored.success) return EMPTY;
    const at = now();
    const entries: TaskJournalEntry[] = [];
    for (const candidate of stored.data.entries) {
      const entry = entrySchema.safeParse(candidate);
      if (entry.success)
        entries.push(
          withKeptParams({ ...entry.data, startedAt: Math.min(entry.data.startedAt, at) }),
        );
    }
    const starts: TaskJournalStart[] = [];
    for (const candidate of stored.data.starts ?? []) {
      const start = startSchema.safeParse(candidate);
      if (start.success)
        starts.push({ ...start.data, startedAt: Math.min(start.data.startedAt, at) });
    }
    return { entries, starts };
  }

  function fresh(state: ScopeState): ScopeState {
    const oldest = now() - maxAgeMs;
    const bound = Math.max(0, maxEntries);
    return {
      entries: state.entries
        .filter((entry) => entry.startedAt >= oldest)
        .sort((a, b) => b.startedAt - a.startedAt)
        .slice(0, bound),
      starts: state.starts
        .filter((start) => start.startedAt >= oldest)
        .sort((a, b) => b.startedAt - a.startedAt)
        .slice(0, bound),
    };
  }

  function read(scope: string): ScopeState {
    const text = readText(scope);
    const cached = cache.get(scope);
    if (cached && cached.text === text) {
      // The same stored value: the same arrays, unless something has aged out since.
      const kept = fresh(cached.state);
      if (
        kept.entries.length === cached.state.entries.length &&
        kept.starts.length === cached.state.starts.length
      )
        return cached.state;
      const state = {
        entries:
          kept.entries.length === cached.state.entries.length ? cached.state.entries : kept.entries,
        starts:
          kept.starts.length === cached.state.starts.length ? cached.state.starts : kept.starts,
      };
      cache.set(scope, { text, state });
      return state;
    }
    const state = fresh(parse(text));
    cache.set(scope, { text, state });
    return state;
  }

  /** Stores `text` for `scope`; `false` when the storage threw (the text is kept in memory then). */
  function store(scope: string, text: string | null): boolean {
    try {
      if (text === null) storage.removeItem(keyOf(scope));
      else storage.setItem(keyOf(scope), text);
      unsaved.delete(scope);
      return true;
    } catch {
      // A full quota or private mode: kept in memory, and tried again on the next write.
      unsaved.set(scope, text);
      return false;
    }
  }

  function write(scope: string, next: ScopeState): void {
    if (closed) return;
    const kept = fresh(next);
    const text = serialize(kept);
    for (const [other, otherText] of [...unsaved]) if (other !== scope) store(other, otherText);
    store(scope, text);
    cache.set(scope, { text, state: kept });
    for (const listener of listeners) listener();
  }

  /** The scopes the storage holds entries of (every key under the prefix), and those kept in memory. */
  function storedScopes(): string[] {
    const scopes = new Set(unsaved.keys());
    try {
      const count = storage.length ?? 0;
      for (let index = 0; index < count && storage.key; index += 1) {
        const key = storage.key(index);
        if (key?.startsWith(STORAGE_PREFIX)) scopes.add(key.slice(STORAGE_PREFIX.length));
      }
    } catch {
      // A storage that refuses to list its keys: the scopes this journal knows of.
    }
    for (const scope of cache.keys()) scopes.add(scope);
    return [...scopes];
  }

  /**
   * Rewrites the stored value of `scope` as this journal keeps it, when that differs: without the
   * entries and starts past their age, those that failed their checks, or the params a journal
   * with `keepParams` stored when this one keeps none.
   */
  function pruneScope(scope: string): void {
    const text = readText(scope);
    const stored = parse(text);
    // A value this journal cannot read at all (a later version's) is left as it is.
    if (stored === EMPTY) return;
    const kept = fresh(stored);
    if (serialize(kept) !== text) write(scope, kept);
  }

  /** Checks what is about to be stored, so nothing is accepted that could not be read back. */
  function check<Value>(schema: z.ZodMiniType<Value>, value: Value, what: string): Value {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw refused(what, parsed.error.issues);
    return parsed.data;
  }

  // One sharing per scope, made on the first shared read: the channel's name is the scope's key.
  const sharings = new Map<string, TabPollSharing | undefined>();
  const sharingOf = (scope: string) => {
    if (!sharings.has(scope)) sharings.set(scope, createTabPollSharing(keyOf(scope), { locks }));
    return sharings.get(scope);
  };

  const onStorage = (event: { key: string | null }) => {
    if (event.key !== null && !event.key.startsWith(STORAGE_PREFIX)) return;
    for (const listener of listeners) listener();
  };

  return {
    sharePoll(client, task, id, readRecord, polling) {
      const sharing = closed || locks === undefined ? undefined : sharingOf(client.scope);
      return sharing
        ? sharing.share(id, readRecord, sharedRecordCheck(client, task, id), polling)
        : readRecord;
    },
    sharedTasks: () =>
      [...sharings.values()].reduce((sum, sharing) => sum + (sharing?.trackedTasks() ?? 0), 0),
    entries: (scope) => read(scope).entries,
    starts: (scope) => read(scope).starts,
    record(scope, entry) {
      const checked = withKeptParams(
        check(entrySchema, { ...entry, startedAt: Math.min(entry.startedAt, now()) }, 'entry'),
      );
      const state = read(scope);
      const sameKey = (key: string | undefined) => checked.key !== undefined && key === checked.key;
      write(scope, {
        entries: [
          checked,
          ...state.entries.filter(
            (existing) => existing.id !== checked.id && !sameKey(existing.key),
          ),
        ],
        starts: state.starts.filter((start) => !sameKey(start.key)),
      });
    },
    begin(scope, start) {
      const { body, ...rest } = check(
        startSchema,
        { ...start, startedAt: Math.min(start.startedAt, now()) },
        'start',
      );
      // Too large to store: the Submit goes without its body written ahead (docs/protocol.md,
      // "The hooks").
      const checked =
        body === undefined || jsonLength(body) > MAX_JOURNAL_BODY_LENGTH ? rest : { ...rest, body };
      const state = read(scope);
      write(scope, {
        entries: state.entries.filter((entry) => entry.key !== checked.key),
        starts: [checked, ...state.starts.filter((existing) => existing.key !== checked.key)],
      });
    },
    forgetStart(scope, key) {
      const state = read(scope);
      if (state.starts.some((start) => start.key === key))
        write(scope, { ...state, starts: state.starts.filter((start) => start.key !== key) });
    },
    update(scope, id, change) {
      const state = read(scope);
      const entry = state.entries.find((existing) => existing.id === id);
      if (!entry) return;
      if (entry.status === change.status) return;
      // A terminal status is final: a late, older answer must not bring a task back to life.
      if (isTerminalStatus(entry.status) && !isTerminalStatus(change.status)) return;
      write(scope, {
        ...state,
        entries: state.entries.map((existing) =>
          existing.id === id ? { ...existing, ...change } : existing,
        ),
      });
    },
    remove(scope, id) {
      const state = read(scope);
      if (state.entries.some((entry) => entry.id === id)) {
        write(scope, { ...state, entries: state.entries.filter((entry) => entry.id !== id) });
      }
    },
    clear(scope) {
      // Whatever the stored value holds, read or not (aged out, unreadable): the key goes.
      const state = read(scope);
      if (state.entries.length > 0 || state.starts.length > 0 || readText(scope) !== null)
        write(scope, EMPTY);
    },
    prune(scope) {
      for (const each of scope === undefined ? storedScopes() : [scope]) pruneScope(each);
    },
    subscribe(listener) {
      if (closed) return () => undefined;
      if (listeners.size === 0 && typeof addEventListener === 'function') {
        addEventListener('storage', onStorage);
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && typeof removeEventListener === 'function') {
          removeEventListener('storage', onStorage);
        }
      };
    },
    close() {
      closed = true;
      for (const sharing of sharings.values()) sharing?.close();
      sharings.clear();
      listeners.clear();
      if (typeof removeEventListener === 'function') removeEventListener('storage', onStorage);
    },
  };
}
