/**
 * How the reads of a log write (docs/protocol.md, "Resumable streams (0.4)"): a message after a
 * silence at once, and those that follow within a frame of a write together, so a read of many
 * busy tasks makes about one socket write per frame rather than one per message. A real
 * memoryEventLog on the fake clock, read through the body each read answers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryEventLog } from '../../src/events/memory-event-log.js';
import { answerEventsRead, answerFollowRead } from '../../src/events/read-answers.js';
import type { EventLogKey } from '../../src/events/event-log.js';

const OWNER = 'user-1';
const progress = (percent: number) => JSON.stringify({ type: 'task.progress', percent });
const completed = JSON.stringify({ type: 'task.completed', result: null });

/** The `data:` lines of a chunk of an event stream, in order. */
function dataLines(chunk: Uint8Array): string[] {
  return new TextDecoder()
    .decode(chunk)
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length));
}

/** Whether `promise` has settled, after the microtasks now queued ran (the fake clock stands still). */
async function hasSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await vi.advanceTimersByTimeAsync(0);
  return settled;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the writes of a log read', () => {
  it('writes a message after a silence at once, and gathers those within a frame of a write', async () => {
    const log = memoryEventLog();
    const key: EventLogKey = { taskName: 'render-video', taskId: 'task-1' };
    await log.create(key, OWNER);
    const abort = new AbortController();
    const answer = await answerEventsRead(log, key, OWNER, null, {
      keepAliveMs: 15_000,
      signal: abort.signal,
    });
    if (!('body' in answer)) throw new Error('expected an event stream');
    const reader = answer.body.getReader();

    await log.append(key, [progress(10)], false);
    const first = reader.read();
    expect(await hasSettled(first)).toBe(true);
    expect(dataLines((await first).value!)).toEqual([progress(10)]);

    // Three messages within a frame of that write: held until the frame has passed, then one write.
    const second = reader.read();
    await vi.advanceTimersByTimeAsync(2);
    await log.append(key, [progress(20)], false);
    await log.append(key, [progress(30)], false);
    await vi.advanceTimersByTimeAsync(5);
    await log.append(key, [progress(40)], false);
    expect(await hasSettled(second)).toBe(false);
    await vi.advanceTimersByTimeAsync(16);
    expect(dataLines((await second).value!)).toEqual([progress(20), progress(30), progress(40)]);

    // A silence longer than a frame: the next message goes at once again, the final one with it
    // closing the read.
    await vi.advanceTimersByTimeAsync(100);
    await log.append(key, [completed], true);
    const last = reader.read();
    expect(await hasSettled(last)).toBe(true);
    expect(dataLines((await last).value!)).toEqual([completed]);
    expect((await reader.read()).done).toBe(true);
  });

  it('writes the first messages of a task followed from its first message at once in the multiplexed read, even within a frame of a write', async () => {
    const log = memoryEventLog();
    const streaming: EventLogKey = { taskName: 'render-video', taskId: 'streaming' };
    const started: EventLogKey = { taskName: 'render-video', taskId: 'started' };
    await log.create(streaming, OWNER);
    const [had] = await log.append(streaming, [progress(10)], false);
    await log.create(started, OWNER);
    const abort = new AbortController();
    // The read a page opens when it starts a task while it follows another: the one after the
    // position it has, the new one from its first message.
    const answer = answerFollowRead(
      log,
      {
        follow: [
          { task: streaming.taskName, id: streaming.taskId, after: had },
          { task: started.taskName, id: started.taskId, after: null },
        ],
      },
      OWNER,
      { keepAliveMs: 15_000, signal: abort.signal, isReadable: () => true },
    );
    if (!('body' in answer)) throw new Error('expected an event stream');
    const reader = answer.body.getReader();
    const idsOf = (chunk: Uint8Array) =>
      dataLines(chunk).map((line) => (JSON.parse(line) as { id: string }).id);

    await log.append(streaming, [progress(20)], false);
    const first = reader.read();
    expect(await hasSettled(first)).toBe(true);
    expect(idsOf((await first).value!)).toEqual(['streaming']);

    // The started task's first message, a millisecond after that write: at once, not a frame later.
    const second = reader.read();
    await vi.advanceTimersByTimeAsync(1);
    await log.append(started, [progress(5)], false);
    expect(await hasSettled(second)).toBe(true);
    expect(idsOf((await second).value!)).toEqual(['started']);

    // Its next messages, and the other task's, are gathered within a frame as before.
    const third = reader.read();
    await log.append(started, [progress(6)], false);
    await log.append(streaming, [progress(30)], false);
    expect(await hasSettled(third)).toBe(false);
    await vi.advanceTimersByTimeAsync(16);
    expect(idsOf((await third).value!)).toEqual(['started', 'streaming']);
    abort.abort();
  });

  it('writes the messages of many tasks that come within a frame together in the multiplexed read', async () => {
    const log = memoryEventLog();
    const keys = Array.from({ length: 50 }, (_, index) => ({
      taskName: 'render-video',
      taskId: `task-${index}`,
    }));
    // Tasks the page already shows (it has their first message): a task followed from its first
    // message has its first messages written at once (the test before this one).
    const had = new Map<string, string>();
    for (const key of keys) {
      await log.create(key, OWNER);
      had.set(key.taskId, (await log.append(key, [progress(0)], false))[0]!);
    }
    const abort = new AbortController();
    const answer = answerFollowRead(
      log,
      {
        follow: keys.map((key) => ({
          task: key.taskName,
          id: key.taskId,
          after: had.get(key.taskId) ?? null,
        })),
      },
      OWNER,
      { keepAliveMs: 15_000, signal: abort.signal, isReadable: () => true },
    );
    if (!('body' in answer)) throw new Error('expected an event stream');
    const reader = answer.body.getReader();
    const chunks: string[][] = [];
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        chunks.push(dataLines(value));
      }
    })();

    // Five rounds 100 ms apart; in each, every task sends one message, a millisecond apart.
    for (let round = 1; round <= 5; round += 1) {
      for (const key of keys) {
        await log.append(key, [round === 5 ? completed : progress(round * 20)], round === 5);
        await vi.advanceTimersByTimeAsync(1);
      }
      await vi.advanceTimersByTimeAsync(50);
    }
    await vi.advanceTimersByTimeAsync(20);
    await reading;

    const messages = chunks
      .flat()
      .map((line) => JSON.parse(line) as { id: string; position: string });
    expect(messages).toHaveLength(250);
    for (const key of keys) {
      const own = messages.filter((message) => message.id === key.taskId);
      expect(own.map((message) => message.position)).toEqual(
        ['2', '3', '4', '5', '6'].map((sequence) => sequence.padStart(16, '0')),
      );
    }
    // Each round spans 50 ms: the first message goes alone, the others in writes a frame apart.
    expect(chunks.length).toBeLessThanOrEqual(5 * (1 + Math.ceil(50 / 16)));
  });
});
