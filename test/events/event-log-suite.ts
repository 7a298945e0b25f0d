/**
 * The conformance suite of an {@link EventLog} (docs/protocol.md, "Resumable streams (0.4)"): every
 * store runs the same cases, given a harness that makes one. Positions order as strings, a read
 * catches up then follows live, a read resumed after any position gets exactly the rest, only the
 * owner reads, the limits answer `expired`, and close() ends every read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  EventLogError,
  type EventLog,
  type EventLogEntry,
  type EventLogKey,
  type EventLogLimits,
  type EventLogRead,
} from '../../src/events/event-log.js';

/** What the suite needs from a store. */
export interface EventLogHarness {
  /** A fresh, empty log within `limits`. */
  create(limits?: EventLogLimits): Promise<EventLog>;
  /**
   * Returns once the retention of an ended log has passed: the memory store's clock is moved on,
   * a real store is asked until the log is gone (`status` says whether it still is).
   */
  passRetention(retentionMs: number, status: () => Promise<EventLogRead['status']>): Promise<void>;
  /**
   * Returns once a lease of `leaseMs` taken before (`keepAlive`) has run out: the memory store's
   * clock is moved on past it; for a real store, that long passes (it keeps leases on its clock).
   */
  passLease(leaseMs: number): Promise<void>;
}

const OWNER = 'user-a';
/** A writer's lease in the cases that take one: long enough for a busy machine's appends within it. */
const LEASE_MS = 1000;
const OTHER = 'user-b';

/** A message's JSON text, numbered. */
const message = (index: number) => JSON.stringify({ type: 'task.progress', percent: index });

/** The entries of a read that is `ok`, one after the other, whatever batches the store gave. */
export async function* entriesOf(read: EventLogRead): AsyncGenerator<EventLogEntry> {
  if (read.status !== 'ok') throw new Error(`The read is ${read.status}.`);
  for await (const batch of read.batches) yield* batch;
}

/** Every entry of a read that must be `ok`. */
async function readAll(
  log: EventLog,
  key: EventLogKey,
  after: string | undefined,
  owner = OWNER,
): Promise<EventLogEntry[]> {
  const read = await log.read(key, owner, after, new AbortController().signal);
  if (read.status !== 'ok') throw new Error(`The read is ${read.status}.`);
  const entries: EventLogEntry[] = [];
  for await (const entry of entriesOf(read)) entries.push(entry);
  return entries;
}

/** Appends `count` messages, the last one final when `final`; resolves to their positions. */
async function appendMany(
  log: EventLog,
  key: EventLogKey,
  count: number,
  final: boolean,
): Promise<string[]> {
  const positions: string[] = [];
  for (let index = 1; index <= count; index++) {
    positions.push(...(await log.append(key, [message(index)], final && index === count)));
  }
  return positions;
}

let keyCount = 0;
/** A key no other case uses. */
function newKey(): EventLogKey {
  keyCount += 1;
  return { taskName: 'render-video', taskId: `task-${keyCount}-${Math.random()}` };
}

