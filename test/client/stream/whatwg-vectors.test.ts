/**
 * The WHATWG rules for parsing an event stream (HTML Living Standard, "Server-sent events",
 * "Interpreting an event stream"), as 39 vectors run through the client's reader in every chunk
 * size from one byte to the whole body. The reader hands out only messages that carry data, each
 * with its own `id:` line (docs/protocol.md, "The client").
 */
import { describe, expect, it } from 'vitest';
import { createEventStreamReader } from '../../../src/protocol/event-stream-reader.js';

type Message = { data: string; id: string };

const vectors: Array<[name: string, body: string, expected: Message[]]> = [
  ['one data line', 'data: a\n\n', [{ data: 'a', id: '' }]],
  ['no space after the colon', 'data:a\n\n', [{ data: 'a', id: '' }]],
  ['only one leading space is stripped', 'data:  a\n\n', [{ data: ' a', id: '' }]],
  ['data lines joined by LF', 'data: a\ndata: b\n\n', [{ data: 'a\nb', id: '' }]],
  ['CRLF line ends', 'data: a\r\n\r\n', [{ data: 'a', id: '' }]],
  ['CR line ends', 'data: a\r\r', [{ data: 'a', id: '' }]],
  [
    'two events',
    'data: a\n\ndata: b\n\n',
    [
      { data: 'a', id: '' },
      { data: 'b', id: '' },
    ],
  ],
  ['a comment alone is no event', ': comment\n\n', []],
  ['an empty comment', ':\n\n', []],
  ['a data field without a value makes no event with data', 'data\n\n', []],
  ['an empty data value makes no event with data', 'data:\n\n', []],
  ['an event without its blank line at the end is dropped', 'data: a\n', []],
  ['id before data', 'id: 1\ndata: a\n\n', [{ data: 'a', id: '1' }]],
  ['id after data', 'data: a\nid: 1\n\n', [{ data: 'a', id: '1' }]],
  ['an id holding NUL is ignored', 'id: 1\0\ndata: a\n\n', [{ data: 'a', id: '' }]],
  ['an event type does not change the data', 'event: x\ndata: a\n\n', [{ data: 'a', id: '' }]],
  ['retry is no data', 'retry: 1000\ndata: a\n\n', [{ data: 'a', id: '' }]],
  ['a retry that is not a number is ignored', 'retry: abc\ndata: a\n\n', [{ data: 'a', id: '' }]],
  ['an unknown field is ignored', 'foo: bar\ndata: a\n\n', [{ data: 'a', id: '' }]],
  [
    'a line without a colon is a field without a value',
    'data: a\nfoo\n\n',
    [{ data: 'a', id: '' }],
  ],
  ['one leading BOM is stripped', '\uFEFFdata: a\n\n', [{ data: 'a', id: '' }]],
  ['a second BOM is part of the field name', '\uFEFF\uFEFFdata: a\n\n', []],
  [
    'extra blank lines dispatch nothing',
    'data: a\n\n\n\ndata: b\n\n',
    [
      { data: 'a', id: '' },
      { data: 'b', id: '' },
    ],
  ],
  ['UTF-8 beyond ASCII', 'data: é😀\n\n', [{ data: 'é😀', id: '' }]],
  ['CRLF between data lines', 'data: a\r\ndata: b\r\n\r\n', [{ data: 'a\nb', id: '' }]],
  ['CR between data lines', 'data: a\rdata: b\r\r', [{ data: 'a\nb', id: '' }]],
  [
    'mixed line ends in one event',
    'data: a\r\ndata: b\rdata: c\n\n',
    [{ data: 'a\nb\nc', id: '' }],
  ],
  ['a colon inside the value', 'data: a:b\n\n', [{ data: 'a:b', id: '' }]],
  ['a value of one space is empty', 'data: \n\n', []],
  ['an empty first data line', 'data:\ndata: a\n\n', [{ data: '\na', id: '' }]],
  ['an empty last data line', 'data: a\ndata:\n\n', [{ data: 'a\n', id: '' }]],
  ['field names are case-sensitive', 'DATA: a\n\n', []],
  ['a leading space belongs to the field name', ' data: a\n\n', []],
  ['a comment inside an event', 'data: a\n: comment\ndata: b\n\n', [{ data: 'a\nb', id: '' }]],
  ['an id field without a value', 'id\ndata: a\n\n', [{ data: 'a', id: '' }]],
  ['JSON data', 'data: {"x":1}\n\n', [{ data: '{"x":1}', id: '' }]],
  ['an event of only an id has no data', 'data: a\n\nid: 2\n\n', [{ data: 'a', id: '' }]],
  ['CRLF, then LF as the blank line', 'data: a\r\n\n', [{ data: 'a', id: '' }]],
  ['LF, then CRLF as the blank line', 'data: a\n\r\n', [{ data: 'a', id: '' }]],
];

/** The messages the reader hands out for `bytes` cut into chunks of `size`. */
async function read(bytes: Uint8Array, size: number): Promise<Message[]> {
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
  const reader = createEventStreamReader(body);
  const messages: Message[] = [];
  for (;;) {
    const batch = await reader.read();
    if (batch === undefined) return messages;
    for (const { data, id } of batch) messages.push({ data, id: id ?? '' });
  }
}

describe('the stream reader on the WHATWG vectors', () => {
  it('holds 39 vectors', () => {
    expect(vectors).toHaveLength(39);
  });

  for (const [name, body, expected] of vectors) {
    it(`reads ${name}, in every chunk size`, async () => {
      const bytes = new TextEncoder().encode(body);
      for (let size = 1; size <= bytes.length; size++) {
        expect(await read(bytes, size), `chunks of ${size}`).toEqual(expected);
      }
    });
  }
});
