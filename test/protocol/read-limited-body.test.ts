import { describe, expect, it } from 'vitest';
import { readCappedBody, readLimitedBody } from '../../src/protocol/read-limited-body.js';

const encoder = new TextEncoder();

/** A body that gives `parts` as its chunks, and notes whether it was cancelled. */
function chunkedBody(parts: string[]) {
  let cancelled = false;
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < parts.length) controller.enqueue(encoder.encode(parts[next++]));
      else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { body, cancelled: () => cancelled, read: () => next };
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('readCappedBody', () => {
  it('reads a body within its limit whole, across chunks', async () => {
    const { body } = chunkedBody(['{"a":', '1,"b"', ':2}']);
    const read = await readCappedBody(body, 100);
    expect(text(read.bytes)).toBe('{"a":1,"b":2}');
    expect(read.cut).toBe(false);
  });

  it('reads a body exactly as long as its limit whole', async () => {
    const { body } = chunkedBody(['12345', '67890']);
    const read = await readCappedBody(body, 10);
    expect(text(read.bytes)).toBe('1234567890');
    expect(read.cut).toBe(false);
  });

  it('gives the first limit bytes of a longer body, cut inside a chunk, and reads no further', async () => {
    const { body, cancelled, read: chunksRead } = chunkedBody(['1234', '5678', '90ab', 'cdef']);
    const read = await readCappedBody(body, 6);
    expect(text(read.bytes)).toBe('123456');
    expect(read.bytes.byteLength).toBe(6);
    expect(read.cut).toBe(true);
    expect(cancelled()).toBe(true);
    expect(chunksRead()).toBe(2);
  });

  it('reads no body as empty', async () => {
    const read = await readCappedBody(null, 10);
    expect(read.bytes.byteLength).toBe(0);
    expect(read.cut).toBe(false);
  });

  it('rejects with the signal’s reason when it aborts while the body still comes', async () => {
    const controller = new AbortController();
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(stream) {
        stream.enqueue(encoder.encode('part'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const reading = readCappedBody(body, 100, controller.signal);
    const reason = new Error('deadline');
    controller.abort(reason);
    await expect(reading).rejects.toBe(reason);
    expect(cancelled).toBe(true);
  });
});

describe('readLimitedBody', () => {
  it('refuses a declared Content-Length over the limit before reading a byte', async () => {
    const { body, read } = chunkedBody(['x'.repeat(20)]);
    const request = new Request('http://localhost/', {
      method: 'POST',
      body,
      headers: { 'content-length': '20' },
      duplex: 'half',
    } as RequestInit);
    expect(await readLimitedBody(request, 10)).toEqual({ outcome: 'too-large' });
    expect(read()).toBe(0);
  });

  it('refuses a body that passes the limit while it is read', async () => {
    const { body } = chunkedBody(['x'.repeat(8), 'x'.repeat(8)]);
    const request = new Request('http://localhost/', {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit);
    expect(await readLimitedBody(request, 10)).toEqual({ outcome: 'too-large' });
  });

  it('gives the bytes of a body within the limit', async () => {
    const request = new Request('http://localhost/', { method: 'POST', body: '{"ok":true}' });
    const read = await readLimitedBody(request, 100);
    expect(read.outcome === 'read' && text(read.bytes)).toBe('{"ok":true}');
  });
});
