/**
 * The bodies of the two reads (docs/protocol.md, "Resumable streams (0.4)"), over a real
 * `memoryEventLog`: a catch-up of many kept messages goes out in a few chunks (a batch of the log
 * each), every message once and in order, and a live message is handed over as soon as it is
 * appended.
 */
import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import type { EventLog } from '../../src/events/event-log.js';
import { memoryEventLog } from '../../src/events/memory-event-log.js';
import { answerEventsRead, answerFollowRead, readResponse } from '../../src/events/read-answers.js';

const OWNER = 'user-a';
const KEY = { taskName: 'render-video', taskId: 'task-1' };
const READ = { keepAliveMs: 15_000, signal: new AbortController().signal };

const message = (index: number) => JSON.stringify({ type: 'task.progress', percent: index });

/** A log holding `count` messages of KEY, the last one final when `final`. */
async function logWith(count: number, final: boolean): Promise<EventLog> {
  const log = memoryEventLog({ maxLogBytes: 8 * 1024 * 1024 });
  await log.create(KEY, OWNER);
  for (let index = 1; index <= count; index++) {
    await log.append(KEY, [message(index)], final && index === count);
  }
  return log;
}

/** Reads a whole body: its chunks, and the messages they hold (`id` and `data`). */
async function readBody(body: ReadableStream<Uint8Array>) {
  const messages: Array<{ id: string | undefined; data: string }> = [];
  const parser = createParser({ onEvent: ({ id, data }) => messages.push({ id, data }) });
  const decoder = new TextDecoder();
  let chunks = 0;
  for await (const chunk of body) {
    chunks += 1;
    parser.feed(decoder.decode(chunk, { stream: true }));
  }
  return { chunks, messages };
}

function bodyOf(answer: Awaited<ReturnType<typeof answerEventsRead>>): ReadableStream<Uint8Array> {
  if (!('body' in answer)) throw new Error('The read has no body.');
  return answer.body;
}

describe('the events read', () => {
  it('writes a catch-up of 2,000 kept messages in a few chunks, every message once and in order', async () => {
    const log = await logWith(2000, true);
    const { chunks, messages } = await readBody(
      bodyOf(await answerEventsRead(log, KEY, OWNER, null, READ)),
    );
    expect(messages.map((entry) => entry.data)).toEqual(
      Array.from({ length: 2000 }, (_, index) => message(index + 1)),
    );
    expect(messages.map((entry) => Number(entry.id))).toEqual(
      Array.from({ length: 2000 }, (_, index) => index + 1),
    );
    // One chunk per batch of the log (256 messages), not one per message.
    expect(chunks).toBeLessThanOrEqual(8);
    await log.close();
  });

  it('hands a live message over as soon as it is appended', async () => {
    const log = await logWith(1, false);
    const reader = bodyOf(await answerEventsRead(log, KEY, OWNER, null, READ)).getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toContain(message(1));
    const next = reader.read();
    await log.append(KEY, [message(2)], false);
    expect(decoder.decode((await next).value)).toContain(message(2));
    await reader.cancel();
    await log.close();
  });
});

describe('the multiplexed read', () => {
  it('writes the catch-up of two tasks in a few chunks, every message once', async () => {
    const log = await logWith(1000, true);
    const second = { taskName: 'render-video', taskId: 'task-2' };
    await log.create(second, OWNER);
    for (let index = 1; index <= 1000; index++) {
      await log.append(second, [message(index)], index === 1000);
    }
    const answer = answerFollowRead(
      log,
      {
        follow: [
          { task: KEY.taskName, id: KEY.taskId, after: null },
          { task: second.taskName, id: second.taskId, after: null },
        ],
      },
      OWNER,
      { ...READ, isReadable: () => true },
    );
    const { chunks, messages } = await readBody(bodyOf(answer));
    const of = (id: string) =>
      messages
        .map((entry) => JSON.parse(entry.data) as { id: string; position: string })
        .filter((entry) => entry.id === id)
        .map((entry) => Number(entry.position));
    const all = Array.from({ length: 1000 }, (_, index) => index + 1);
    expect(of(KEY.taskId)).toEqual(all);
    expect(of(second.taskId)).toEqual(all);
    expect(chunks).toBeLessThanOrEqual(12);
    await log.close();
  });
});

it('refuses a read of another owner with the error body, as before', async () => {
  const log = await logWith(1, true);
  const answer = readResponse(await answerEventsRead(log, KEY, 'user-b', null, READ));
  expect(answer.status).toBe(404);
  expect(await answer.json()).toMatchObject({ reason: 'RESULT_NOT_FOUND' });
  await log.close();
});
