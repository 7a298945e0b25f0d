/**
 * The journal of the tasks this browser started, so that a reload or a second tab does not lose a
 * task that runs, and is paid for, at the service. Entries are stored per client scope (another
 * scope's entries are never read), bounded in number and age, and kept in a Web Storage object or
 * in memory. Storage is untrusted: a corrupt or foreign value is ignored, a storage that throws
 * (private mode, a full quota) degrades to memory, and neither ever stops a task from starting.
 * Through the journal, too, the tabs of an origin share the polling of the tasks they watch
 * (src/state/tab-poll-sharing.ts), so that an app without a journal loads none of that code.
 */
import * as z from 'zod/mini';
import {
  isTerminalStatus,
  taskIdSchema,
  taskStatusSchema,
  type TaskRecord,
  type TaskStatus,
} from '../protocol/records.js';
import type { PollingPolicyOptions } from './polling-policy.js';
import {
  createTabPollSharing,
  type ReadSharedRecord,
  type SharedPollContext,
  type TabPollSharing,
} from './tab-poll-sharing.js';

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
  /** The id of the last custom event seen, when a stream saw one. */
  lastEventId?: string | undefined;
}

/** Where a journal keeps its entries: a Web Storage area, memory, or any object of that shape. */
export type TaskJournalStorage =
  'session' | 'local' | 'memory' | Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

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
   * Whether the tabs of this origin share the polling of a task they all watch (docs/protocol.md, "The hooks"): one
   * tab reads the record and posts it on a BroadcastChannel named after the client scope, the others
   * take it from there; when that tab goes away or stops answering, another takes over. It holds
   * whatever `storage` is. Where BroadcastChannel does not exist each tab polls alone. Defaults to
   * `true`.
   */
  sharePolling?: boolean;
}

/** The tasks this browser started, per client scope. */
export interface TaskJournal {
  /** The entries of `scope`, newest first, without those past their age. */
  entries(scope: string): readonly TaskJournalEntry[];
  /**
   * Adds an entry, replacing the one with the same task id and any older one with the same `key`
   * (a key names one task at a time); the oldest beyond the bound go.
   */
  record(scope: string, entry: TaskJournalEntry): void;
  /** Changes the status (and last event id) of the entry of task `id`, if there is one. */
  update(scope: string, id: string, change: Pick<TaskJournalEntry, 'status' | 'lastEventId'>): void;
  /** Removes the entry of task `id`. */
  remove(scope: string, id: string): void;
  /** Removes every entry of `scope`. */
  clear(scope: string): void;
  /** Listens for changes, this tab's and (with local storage) other tabs'; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /**
   * Wraps `read`, the query function that reads the record of task `id` of `scope` (polled on the
   * schedule `polling`), so that of the tabs of this origin watching the task only one calls it at a
   * time; in the others it resolves to the newest record that tab read, and each record heard is put
   * into the query's cache (through the `client` and `queryKey` of TanStack Query's query function
   * context). The hooks call it. Returns `read` itself when `sharePolling` is `false` or the runtime
   * has no BroadcastChannel.
   */
  sharePoll<Record extends TaskRecord<unknown>>(
    scope: string,
    id: string,
    read: ReadSharedRecord<Record>,
    polling?: PollingPolicyOptions,
  ): (context: SharedPollContext) => Promise<Record>;
}

const entrySchema = z.object({
  key: z.optional(z.string().check(z.maxLength(256))),
  task: z.string().check(z.minLength(1), z.maxLength(128)),
  id: taskIdSchema,
  mode: z.enum(['submit', 'stream', 'execute']),
  status: taskStatusSchema,
  startedAt: z.number(),
  lastEventId: z.optional(z.string().check(z.maxLength(256))),
});
const storedSchema = z.object({ version: z.literal(1), entries: z.array(entrySchema) });

/** The prefix of every storage key the journal writes; keys of other origins' code are left alone. */
const STORAGE_PREFIX = 'taskwire:journal:';

type StorageArea = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function memoryStorage(): StorageArea {
  const values = new Map<string, string>();
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
  };
}

/** The Web Storage area named, or `undefined` where the runtime has none (or refuses access). */
function webStorage(name: 'sessionStorage' | 'localStorage'): StorageArea | undefined {
  try {
    return (globalThis as Record<string, unknown>)[name] as StorageArea | undefined;
  } catch {
    // Reading `localStorage` throws where cookies are blocked.
    return undefined;
  }
}

