/**
 * What the tab poll sharing keeps (src/state/tab-poll-sharing.ts): after many large tasks end, the
 * heap after a full garbage collection holds none of their records, in the tab that polled and in
 * the one that followed; a journal closed while its tasks still run lets go of them too. Real
 * BroadcastChannel (Node's), an in-memory Web Locks space, real timers; `gc` is V8's own, exposed
 * here at run time.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../src/protocol/records.js';
import { sharedRecordCheck } from '../../src/state/check-shared-record.js';
import {
  createTabPollSharing,
  type SharedPollContext,
  type TabPollSharing,
} from '../../src/state/tab-poll-sharing.js';
import { createTaskJournal } from '../../src/state/task-journal.js';
import { createInMemoryWebLocks } from '../support/in-memory-web-locks.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The heap after collecting everything collectable, in MiB. */
async function heapMiB(): Promise<number> {
  for (let round = 0; round < 3; round += 1) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return process.memoryUsage().heapUsed / 2 ** 20;
}

const TASKS = 400;
/** Each record carries about 200 KB of result: 400 of them are 80 MB. */
const largeRecord = (id: string, status: 'IN_PROGRESS' | 'COMPLETED'): TaskRecord => ({
  id,
  status,
  result: { frames: `${id}:`.padEnd(200_000, 'x') },
  progress: { percent: status === 'COMPLETED' ? 100 : 50, estimatedSecondsLeft: 1 },
  events: [],
});

const client = { scope: 'user' };
const contextOf = (id: string): SharedPollContext => ({
  signal: new AbortController().signal,
  queryKey: ['taskwire', 'user', 'result', 'task', id],
  client: { getQueryState: () => ({}), setQueryData: () => undefined },
});

const opened: TabPollSharing[] = [];
afterEach(() => {
  for (const sharing of opened.splice(0)) sharing.close();
});

/** Lets the channel's messages through. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('tab poll sharing memory', () => {
  it('keeps no record of the tasks that ended, in the polling tab or the following one', async () => {
    const space = createInMemoryWebLocks();
    const channel = `memory-test-${String(Date.now())}`;
    const polling = createTabPollSharing(channel, { locks: space.tab('polling') });
    const following = createTabPollSharing(channel, { locks: space.tab('following') });
    if (!polling || !following) throw new Error('Node has BroadcastChannel');
    opened.push(polling, following);
    const before = await heapMiB();
    for (let index = 0; index < TASKS; index += 1) {
      const id = `task-${String(index)}`;
      let status: 'IN_PROGRESS' | 'COMPLETED' = 'IN_PROGRESS';
      const read = async () => largeRecord(id, status);
      const check = sharedRecordCheck<TaskRecord>(client, 'task', id);
      const poll = polling.share(id, read, check);
      const follow = following.share(id, read, check);
      await poll(contextOf(id));
      const followed = follow(contextOf(id));
      await settle();
      status = 'COMPLETED';
      await poll(contextOf(id));
      await settle();
      expect((await followed).id).toBe(id);
    }
    await settle();
    expect(polling.trackedTasks()).toBe(0);
    expect(following.trackedTasks()).toBe(0);
    const after = await heapMiB();
    // 400 records of 200 KB each would be 80 MiB; a few MiB of noise is all that may remain.
    expect(after - before).toBeLessThan(16);
  });

  it('lets go of the tasks still running when its journal is closed', async () => {
    const space = createInMemoryWebLocks();
    const navigator = ((globalThis as { navigator?: object }).navigator ??= {});
    Object.defineProperty(navigator, 'locks', { value: space.locks, configurable: true });
    try {
      const journal = createTaskJournal({ storage: 'memory' });
      const before = await heapMiB();
      for (let index = 0; index < TASKS / 4; index += 1) {
        const id = `running-${String(index)}`;
        const read = async () => largeRecord(id, 'IN_PROGRESS');
        await journal.sharePoll(client, 'task', id, read)(contextOf(id));
      }
      expect(journal.sharedTasks()).toBe(TASKS / 4);
      journal.close();
      expect(journal.sharedTasks()).toBe(0);
      await settle();
      expect(space.heldNames()).toEqual([]);
      const after = await heapMiB();
      expect(after - before).toBeLessThan(8);
    } finally {
      delete (navigator as { locks?: unknown }).locks;
    }
  });
});
