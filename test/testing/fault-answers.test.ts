/**
 * cutAfterEvents counts events with the client's own event-stream reader, so it cuts where the
 * client would see the n-th event end, whatever the line ends and however the bytes are chunked.
 */
import { describe, expect, it } from 'vitest';
import { cutAfterEvents } from '../../src/testing/fault-answers.js';

/** An event-stream answer whose body is `chunks`, each a chunk of its own. */
function streamOf(chunks: (string | Uint8Array)[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks)
        controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** What goes through `response`'s body before it ends or breaks, and how it stopped. */
async function readThrough(response: Response): Promise<{ text: string; broken: boolean }> {
  const reader = response.body!.getReader();
  const bytes: number[] = [];
  // The text as it came, a byte order mark included.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: decoder.decode(Uint8Array.from(bytes)), broken: false };
      bytes.push(...value);
    }
  } catch {
    return { text: decoder.decode(Uint8Array.from(bytes)), broken: true };
  }
}

describe('cutAfterEvents', () => {
  it('cuts after the n-th event of CRLF lines split across chunks, its blank line whole', async () => {
    const chunks = [
      'data: 1\r',
      '\n\r\n: keep-alive\r\n\r\ndata: 2\r\n',
      '\r\n',
      'data: 3\r\n\r\n',
    ];
    expect(await readThrough(cutAfterEvents(streamOf(chunks), 2))).toEqual({
      text: 'data: 1\r\n\r\n: keep-alive\r\n\r\ndata: 2\r\n\r\n',
      broken: true,
    });
  });

  it('cuts after the n-th event of lines that end in CR alone', async () => {
    const chunks = ['data: a\r\rdata: b\r\r: c\r\rdata: d\r\r'];
    expect(await readThrough(cutAfterEvents(streamOf(chunks), 2))).toEqual({
      text: 'data: a\r\rdata: b\r\r',
      broken: true,
    });
  });

  it('counts a data field without a value, and no message without data', async () => {
    const chunks = ['id: 1\n\nevent: x\n\ndata\n\ndata:\n\ndata: z\n\n'];
    expect(await readThrough(cutAfterEvents(streamOf(chunks), 2))).toEqual({
      text: 'id: 1\n\nevent: x\n\ndata\n\ndata:\n\n',
      broken: true,
    });
  });

  it('counts the first event of a stream that starts with a byte order mark, as the client does', async () => {
    const chunks = [Uint8Array.of(0xef, 0xbb), Uint8Array.of(0xbf), 'data: 1\n\ndata: 2\n\n'];
    expect(await readThrough(cutAfterEvents(streamOf(chunks), 1))).toEqual({
      text: '\uFEFFdata: 1\n\n',
      broken: true,
    });
  });

  it('passes a stream with fewer events whole', async () => {
    const chunks = ['data: 1\n\n', 'data: 2\n\n'];
    expect(await readThrough(cutAfterEvents(streamOf(chunks), 3))).toEqual({
      text: 'data: 1\n\ndata: 2\n\n',
      broken: false,
    });
  });
});
