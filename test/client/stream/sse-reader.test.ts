import { describe, expect, it } from 'vitest';
import {
  createEventStreamReader,
  EventTooLargeError,
  readServerSentEvents,
  type ServerSentMessage,
} from '../../../src/client/stream/sse-reader.js';

/** A body that delivers exactly these chunks, and records whether it was cancelled. */
function bodyOf(chunks: Uint8Array[]) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[state.pulled++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Splits bytes into chunks of `size`. */
function split(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += size)
    chunks.push(bytes.subarray(offset, offset + size));
  return chunks;
}

async function readAll(chunks: Uint8Array[], maxEventBytes?: number) {
  const messages: ServerSentMessage[] = [];
  const batches: number[] = [];
  for await (const batch of readServerSentEvents(bodyOf(chunks).stream, { maxEventBytes })) {
    batches.push(batch.length);
    for (const { data, id } of batch) messages.push({ data, id });
  }
  return { messages, batches };
}

const wire = [
  '\uFEFF',
  ': keep-alive\r\n\r\n',
  'id: first\r\ndata: {"a":"crème 😀"}\r\n\r\n',
  'data: {"b":2}\r\r',
  'data: {"c":\ndata: 3}\n\n',
  'id: last\ndata: {"d":4}\n\n',
  'data: {"never":"ends"}\n',
].join('');

const expected: ServerSentMessage[] = [
  { data: '{"a":"crème 😀"}', id: 'first' },
  { data: '{"b":2}', id: '' },
  { data: '{"c":\n3}', id: '' },
  { data: '{"d":4}', id: 'last' },
];

describe('readServerSentEvents', () => {
  it('reads the same messages whatever the chunk size, down to one byte', async () => {
    const bytes = bytesOf(wire);
    for (const size of [1, 2, 3, 5, 7, 64, bytes.length]) {
      const { messages } = await readAll(split(bytes, size));
      expect(messages, `chunks of ${size}`).toEqual(expected);
    }
  });

  it('hands out the messages of one chunk in one batch', async () => {
    const { batches } = await readAll([
      bytesOf('data: 1\n\ndata: 2\n\ndata: 3\n\n'),
      bytesOf('data: 4\n\n'),
    ]);
    expect(batches).toEqual([3, 1]);
  });

  it('skips messages without data', async () => {
    const { messages } = await readAll([bytesOf(': one\n\n:two\n\nid: 5\n\nevent: x\n\n\n\n')]);
    expect(messages).toEqual([]);
  });

  it('refuses an event over the cap while its lines are still arriving', async () => {
    const line = bytesOf(`data: ${'z'.repeat(1000)}`);
    const { stream, state } = bodyOf(Array.from({ length: 100 }, () => line));
    const reader = createEventStreamReader(stream, { maxEventBytes: 2500 });
    await expect(reader.read()).rejects.toBeInstanceOf(EventTooLargeError);
    // The third chunk crosses the cap; the stream may have pulled one or two ahead, not 100.
    expect(state.pulled).toBeLessThanOrEqual(5);
    await reader.cancel();
    expect(state.cancelled).toBe(true);
  });

  it('counts every line of a message towards the cap', async () => {
    const data = `data: ${'z'.repeat(100)}\n`;
    await expect(readAll([bytesOf(data.repeat(30) + '\n')], 2000)).rejects.toBeInstanceOf(
      EventTooLargeError,
    );
    const { messages } = await readAll([bytesOf(data.repeat(10) + '\n')], 2000);
    expect(messages).toHaveLength(1);
  });

  it('accepts an event of exactly the cap and refuses one byte more', async () => {
    const exact = `data: ${'q'.repeat(94)}`;
    expect(bytesOf(exact).length).toBe(100);
    const { messages } = await readAll(split(bytesOf(`${exact}\n\n`), 7), 100);
    expect(messages).toHaveLength(1);
    await expect(readAll(split(bytesOf(`${exact}q\n\n`), 7), 100)).rejects.toBeInstanceOf(
      EventTooLargeError,
    );
  });
});