/** Runs the conformance suite against the store `harness` makes. */
export function eventLogSuite(name: string, harness: EventLogHarness): void {
  describe(`${name} (the EventLog conformance suite)`, () => {
    const open: EventLog[] = [];
    const make = async (limits?: EventLogLimits) => {
      const log = await harness.create(limits);
      open.push(log);
      return log;
    };
    afterEach(async () => {
      await Promise.all(open.splice(0).map((log) => log.close()));
    });

    it('gives positions that order as strings in the order the messages were appended', async () => {
      const log = await make();
      const key = newKey();
      expect(await log.create(key, OWNER)).toBe(true);
      const positions = await appendMany(log, key, 120, true);
      expect(new Set(positions).size).toBe(120);
      expect([...positions].sort()).toEqual(positions);
      expect(new Set(positions.map((position) => position.length)).size).toBe(1);
      const entries = await readAll(log, key, undefined);
      expect(entries.map((entry) => entry.position)).toEqual(positions);
      expect(entries.map((entry) => entry.message)).toEqual(
        positions.map((_, index) => message(index + 1)),
      );
      expect(entries.map((entry) => entry.final)).toEqual(positions.map((_, i) => i === 119));
    });

    it('takes a batch of appends in order, with a position each, and nothing after a final one', async () => {
      const log = await make();
      const key = newKey();
      await log.create(key, OWNER);
      const [first] = await log.append(key, [message(0)], false);
      // A chunk of a stream, as a relay appends it.
      const positions = await log.append(
        key,
        Array.from({ length: 40 }, (_, index) => message(index + 1)),
        true,
      );
      expect(positions).toHaveLength(40);
      expect([first, ...positions]).toEqual([first, ...positions].sort());
      expect(new Set([first, ...positions]).size).toBe(41);
      await expect(log.append(key, [message(41)], false)).rejects.toThrow();
      const entries = await readAll(log, key, undefined);
      expect(entries.map((entry) => entry.message)).toEqual(
        Array.from({ length: 41 }, (_, index) => message(index)),
      );
      expect(entries.map((entry) => entry.position)).toEqual([first, ...positions]);
      expect(entries.map((entry) => entry.final)).toEqual(
        Array.from({ length: 41 }, (_, index) => index === 40),
      );
    });

    it('appends no messages as nothing', async () => {
      const log = await make();
      const key = newKey();
      await log.create(key, OWNER);
      expect(await log.append(key, [], true)).toEqual([]);
      const positions = await log.append(key, [message(1)], true);
      expect((await readAll(log, key, undefined)).map((entry) => entry.position)).toEqual(
        positions,
      );
    });

    it('gives a read resumed after any position of appends made together exactly the rest', async () => {
      const log = await make();
      const key = newKey();
      await log.create(key, OWNER);
      const positions = await log.append(
        key,
        Array.from({ length: 300 }, (_, index) => message(index)),
        true,
      );
      for (const index of [0, 1, 2, 99, 150, 151, 255, 256, 297, 298]) {
        const entries = await readAll(log, key, positions[index]);
        expect(entries.map((entry) => entry.position)).toEqual(positions.slice(index + 1));
        expect(entries.map((entry) => entry.message)).toEqual(
          Array.from({ length: 299 - index }, (_, offset) => message(index + 1 + offset)),
        );
      }
    });

    it('keeps at most maxLogBytes of appends made together: the newest stays, older ones are expired', async () => {
      const one = message(10).length;
      const log = await make({ maxLogBytes: one * 10 });
      const key = newKey();
      await log.create(key, OWNER);
      const positions = await log.append(
        key,
        Array.from({ length: 25 }, (_, index) => message(10 + index)),
        true,
      );
      const signal = new AbortController().signal;
      expect((await log.read(key, OWNER, undefined, signal)).status).toBe('expired');
      // The first position a read may resume after: it gets exactly the rest, at most 10 messages.
      let earliest = 0;
      while ((await log.read(key, OWNER, positions[earliest], signal)).status === 'expired') {
        earliest += 1;
      }
      const kept = await readAll(log, key, positions[earliest]);
      expect(kept.map((entry) => entry.position)).toEqual(positions.slice(earliest + 1));
      expect(kept.length).toBeLessThanOrEqual(10);
      expect(kept.at(-1)).toMatchObject({ message: message(34), final: true });
    });

    it('hands out what it keeps in batches of several entries, none empty', async () => {
      const log = await make();
      const key = newKey();
      await log.create(key, OWNER);
      await log.append(
        key,
        Array.from({ length: 300 }, (_, index) => message(index)),
        true,
      );
      const read = await log.read(key, OWNER, undefined, new AbortController().signal);
      if (read.status !== 'ok') throw new Error(read.status);
      const sizes: number[] = [];
      for await (const batch of read.batches) sizes.push(batch.length);
      expect(sizes.every((size) => size > 0)).toBe(true);
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(300);
      // A reader writes a batch at once: far fewer writes than entries.
      expect(sizes.length).toBeLessThanOrEqual(10);
    });

    it('reads what is kept, then the live messages, and ends after the final one', async () => {
      const log = await make();
      const key = newKey();
      await log.create(key, OWNER);
      await appendMany(log, key, 3, false);
      const read = await log.read(key, OWNER, undefined, new AbortController().signal);
      expect(read.status).toBe('ok');
      if (read.status !== 'ok') return;
      const iterator = entriesOf(read);
      const seen: string[] = [];
      for (let index = 0; index < 3; index++) seen.push((await iterator.next()).value.message);
      // The read waits for the next message, which comes later.
      const waiting = iterator.next();
      await log.append(key, [message(4)], false);
      seen.push((await waiting).value.message);
      const last = iterator.next();
      await log.append(key, [message(5)], true);
      const final = await last;
      expect(final.value).toMatchObject({ message: message(5), final: true });
      seen.push(final.value.message);
      expect(await iterator.next()).toEqual({ done: true, value: undefined });
      expect(seen).toEqual([1, 2, 3, 4, 5].map(message));
    });

    it('gives a read resumed after any position exactly the messages after it, once each', async () => {
      const log = await make();
      const key = newKey();
      await log.create(key, OWNER);
      const positions = await appendMany(log, key, 25, true);
      // After the final message there is nothing to read, and nothing will come.
      const afterFinal = await log.read(key, OWNER, positions[24], new AbortController().signal);
      expect(afterFinal.status).toBe('ended');
      for (let index = 0; index < positions.length - 1; index++) {
        const entries = await readAll(log, key, positions[index]);
        expect(entries.map((entry) => entry.position)).toEqual(positions.slice(index + 1));
      }
      expect(await readAll(log, key, undefined)).toHaveLength(25);
    });

    it('gives a live read resumed after every position the rest of the messages, each once', async () => {
      const log = await make();
      const key = newKey();
      await log.create(key, OWNER);
      const seen: string[] = [];
      let after: string | undefined;
      for (let index = 1; index <= 10; index++) {
        const read = await log.read(key, OWNER, after, new AbortController().signal);
        if (read.status !== 'ok') throw new Error(read.status);
        const iterator = entriesOf(read);
        const next = iterator.next();
        await log.append(key, [message(index)], index === 10);
        const entry = (await next).value as EventLogEntry;
        seen.push(entry.message);
        after = entry.position;
        // The reader leaves mid-read (a dropped connection) and comes back after its position.
        await iterator.return(undefined);
      }
      expect(seen).toEqual(Array.from({ length: 10 }, (_, index) => message(index + 1)));
    });

    it('answers another owner, and a task without a log, not-found', async () => {
      const log = await make();
      const key = newKey();
      await log.create(key, OWNER);
      await appendMany(log, key, 2, true);
      const signal = new AbortController().signal;
      expect((await log.read(key, OTHER, undefined, signal)).status).toBe('not-found');
      expect((await log.read(newKey(), OWNER, undefined, signal)).status).toBe('not-found');
      expect((await log.read(key, OWNER, undefined, signal)).status).toBe('ok');
      // The same id under another task name is another task.
      const otherName = { taskName: 'echo', taskId: key.taskId };
      expect((await log.read(otherName, OWNER, undefined, signal)).status).toBe('not-found');
    });

    it('creates a log once: a repeated start by its owner is told so, another owner refused', async () => {
      const log = await make();
      const key = newKey();
      expect(await log.create(key, OWNER)).toBe(true);
      expect(await log.create(key, OWNER)).toBe(false);
      await expect(log.create(key, OTHER)).rejects.toThrow();
    });

    it('refuses an append to a task without a log, and after the final message', async () => {
      const log = await make();
      const key = newKey();
      await expect(log.append(key, [message(1)], false)).rejects.toThrow();
      await log.create(key, OWNER);
      await log.append(key, [message(1)], true);
      await expect(log.append(key, [message(2)], false)).rejects.toThrow();
    });

    it('ends the reads of an abandoned log expired, after what it holds', async () => {
      const log = await make();
      const key = newKey();
      await log.create(key, OWNER);
      const positions = await appendMany(log, key, 2, false);
      const read = await log.read(key, OWNER, undefined, new AbortController().signal);
      if (read.status !== 'ok') throw new Error(read.status);
      const iterator = entriesOf(read);
      expect((await iterator.next()).value.message).toBe(message(1));
      await log.abandon(key);
      expect((await iterator.next()).value.message).toBe(message(2));
      const end = await iterator.next().then(
        () => 'went on',
        (error: unknown) => error,
      );
      expect((end as EventLogError).kind).toBe('expired');
      const signal = new AbortController().signal;
      expect((await log.read(key, OWNER, positions[1], signal)).status).toBe('expired');
      await expect(log.append(key, [message(3)], true)).rejects.toThrow();
    });

    it("abandons a log whose writer's lease ran out: its reads end expired after what it holds, and a late append is refused", async () => {
      const log = await make();
      const key = newKey();
      await log.create(key, OWNER);
      await log.keepAlive(key, LEASE_MS);
      const positions = await appendMany(log, key, 2, false);
      const read = await log.read(key, OWNER, undefined, new AbortController().signal);
      if (read.status !== 'ok') throw new Error(read.status);
      const iterator = entriesOf(read);
      expect((await iterator.next()).value.message).toBe(message(1));
      expect((await iterator.next()).value.message).toBe(message(2));
      const end = iterator.next().then(
        () => 'went on',
        (error: unknown) => error,
      );
      await harness.passLease(LEASE_MS);
      expect(((await end) as EventLogError).kind).toBe('expired');
      const signal = new AbortController().signal;
      expect((await log.read(key, OWNER, positions[1], signal)).status).toBe('expired');
      await expect(log.append(key, [message(3)], true)).rejects.toThrow();
    });

    it('reads a log that ended to its final message whatever its lease, and takes no lease after the end', async () => {
      const log = await make();
      const key = newKey();
      await log.create(key, OWNER);
      await log.keepAlive(key, LEASE_MS);
      await appendMany(log, key, 2, true);
      await harness.passLease(LEASE_MS);
      await log.keepAlive(key, LEASE_MS);
      const entries = await readAll(log, key, undefined);
      expect(entries.map((entry) => entry.message)).toEqual([message(1), message(2)]);
      expect(entries.at(-1)?.final).toBe(true);
    });

    it('abandons only the log whose lease ran out: one never kept alive waits for its writer', async () => {
      const log = await make();
      const leased = newKey();
      const waiting = newKey();
      await log.create(leased, OWNER);
      await log.create(waiting, OWNER);
      await log.keepAlive(leased, LEASE_MS);
      await log.append(waiting, [message(1)], false);
      await harness.passLease(LEASE_MS);
      const signal = new AbortController().signal;
      expect((await log.read(leased, OWNER, undefined, signal)).status).toBe('expired');
      await log.append(waiting, [message(2)], true);
      expect((await readAll(log, waiting, undefined)).map((entry) => entry.message)).toEqual([
        message(1),
        message(2),
      ]);
    });

    it('ends a live read when its signal aborts', async () => {
      const log = await make();
      const key = newKey();
      await log.create(key, OWNER);
      await log.append(key, [message(1)], false);
      const controller = new AbortController();
      const read = await log.read(key, OWNER, undefined, controller.signal);
      if (read.status !== 'ok') throw new Error(read.status);
      const iterator = entriesOf(read);
      expect((await iterator.next()).value.message).toBe(message(1));
      const waiting = iterator.next();
      controller.abort();
      expect(await waiting).toEqual({ done: true, value: undefined });
    });

    it('keeps an ended log for retentionMs, then answers its owner expired and others not-found', async () => {
      const retentionMs = 200;
      const log = await make({ retentionMs });
      const key = newKey();
      await log.create(key, OWNER);
      await appendMany(log, key, 3, true);
      const signal = new AbortController().signal;
      expect(await readAll(log, key, undefined)).toHaveLength(3);
      await harness.passRetention(
        retentionMs,
        async () => (await log.read(key, OWNER, undefined, signal)).status,
      );
      expect((await log.read(key, OWNER, undefined, signal)).status).toBe('expired');
      expect((await log.read(key, OTHER, undefined, signal)).status).toBe('not-found');
    });

    it('keeps a running log past retentionMs', async () => {
      const retentionMs = 200;
      const log = await make({ retentionMs });
      const running = newKey();
      const ended = newKey();
      await log.create(running, OWNER);
      await log.append(running, [message(1)], false);
      await log.create(ended, OWNER);
      await log.append(ended, [message(1)], true);
      const signal = new AbortController().signal;
      await harness.passRetention(
        retentionMs,
        async () => (await log.read(ended, OWNER, undefined, signal)).status,
      );
      const read = await log.read(running, OWNER, undefined, signal);
      expect(read.status).toBe('ok');
    });

    it('keeps at most maxLogBytes of a task: the oldest go, and a read that needs them is expired', async () => {
      const one = message(10).length;
      const log = await make({ maxLogBytes: one * 4 });
      const key = newKey();
      await log.create(key, OWNER);
      const positions: string[] = [];
      for (let index = 10; index < 20; index++) {
        positions.push(...(await log.append(key, [message(index)], index === 19)));
      }
      const signal = new AbortController().signal;
      expect((await log.read(key, OWNER, undefined, signal)).status).toBe('expired');
      expect((await log.read(key, OWNER, positions[4], signal)).status).toBe('expired');
      // After the sixth position the four newest are kept: exactly those.
      const rest = await readAll(log, key, positions[5]);
      expect(rest.map((entry) => entry.message)).toEqual([16, 17, 18, 19].map(message));
    });

    it('keeps the newest message even when it alone is larger than maxLogBytes', async () => {
      const log = await make({ maxLogBytes: 8 });
      const key = newKey();
      await log.create(key, OWNER);
      const [first] = await log.append(key, [message(1)], false);
      await log.append(key, [message(2)], true);
      expect((await readAll(log, key, first)).map((entry) => entry.message)).toEqual([message(2)]);
    });

    it('ends a read that fell behind the bytes kept with an expired error, never a gap', async () => {
      const one = message(10).length;
      const log = await make({ maxLogBytes: one * 3 });
      const key = newKey();
      await log.create(key, OWNER);
      await log.append(key, [message(10)], false);
      const read = await log.read(key, OWNER, undefined, new AbortController().signal);
      if (read.status !== 'ok') throw new Error(read.status);
      const iterator = entriesOf(read);
      expect((await iterator.next()).value.message).toBe(message(10));
      // While the reader waits, more is appended than the log keeps.
      for (let index = 11; index < 20; index++) await log.append(key, [message(index)], false);
      const next = await iterator.next().then(
        (result) => result,
        (error: unknown) => error,
      );
      expect(next).toBeInstanceOf(EventLogError);
      expect((next as EventLogError).kind).toBe('expired');
    });

    it('holds at most maxTasks logs: the first to end go first', async () => {
      const log = await make({ maxTasks: 3 });
      const keys = [newKey(), newKey(), newKey(), newKey()];
      const signal = new AbortController().signal;
      for (const [index, key] of keys.entries()) {
        await log.create(key, OWNER);
        // The second ends before the first; the third and fourth still run.
        if (index === 1) await log.append(key, [message(1)], true);
        if (index === 2) await log.append(keys[0] as EventLogKey, [message(1)], true);
      }
      const statuses = await Promise.all(
        keys.map(async (key) => (await log.read(key, OWNER, undefined, signal)).status),
      );
      expect(statuses).toEqual(['ok', 'expired', 'ok', 'ok']);
      await log.create(newKey(), OWNER);
      expect((await log.read(keys[0] as EventLogKey, OWNER, undefined, signal)).status).toBe(
        'expired',
      );
    });

    it('ends every open read on close(), and refuses what comes after', async () => {
      const log = await harness.create();
      const key = newKey();
      await log.create(key, OWNER);
      await log.append(key, [message(1)], false);
      const read = await log.read(key, OWNER, undefined, new AbortController().signal);
      if (read.status !== 'ok') throw new Error(read.status);
      const iterator = entriesOf(read);
      await iterator.next();
      const waiting = iterator.next().then(
        (result) => result.done,
        () => 'threw',
      );
      await log.close();
      expect([true, 'threw']).toContain(await waiting);
      await expect(log.append(key, [message(2)], false)).rejects.toThrow();
    });
  });
}