/** Creates a {@link TaskJournal}. Nothing is stored until a task is recorded. */
export function createTaskJournal(options: TaskJournalOptions = {}): TaskJournal {
  const maxEntries = options.maxEntries ?? 50;
  const maxAgeMs = options.maxAgeMs ?? 24 * 60 * 60 * 1000;
  const now = options.now ?? Date.now;
  const requested = options.storage ?? 'session';
  let storage: StorageArea =
    typeof requested === 'object'
      ? requested
      : requested === 'memory'
        ? memoryStorage()
        : (webStorage(requested === 'local' ? 'localStorage' : 'sessionStorage') ??
          memoryStorage());
  const listeners = new Set<() => void>();
  // Each scope's entries as last read or written, so `entries` returns the same array until they
  // change (React's useSyncExternalStore compares snapshots by identity).
  const cache = new Map<string, { text: string | null; entries: readonly TaskJournalEntry[] }>();

  const keyOf = (scope: string) => STORAGE_PREFIX + scope;

  function readText(scope: string): string | null {
    try {
      return storage.getItem(keyOf(scope));
    } catch {
      return null;
    }
  }

  function parse(text: string | null): TaskJournalEntry[] {
    if (text === null) return [];
    try {
      const parsed = storedSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data.entries : [];
    } catch {
      return [];
    }
  }

  function fresh(entries: readonly TaskJournalEntry[]): TaskJournalEntry[] {
    const oldest = now() - maxAgeMs;
    return entries
      .filter((entry) => entry.startedAt >= oldest)
      .sort((a, b) => b.startedAt - a.startedAt)
      .slice(0, Math.max(0, maxEntries));
  }

  function read(scope: string): readonly TaskJournalEntry[] {
    const text = readText(scope);
    const cached = cache.get(scope);
    if (cached && cached.text === text) {
      // The same stored value: the same array, unless an entry has aged out since.
      const kept = fresh(cached.entries);
      if (kept.length === cached.entries.length) return cached.entries;
      cache.set(scope, { text, entries: kept });
      return kept;
    }
    const entries = fresh(parse(text));
    cache.set(scope, { text, entries });
    return entries;
  }

  function write(scope: string, entries: readonly TaskJournalEntry[]): void {
    const kept = fresh(entries);
    const text = kept.length === 0 ? null : JSON.stringify({ version: 1, entries: kept });
    try {
      if (text === null) storage.removeItem(keyOf(scope));
      else storage.setItem(keyOf(scope), text);
    } catch {
      // A full quota or private mode: keep the journal in memory from here on, never fail a task.
      const fallback = memoryStorage();
      if (text !== null) fallback.setItem(keyOf(scope), text);
      storage = fallback;
    }
    cache.set(scope, { text, entries: kept });
    for (const listener of listeners) listener();
  }

  // One sharing per scope, made on the first shared read: the channel's name is the scope's key.
  const sharings = new Map<string, TabPollSharing | undefined>();
  const sharingOf = (scope: string) => {
    if (!sharings.has(scope)) sharings.set(scope, createTabPollSharing(keyOf(scope)));
    return sharings.get(scope);
  };

  const onStorage = (event: { key: string | null }) => {
    if (event.key !== null && !event.key.startsWith(STORAGE_PREFIX)) return;
    for (const listener of listeners) listener();
  };

  return {
    sharePoll(scope, id, readRecord, polling) {
      const sharing = options.sharePolling === false ? undefined : sharingOf(scope);
      return sharing ? sharing.share(id, readRecord, polling) : readRecord;
    },
    entries: read,
    record(scope, entry) {
      const others = read(scope).filter(
        (existing) =>
          existing.id !== entry.id && (entry.key === undefined || existing.key !== entry.key),
      );
      write(scope, [{ ...entry }, ...others]);
    },
    update(scope, id, change) {
      const entries = read(scope);
      const entry = entries.find((existing) => existing.id === id);
      if (!entry) return;
      if (entry.status === change.status && entry.lastEventId === change.lastEventId) return;
      // A terminal status is final: a late, older answer must not bring a task back to life.
      if (isTerminalStatus(entry.status) && !isTerminalStatus(change.status)) return;
      write(
        scope,
        entries.map((existing) => (existing.id === id ? { ...existing, ...change } : existing)),
      );
    },
    remove(scope, id) {
      const entries = read(scope);
      if (entries.some((entry) => entry.id === id)) {
        write(
          scope,
          entries.filter((entry) => entry.id !== id),
        );
      }
    },
    clear(scope) {
      if (read(scope).length > 0) write(scope, []);
    },
    subscribe(listener) {
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
  };
}
