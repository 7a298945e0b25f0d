import { describe, expect, it } from 'vitest';
import {
  createEventStreamParser,
  createEventStreamReader,
  EventTooLargeError,
} from '../../../src/protocol/event-stream-reader.js';

/** A message as these tests compare it: its data, and its id or `''`. */
interface ServerSentMessage {
  data: string;
  id: string;
}

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
  const reader = createEventStreamReader(bodyOf(chunks).stream, { maxEventBytes });
  try {
    for (;;) {
      const batch = await reader.read();
      if (batch === undefined) return { messages, batches };
      batches.push(batch.length);
      for (const { data, id } of batch) messages.push({ data, id: id ?? '' });
    }
  } finally {
    await reader.cancel();
  }
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

describe('createEventStreamReader', () => {
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

  it('holds an unended line of exactly the cap and refuses one character more', async () => {
    // The cap is eventsource-parser's `maxBufferSize`: what it holds between chunks, an event's
    // data so far and a line not yet ended (its field name included), in characters.
    const exact = `data: ${'q'.repeat(94)}`;
    expect(exact).toHaveLength(100);
    const { messages } = await readAll([bytesOf(exact), bytesOf('\n\n')], 100);
    expect(messages).toEqual([{ data: 'q'.repeat(94), id: '' }]);
    await expect(readAll([bytesOf(`${exact}q`), bytesOf('\n\n')], 100)).rejects.toBeInstanceOf(
      EventTooLargeError,
    );
  });

  it('reads the same messages however the body is cut, lines split across many chunks included', async () => {
    const long = 'é'.repeat(3000);
    const body = bytesOf(
      [
        '\uFEFF',
        ': comment\r\n',
        'id: 1\rdata: {"a":1}\r\r',
        `data: ${long}\r\ndata: second line\r\n\r\n`,
        'data\n\n',
        'data:\n\n',
        'data:no space\n\n',
        `id: 2\n:${long}\ndata:  two spaces\n\n`,
        'event: custom\nretry: 5\ndata: 😀\r\n\r\n',
        'data: last\n\n',
        'data: unfinished',
      ].join(''),
    );
    const { messages: expected } = await readAll([body]);
    expect(expected.map((message) => message.data)).toEqual([
      '{"a":1}',
      `${long}\nsecond line`,
      'no space',
      ' two spaces',
      '😀',
      'last',
    ]);
    expect((await readAll(split(body, 1))).messages).toEqual(expected);
    let seed = 12345;
    const below = (limit: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % limit;
    };
    for (let round = 0; round < 300; round++) {
      const cuts = new Set<number>();
      for (let count = below(40); count > 0; count--) cuts.add(below(body.length));
      // Cuts right around line ends, where a CR may be parted from its LF.
      for (let count = below(10); count > 0; count--) {
        const at = body.indexOf(13, below(body.length));
        if (at !== -1) cuts.add(at + below(3));
      }
      const points = [0, ...[...cuts].sort((a, b) => a - b), body.length];
      const chunks = points.slice(1).map((end, index) => body.subarray(points[index], end));
      const { messages } = await readAll(chunks.filter((chunk) => chunk.length > 0));
      expect(messages, `cuts at ${points.join(',')}`).toEqual(expected);
    }
  });

  it('counts a line split across chunks towards the cap exactly', async () => {
    const line = `data: ${'w'.repeat(94)}`;
    const body = bytesOf(`data: 1\n\n${line}\n\ndata: 2\n\n`);
    // Each cut leaves the 100-character line open across chunks; the cap fits it exactly.
    for (const size of [3, 10, 50, 99, 101]) {
      const { messages } = await readAll(split(body, size), 100);
      expect(messages, `chunks of ${size}`).toEqual([
        { data: '1', id: '' },
        { data: 'w'.repeat(94), id: '' },
        { data: '2', id: '' },
      ]);
    }
    // The whole line held before its line end comes: one character over a cap of 99.
    const open = [bytesOf(`data: 1\n\n${line}`), bytesOf('\n\ndata: 2\n\n')];
    expect((await readAll(open, 100)).messages).toHaveLength(3);
    await expect(readAll(open, 99)).rejects.toBeInstanceOf(EventTooLargeError);
  });
});

describe('createEventStreamParser', () => {
  it('hands every message over, empty data included, and every comment, as fed', () => {
    const seen: string[] = [];
    const parser = createEventStreamParser({
      onMessage: ({ data, id }) => seen.push(`message ${JSON.stringify(data)} ${id ?? '-'}`),
      onComment: (comment) => seen.push(`comment ${comment.trim()}`),
      onText: (text) => seen.push(`text ${JSON.stringify(text)}`),
    });
    parser.feed(bytesOf(': keep-alive\n\nid: 7\ndata: a\n'));
    parser.feed(bytesOf('\ndata:\n\n'));
    parser.end();
    expect(seen).toEqual([
      'text ": keep-alive\\n\\nid: 7\\ndata: a\\n"',
      'comment keep-alive',
      'text "\\ndata:\\n\\n"',
      'message "a" 7',
      'message "" -',
    ]);
  });

  it('ends a line at a CR that is the last byte of the body, as the reader does', () => {
    const seen: string[] = [];
    const parser = createEventStreamParser({ onMessage: ({ data }) => seen.push(data) });
    parser.feed(bytesOf('data: last\r'));
    parser.feed(bytesOf('\r'));
    expect(seen).toEqual([]);
    parser.end();
    expect(seen).toEqual(['last']);
  });
});
