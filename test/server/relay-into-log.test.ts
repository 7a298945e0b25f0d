/**
 * The proxy's relay of a service's stream into its log (docs/protocol.md, "Resumable streams
 * (0.4)"), over a body the test hands out chunk by chunk and a real `memoryEventLog` whose appends
 * the test holds back, as a store across the network would: the relay reads on while the log is
 * busy, keeps a few batches on their way to it, sends what came meanwhile as one batch, and hands
 * its watcher every message once, in order, with the log's positions.
 */
import { describe, expect, it, vi } from 'vitest';
import type { EventLog, EventLogEntry } from '../../src/events/event-log.js';
import { memoryEventLog } from '../../src/events/memory-event-log.js';
import { relayIntoLog } from '../../src/server/relay-into-log.js';

const KEY = { taskName: 'render-video', taskId: 'task-1' };

const progress = (index: number) => `{"type":"task.progress","percent":${index}}`;
const completed = '{"type":"task.completed","result":{}}';

/** A service's stream body whose chunks the test hands out, and how many times it was pulled. */
function scriptedBody() {
  const encoder = new TextEncoder();
  const queued: string[] = [];
  let pulls = 0;
  let pulled: (() => void) | undefined;
  let give: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        pulls += 1;
        pulled?.();
        while (queued.length === 0) await new Promise<void>((resolve) => (give = resolve));
        controller.enqueue(encoder.encode(queued.shift()));
      },
    },
    { highWaterMark: 0 },
  );
  return {
    body,
    /** Hands out one chunk of these messages. */
    send(...messages: string[]) {
      queued.push(messages.map((message) => `data: ${message}\n\n`).join(''));
      give?.();
    },
    /** Resolves once the relay asked for a chunk `count` times in all. */
    async pulledTimes(count: number) {
      while (pulls < count) await new Promise<void>((resolve) => (pulled = resolve));
    },
  };
}

/** `log`, holding each append (a batch of messages) back until the test lets it through. */
function heldLog(log: EventLog) {
  const batches: string[][] = [];
  const holds: Array<() => void> = [];
  let started: (() => void) | undefined;
  const held: EventLog = {
    ...log,
    append(key, messages, final) {
      batches.push([...messages]);
      started?.();
      return new Promise<void>((resolve) => holds.push(resolve)).then(() =>
        log.append(key, messages, final),
      );
    },
  };
  return {
    log: held,
    batches,
    /** Lets every append made so far through, in the order they were made. */
    release() {
      for (const hold of holds.splice(0)) hold();
    },
    /** Resolves once `count` batches were sent in all. */
    async sentBatches(count: number) {
      while (batches.length < count) await new Promise<void>((resolve) => (started = resolve));
    },
  };
}

describe('relayIntoLog', () => {
  it('reads on while the log is busy: four batches on their way, then what came meanwhile as one', async () => {
    const memory = memoryEventLog();
    await memory.create(KEY, 'owner');
    const held = heldLog(memory);
    const service = scriptedBody();
    const handed: EventLogEntry[] = [];
    let ended: boolean | undefined;
    const relaying = relayIntoLog({
      log: held.log,
      key: KEY,
      body: service.body,
      upstreamResumable: false,
      idleTimeoutMs: 60_000,
      abortUpstream: () => undefined,
      watcher: {
        appended: (entries) => handed.push(...entries),
        ended: (final) => (ended = final),
      },
    });
    for (let index = 1; index <= 4; index++) {
      service.send(progress(index));
      await held.sentBatches(index);
    }
    // The log has taken none of them yet; the relay reads three more chunks all the same.
    for (let index = 5; index <= 7; index++) service.send(progress(index));
    await service.pulledTimes(8);
    expect(held.batches).toHaveLength(4);
    expect(handed).toEqual([]);
    held.release();
    await held.sentBatches(5);
    expect(held.batches[4]).toEqual([progress(5), progress(6), progress(7)]);
    held.release();
    service.send(completed);
    await held.sentBatches(6);
    held.release();
    await relaying;
    expect(held.batches).toEqual([
      [progress(1)],
      [progress(2)],
      [progress(3)],
      [progress(4)],
      [progress(5), progress(6), progress(7)],
      [completed],
    ]);
    expect(handed.map((entry) => entry.message)).toEqual([
      ...[1, 2, 3, 4, 5, 6, 7].map(progress),
      completed,
    ]);
    expect(handed.map((entry) => Number(entry.position))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(handed.map((entry) => entry.final)).toEqual([...Array(7).fill(false), true]);
    expect(ended).toBe(true);
  });

  it('keeps its log alive while it relays, past any one lease, and no longer once it ended', async () => {
    vi.useFakeTimers();
    try {
      const memory = memoryEventLog();
      await memory.create(KEY, 'owner');
      const leases: number[] = [];
      const watched: EventLog = {
        ...memory,
        keepAlive(key, forMs) {
          leases.push(forMs);
          return memory.keepAlive(key, forMs);
        },
      };
      const service = scriptedBody();
      const relaying = relayIntoLog({
        log: watched,
        key: KEY,
        body: service.body,
        upstreamResumable: false,
        idleTimeoutMs: 6_000,
        abortUpstream: () => undefined,
      });
      // A minute of a slow task, a message every 5 s: ten leases of 6 s, each renewed in time.
      for (let index = 1; index <= 12; index++) {
        service.send(progress(index));
        await vi.advanceTimersByTimeAsync(5_000);
      }
      service.send(completed);
      await relaying;
      expect(new Set(leases)).toEqual(new Set([6_000]));
      const read = await memory.read(KEY, 'owner', undefined, new AbortController().signal);
      if (read.status !== 'ok') throw new Error(read.status);
      const messages: string[] = [];
      for await (const batch of read.batches) messages.push(...batch.map((entry) => entry.message));
      expect(messages).toEqual([
        ...Array.from({ length: 12 }, (_, index) => progress(index + 1)),
        completed,
      ]);
      const renewals = leases.length;
      await vi.advanceTimersByTimeAsync(60_000);
      expect(leases).toHaveLength(renewals);
    } finally {
      vi.useRealTimers();
    }
  });

  it('hands the watcher nothing after an append that failed, and abandons the log', async () => {
    const memory = memoryEventLog();
    await memory.create(KEY, 'owner');
    let appends = 0;
    const failing: EventLog = {
      ...memory,
      append(key, messages, final) {
        appends += 1;
        // The second batch fails, as a store that went away would.
        if (appends === 2) return Promise.reject(new Error('The store went away.'));
        return memory.append(key, messages, final);
      },
    };
    const service = scriptedBody();
    const handed: string[] = [];
    let ended: boolean | undefined;
    const relaying = relayIntoLog({
      log: failing,
      key: KEY,
      body: service.body,
      upstreamResumable: false,
      idleTimeoutMs: 60_000,
      abortUpstream: () => undefined,
      watcher: {
        appended: (entries) => handed.push(...entries.map((entry) => entry.message)),
        ended: (final) => (ended = final),
      },
    });
    service.send(progress(1));
    await service.pulledTimes(2);
    service.send(progress(2));
    await service.pulledTimes(3);
    service.send(progress(3), completed);
    await relaying;
    expect(handed).toEqual([progress(1)]);
    expect(ended).toBe(false);
    // Abandoned: a read gets what the log took, then learns the stream broke.
    const read = await memory.read(KEY, 'owner', '0000000000000001', new AbortController().signal);
    expect(read.status).toBe('expired');
  });
});
