/**
 * The rules by which tabs share one poll per task (src/state/tab-poll-sharing.ts):
 * each "tab" is a sharing of its own over Node's real BroadcastChannel, with the timers faked. The
 * channel delivers its messages between turns of the event loop, which `settle` lets pass.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TaskRecord } from '../../src/protocol/records.js';
import {
  CLAIM_LEASE_MS,
  createTabPollSharing,
  DISCOVERY_MS,
  LEASE_GRACE_MS,
  type SharedPollContext,
  type TabPollSharing,
} from '../../src/state/tab-poll-sharing.js';
import { createTaskJournal } from '../../src/state/task-journal.js';

const TASK_ID = 'task-1';
/** The policy's delay for a record without a time-left estimate: its floor, 1 s by default. */
const POLL_MS = 1000;
/** The lease that comes with such a record. */
const LEASE_MS = 2 * POLL_MS + LEASE_GRACE_MS;

let channelCount = 0;
const opened: TabPollSharing[] = [];

beforeEach(() => {
  // Only the clock and timeouts: setImmediate stays real, so channel messages can be let through.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  channelCount += 1;
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
): TaskRecord {
  return {
    id: TASK_ID,
    status,
    result: null,
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
  };
  return {
    state,
    reader: (tab: string) => async () => {
      state.reads.push(tab);
      return recordOf(state.percent, state.status);
    },
  };
}

/** A tab: its sharing on the test's channel (or `scope`'s), and its query cache of one record. */
function tab(name: string, wire: ReturnType<typeof service>, scope = 'user') {
  const sharing = createTabPollSharing(`tabs-test-${channelCount}:${scope}`);
  if (!sharing) throw new Error('Node has BroadcastChannel');
  opened.push(sharing);
  const cache: { record: TaskRecord | undefined; delivered: TaskRecord[] } = {
    record: undefined,
    delivered: [],
  };
  const context: SharedPollContext = {
    signal: new AbortController().signal,
    queryKey: ['taskwire', scope, 'result', 'task', TASK_ID],
    client: {
      getQueryState: () => ({}),
      setQueryData: (_key, data) => {
        cache.record = data as TaskRecord;
        cache.delivered.push(data as TaskRecord);
      },
    },
  };
  const read = sharing.share(TASK_ID, wire.reader(name));
  return {
    sharing,
    cache,
    /** One poll, as TanStack Query would make it: resolves with what the query then shows. */
    poll: async () => {
      const record = await read(context);
      cache.record = record;
      return record;
    },
  };
}

/** Starts a poll and lets the discovery time pass; resolves with its record. */
async function firstPoll(polling: { poll: () => Promise<TaskRecord> }): Promise<TaskRecord> {
  const pending = polling.poll();
  await advance(DISCOVERY_MS);
  return pending;
}

describe('createTabPollSharing', () => {
  it('lets one tab read and gives its records to the others', async () => {
    const wire = service();
    const first = tab('first', wire);
    const second = tab('second', wire);

    await firstPoll(first);
    expect(wire.state.reads).toEqual(['first']);

    // The second tab asks who polls; the first answers with its record at once.
    const joined = await firstPoll(second);
    expect(joined.progress.percent).toBe(0);
    expect(wire.state.reads).toEqual(['first']);

    wire.state.percent = 40;
    await advance(POLL_MS);
    await first.poll();
    await settle();
    // The record reached the second tab's cache without a request of its own…
    expect(second.cache.delivered.at(-1)?.progress.percent).toBe(40);
    // …and its own poll answers it too.
    expect((await second.poll()).progress.percent).toBe(40);
    expect(wire.state.reads).toEqual(['first', 'first']);
  });

  it('lets one of two tabs that look for the poll at once read it', async () => {
    const wire = service();
    const first = tab('first', wire);
    const second = tab('second', wire);
    const both = Promise.all([first.poll(), second.poll()]);
    await advance(DISCOVERY_MS);
    await advance(DISCOVERY_MS);
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

    // `pagehide`, as the page is closed.
    first.sharing.release();
    await settle();
    wire.state.percent = 50;
    expect((await second.poll()).progress.percent).toBe(50);
    expect(wire.state.reads).toEqual(['first', 'second']);

    // From now on the second tab polls, and the first (back from the cache) follows.
    await advance(POLL_MS);
    await second.poll();
    await settle();
    await first.poll();
    expect(wire.state.reads).toEqual(['first', 'second', 'second']);
  });

  it('takes the poll over when the polling tab stops answering, after its lease', async () => {
    const wire = service();
    const first = tab('first', wire);
    const second = tab('second', wire);
    await firstPoll(first);
    await firstPoll(second);

    // The first tab hangs: it never polls again. The second polls every second meanwhile.
    let waited = 0;
    while (wire.state.reads.length === 1) {
      await advance(POLL_MS);
      waited += POLL_MS;
      await second.poll();
      if (waited > 10 * LEASE_MS) throw new Error('the second tab never took over');
    }
    expect(wire.state.reads).toEqual(['first', 'second']);
    expect(waited).toBeGreaterThanOrEqual(LEASE_MS - DISCOVERY_MS);
    expect(waited).toBeLessThanOrEqual(LEASE_MS + POLL_MS);

    // The first tab comes back: it follows the second now instead of reading.
    await settle();
    await first.poll();
    expect(wire.state.reads).toEqual(['first', 'second']);
  });

  it('takes the poll over when a claim brings no record, after the claim lease', async () => {
    const wire = service();
    const first = tab('first', wire);
    const second = tab('second', wire);
    // The first tab claims, then its read never answers.
    const hang = first.sharing.share(TASK_ID, () => new Promise<TaskRecord>(() => undefined));
    void hang({ ...contextFor(), signal: new AbortController().signal });
    await advance(DISCOVERY_MS);

    const waiting = second.poll();
    await advance(CLAIM_LEASE_MS - 2 * DISCOVERY_MS);
    expect(wire.state.reads).toEqual([]);
    await advance(2 * DISCOVERY_MS);
    await waiting;
    expect(wire.state.reads).toEqual(['second']);
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

  it('ends the sharing with a terminal record: nobody reads the task again', async () => {
    const wire = service();
    const first = tab('first', wire);
    const second = tab('second', wire);
    await firstPoll(first);
    await firstPoll(second);

    wire.state.status = 'COMPLETED';
    wire.state.percent = 100;
    await advance(POLL_MS);
    await first.poll();
    await settle();
    expect(second.cache.delivered.at(-1)?.status).toBe('COMPLETED');

    await advance(10 * LEASE_MS);
    expect((await second.poll()).status).toBe('COMPLETED');
    expect((await first.poll()).status).toBe('COMPLETED');
    expect(wire.state.reads).toEqual(['first', 'first']);
  });

  it('never lets one scope hear the records of another', async () => {
    const wire = service();
    const alice = tab('alice', wire, 'alice');
    const bob = tab('bob', wire, 'bob');
    await firstPoll(alice);
    await firstPoll(bob);
    await advance(POLL_MS);
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
    // Each would hold the poll for a minute, were it taken for a message of the tabs.
    stranger.postMessage({ type: 'claim', id: TASK_ID, from: 'x', leaseMs: 60_000, hidden: 0 });
    stranger.postMessage('hello');
    stranger.postMessage({
      type: 'record',
      id: TASK_ID,
      from: 'x',
      leaseMs: 60_000,
      record: { id: TASK_ID, status: 'DONE' },
    });
    await advance(DISCOVERY_MS);
    await pending;
    stranger.close();
    expect(wire.state.reads).toEqual(['first']);
    expect(first.cache.delivered).toEqual([]);
  });
});

describe('TaskJournal.sharePoll', () => {
  it('gives the read itself back when the journal does not share polling', () => {
    const read = async () => recordOf(0);
    const journal = createTaskJournal({ storage: 'memory', sharePolling: false });
    expect(journal.sharePoll('user', TASK_ID, read)).toBe(read);
  });

  it('gives the read itself back where there is no BroadcastChannel', () => {
    vi.stubGlobal('BroadcastChannel', undefined);
    try {
      const read = async () => recordOf(0);
      expect(createTaskJournal({ storage: 'memory' }).sharePoll('user', TASK_ID, read)).toBe(read);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

function contextFor(): SharedPollContext {
  return {
    signal: new AbortController().signal,
    queryKey: ['taskwire', 'user', 'result', 'task', TASK_ID],
    client: { getQueryState: () => undefined, setQueryData: () => undefined },
  };
}
