/**
 * The rules by which tabs share one poll per task (src/state/tab-poll-sharing.ts): each "tab" is a
 * sharing of its own over Node's real BroadcastChannel and its own `LockManager` of one in-memory
 * Web Locks space (test/support/in-memory-web-locks.ts, a platform stand-in), with the timers
 * faked. The channel delivers its messages between turns of the event loop, which `settle` lets pass.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import type { TaskRecord } from '../../src/protocol/records.js';
import { sharedRecordCheck } from '../../src/state/check-shared-record.js';
import {
  createTabPollSharing,
  IDLE_GRACE_MS,
  type SharedPollContext,
  type TabPollSharing,
} from '../../src/state/tab-poll-sharing.js';
import { createTaskJournal } from '../../src/state/task-journal.js';
import { createInMemoryWebLocks, type InMemoryWebLocks } from '../support/in-memory-web-locks.js';

const TASK_ID = 'task-1';
/** The policy's ceiling, which bounds what another tab can make this one wait. */
const CEILING_MS = 10_000;
/**
 * The policy's delay for the test's records (no time left announced): its floor, 1 s. A record
 * heard within it is as good as a read of the tab's own.
 */
const POLL_MS = 1000;
/** The task map of the tabs' clients: the task's result is `{ url }`. */
const client = {
  scope: 'user',
  tasks: { task: { params: z.object({}), result: z.object({ url: z.string() }) } },
};

let channelCount = 0;
let space: InMemoryWebLocks;
const opened: TabPollSharing[] = [];

beforeEach(() => {
  // Only the clock and timeouts: setImmediate stays real, so channel messages can be let through.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  channelCount += 1;
  space = createInMemoryWebLocks();
});
afterEach(() => {
  for (const sharing of opened.splice(0)) sharing.close();
  vi.useRealTimers();
});

/** Lets the channel's messages (and what they wake) through. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 10; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

async function advance(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  await settle();
}

function recordOf(
  percent: number,
  status: 'IN_PROGRESS' | 'COMPLETED' = 'IN_PROGRESS',
  id = TASK_ID,
): TaskRecord {
  return {
    id,
    status,
    result: status === 'COMPLETED' ? { url: 'https://cdn.test/real.mp4' } : null,
    progress: { percent, estimatedSecondsLeft: 0 },
    events: [],
  };
}

/**
 * The service, as the tabs see it: every read of any tab counted, each answering the task's
 * current state.
 */
function service() {
  const state = {
    percent: 0,
    status: 'IN_PROGRESS' as 'IN_PROGRESS' | 'COMPLETED',
    reads: [] as string[],
    /** The `Retry-After` of every answer, in milliseconds, as Get Result's `onRetryAfter` tells it. */
    retryAfterMs: undefined as number | undefined,
  };
  return {
    state,
    reader:
      (tab: string, id = TASK_ID) =>
      async ({ onRetryAfter }: { onRetryAfter?: (retryAfterMs: number | undefined) => void }) => {
        state.reads.push(tab);
        onRetryAfter?.(state.retryAfterMs);
        return recordOf(state.percent, state.status, id);
      },
  };
}

/** A tab: its sharing on the test's channel (or `scope`'s), and its query cache of one record. */
function tab(name: string, wire: ReturnType<typeof service>, scope = 'user') {
  const sharing = createTabPollSharing(`tabs-test-${channelCount}:${scope}`, {
    locks: space.tab(name),
  });
  if (!sharing) throw new Error('Node has BroadcastChannel, and the tab a LockManager');
  opened.push(sharing);
  const cache: {
    record: TaskRecord | undefined;
    delivered: TaskRecord[];
    exists: boolean;
    /** The hint told to the query with each record it resolved to or was given. */
    hints: Array<number | undefined>;
  } = {
    record: undefined,
    delivered: [],
    exists: true,
    hints: [],
  };
  const contextOf = (id: string): SharedPollContext => ({
    signal: new AbortController().signal,
    queryKey: ['taskwire', scope, 'result', 'task', id],
    onRetryAfter: (retryAfterMs) => cache.hints.push(retryAfterMs),
    client: {
      getQueryState: () => (cache.exists ? {} : undefined),
      setQueryData: (_key, data) => {
        cache.record = data as TaskRecord;
        cache.delivered.push(data as TaskRecord);
      },
    },
  });
  const readerOf = (id: string) =>
    sharing.share(id, wire.reader(name, id), sharedRecordCheck(client, 'task', id), {
      maxIntervalMs: CEILING_MS,
    });
  const read = readerOf(TASK_ID);
  return {
    sharing,
    cache,
    /** One poll, as TanStack Query would make it: resolves with what the query then shows. */
    poll: async () => {
      const record = await read(contextOf(TASK_ID));
      cache.record = record;
      return record;
    },
    /** One poll of another task. */
    pollTask: (id: string) => readerOf(id)(contextOf(id)),
  };
}

/** Starts a poll and lets the messages and lock grants it waits for through. */
async function firstPoll(polling: { poll: () => Promise<TaskRecord> }): Promise<TaskRecord> {
  const pending = polling.poll();
  await settle();
  return pending;
}

describe('createTabPollSharing', () => {
  it('lets one tab read and gives its records to the others', async () => {
    const wire = service();
    const first = tab('first', wire);
    const second = tab('second', wire);

    await firstPoll(first);
    expect(wire.state.reads).toEqual(['first']);

    // The second tab asks the polling one for its record, which answers at once.
    const joined = await firstPoll(second);
    expect(joined.progress.percent).toBe(0);
    expect(wire.state.reads).toEqual(['first']);

    // A poll of the second tab's own, due once the record it holds is an interval old.
    await advance(POLL_MS);
    wire.state.percent = 40;
    const next = second.poll();
    await first.poll();
    await settle();
    // The record reached the second tab's cache without a request of its own…
    expect(second.cache.delivered.at(-1)?.progress.percent).toBe(40);
    // …and its own poll answers it too.
    expect((await next).progress.percent).toBe(40);
    expect(wire.state.reads).toEqual(['first', 'first']);
  });

  it('takes a record heard within its own interval as a poll of its own, with no request', async () => {
    const wire = service();
    const first = tab('first', wire);
    const second = tab('second', wire);
    await firstPoll(first);
    await firstPoll(second);
    await advance(POLL_MS - 1);
    expect((await second.poll()).progress.percent).toBe(0);
    expect(wire.state.reads).toEqual(['first']);
  });

  it("gives the other tabs the service's Retry-After with the record, for their queries and their schedule", async () => {
    const wire = service();
    wire.state.retryAfterMs = 5000;
    const first = tab('first', wire);
    const second = tab('second', wire);
    await firstPoll(first);
    expect(first.cache.hints).toEqual([5000]);
    // The second tab asks the polling one, which answers with its record and the record's hint.
    await firstPoll(second);
    expect(new Set(second.cache.hints)).toEqual(new Set([5000]));
    // The hint, not the policy's 1 s floor, says how long the heard record is as good as a read.
    await advance(4999);
    await second.poll();
    expect(wire.state.reads).toEqual(['first']);
    expect(second.cache.hints.at(-1)).toBe(5000);
    // The polling tab's next record, and its hint, reach the other tab's query by themselves.
    wire.state.retryAfterMs = undefined;
    wire.state.percent = 60;
    await first.poll();
    await settle();
    expect(second.cache.delivered.at(-1)?.progress.percent).toBe(60);
    expect(second.cache.hints.at(-1)).toBeUndefined();
  });

  it('lets one of two tabs that look for the poll at once read it', async () => {
    const wire = service();
    const first = tab('first', wire);
    const second = tab('second', wire);
    const both = Promise.all([first.poll(), second.poll()]);
    await settle();
    const [one, other] = await both;
    expect(wire.state.reads).toHaveLength(1);
    expect(one).toEqual(other);
  });

  it('hands the poll over at once when the polling tab goes away', async () => {
    const wire = service();
    const first = tab('first', wire);
    const second = tab('second', wire);
    await firstPoll(first);
    await firstPoll(second);

    // The page is closed: the browser releases its locks, and the waiting tab is granted the lock.
    space.closeTab('first');
    first.sharing.close();
    await settle();
    wire.state.percent = 50;
    expect((await second.poll()).progress.percent).toBe(50);
    expect(wire.state.reads).toEqual(['first', 'second']);
    expect(space.heldNames()).toEqual([`tabs-test-${channelCount}:user:poll:${TASK_ID}`]);
  });

  it('hands the poll over when the polling tab lets go (pagehide), and the first then follows', async () => {
    const wire = service();
    const first = tab('first', wire);
    const second = tab('second', wire);
    await firstPoll(first);
    await firstPoll(second);

    first.sharing.release();
    await settle();
    wire.state.percent = 50;
    expect((await second.poll()).progress.percent).toBe(50);
    expect(wire.state.reads).toEqual(['first', 'second']);

    // From now on the second tab polls, and the first follows its records.
    await advance(POLL_MS);
    const following = first.poll();
    await settle();
    await second.poll();
    await settle();
    await following;
    expect(wire.state.reads).toEqual(['first', 'second', 'second']);
  });

  it('reads itself after the ceiling when the polling tab stops answering, never later', async () => {
    const wire = service();
    const first = tab('first', wire);
    const second = tab('second', wire);
    await firstPoll(first);
    await firstPoll(second);

    // The first tab hangs: it holds its lock and never polls again.
    await advance(POLL_MS);
    const waiting = second.poll();
    await advance(CEILING_MS - 1);
    expect(wire.state.reads).toEqual(['first']);
    await advance(1);
    await waiting;
    expect(wire.state.reads).toEqual(['first', 'second']);
  });

  it('hands the poll over at once when the polling tab is hidden', async () => {
    // A page's document, for its visibility; the tabs made after this listen to it.
    const page = Object.assign(new EventTarget(), { visibilityState: 'visible' });
    vi.stubGlobal('document', page);
    try {
      const wire = service();
      const first = tab('first', wire);
      const second = tab('second', wire);
      await firstPoll(first);
      await firstPoll(second);

      // The user switches to another tab: the first is hidden, and its polls may stop.
      page.visibilityState = 'hidden';
      page.dispatchEvent(new Event('visibilitychange'));
      page.visibilityState = 'visible';
      await settle();
      await second.poll();
      expect(wire.state.reads).toEqual(['first', 'second']);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('ends the sharing with a terminal record: nobody reads the task again, nothing is kept', async () => {
    const wire = service();
    const first = tab('first', wire);
    const second = tab('second', wire);
    await firstPoll(first);
    await firstPoll(second);

    wire.state.status = 'COMPLETED';
    wire.state.percent = 100;
    await first.poll();
    await settle();
    expect(second.cache.delivered.at(-1)?.status).toBe('COMPLETED');
    expect(first.sharing.trackedTasks()).toBe(0);
    expect(second.sharing.trackedTasks()).toBe(0);
    expect(space.heldNames()).toEqual([]);
  });

  it('never lets one scope hear the records of another', async () => {
    const wire = service();
    const alice = tab('alice', wire, 'alice');
    const bob = tab('bob', wire, 'bob');
    await firstPoll(alice);
    await firstPoll(bob);
    await alice.poll();
    await settle();
    expect(bob.cache.delivered).toEqual([]);
    expect(wire.state.reads).toEqual(['alice', 'bob', 'alice']);
  });

  it('ignores messages that are not its own kind', async () => {
    const wire = service();
    const first = tab('first', wire);
    const stranger = new BroadcastChannel(`tabs-test-${channelCount}:user`);
    const pending = first.poll();
    stranger.postMessage('hello');
    stranger.postMessage({ type: 'record', id: TASK_ID, record: { id: TASK_ID, status: 'DONE' } });
    await settle();
    await pending;
    stranger.close();
    expect(wire.state.reads).toEqual(['first']);
    expect(first.cache.delivered).toEqual([]);
  });

  it('keeps polling when a message claims the poll for a long lease', async () => {
    const wire = service();
    const first = tab('first', wire);
    const stranger = new BroadcastChannel(`tabs-test-${channelCount}:user`);
    await firstPoll(first);
    // A forged claim: were it obeyed, the tab would not read for eleven days.
    stranger.postMessage({ type: 'claim', id: TASK_ID, from: '0', leaseMs: 1e9, hidden: false });
    await settle();
    await advance(POLL_MS);
    const next = first.poll();
    await advance(CEILING_MS);
    await next;
    stranger.close();
    expect(wire.state.reads).toEqual(['first', 'first']);
  });

  it('ignores a COMPLETED record that fails the task’s result schema, and reads the task itself', async () => {
    const wire = service();
    const first = tab('first', wire);
    const second = tab('second', wire);
    await firstPoll(first);
    await firstPoll(second);
    const forger = new BroadcastChannel(`tabs-test-${channelCount}:user`);
    await advance(POLL_MS);
    const waiting = second.poll();
    // A made-up result and 999,999 credits, under the real task id.
    forger.postMessage({
      type: 'record',
      id: TASK_ID,
      record: {
        ...recordOf(100, 'COMPLETED'),
        result: { url: 42, stolen: true },
        usage: { credits: 999_999 },
      },
    });
    await settle();
    expect(second.cache.delivered.map((record) => record.status)).not.toContain('COMPLETED');
    // The tab reads the real record itself at once, without waiting for the ceiling.
    const shown = await waiting;
    forger.close();
    expect(shown.status).toBe('IN_PROGRESS');
    expect(wire.state.reads).toEqual(['first', 'second']);
  });

  it('keeps nothing of a task once no query reads it, or after two ceilings unread', async () => {
    const wire = service();
    const first = tab('first', wire);
    const second = tab('second', wire);
    for (let index = 0; index < 50; index += 1) await first.pollTask(`task-${String(index)}`);
    expect(first.sharing.trackedTasks()).toBe(50);
    await advance(2 * CEILING_MS + IDLE_GRACE_MS);
    expect(first.sharing.trackedTasks()).toBe(0);
    expect(space.heldNames()).toEqual([]);

    // A record for a task whose query was dropped drops the task's sharing too.
    await firstPoll(first);
    await firstPoll(second);
    second.cache.exists = false;
    await first.poll();
    await settle();
    expect(second.sharing.trackedTasks()).toBe(0);
  });
});

describe('TaskJournal.sharePoll', () => {
  it('gives the read itself back when the journal does not share polling', () => {
    const read = async () => recordOf(0);
    const journal = createTaskJournal({ storage: 'memory', sharePolling: false });
    expect(journal.sharePoll(client, 'task', TASK_ID, read)).toBe(read);
  });

  it('gives the read itself back where there is no BroadcastChannel', () => {
    vi.stubGlobal('navigator', { locks: space.locks });
    vi.stubGlobal('BroadcastChannel', undefined);
    try {
      const read = async () => recordOf(0);
      const journal = createTaskJournal({ storage: 'memory' });
      expect(journal.sharePoll(client, 'task', TASK_ID, read)).toBe(read);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('gives the read itself back where there are no Web Locks', () => {
    vi.stubGlobal('navigator', {});
    try {
      const read = async () => recordOf(0);
      const journal = createTaskJournal({ storage: 'memory' });
      expect(journal.sharePoll(client, 'task', TASK_ID, read)).toBe(read);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('shares where both exist, until the journal is closed', async () => {
    vi.stubGlobal('navigator', { locks: space.locks });
    try {
      const read = async () => recordOf(0);
      const journal = createTaskJournal({ storage: 'memory' });
      const shared = journal.sharePoll(client, 'task', TASK_ID, read);
      expect(shared).not.toBe(read);
      await shared({
        signal: new AbortController().signal,
        queryKey: ['taskwire', 'user', 'result', 'task', TASK_ID],
        client: { getQueryState: () => ({}), setQueryData: () => undefined },
      });
      expect(journal.sharedTasks()).toBe(1);
      journal.close();
      expect(journal.sharedTasks()).toBe(0);
      await settle();
      expect(space.heldNames()).toEqual([]);
      expect(journal.sharePoll(client, 'task', TASK_ID, read)).toBe(read);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
