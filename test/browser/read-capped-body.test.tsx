// The capped body reader in a real Chromium, where a Blob's bytes come back from the browser's blob
// store a task later: the reader must not wait for that (test/protocol/read-limited-body.test.ts
// holds the rest of what it promises).
import { expect, it } from 'vitest';
import { readCappedBody } from '../../src/protocol/read-limited-body.js';

it('answers in the turn the body ends, not after a task of its own', async () => {
  const parts = ['a'.repeat(1000), 'b'.repeat(1000)];
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const part = parts.shift();
      if (part === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(part));
    },
  });
  let later = false;
  setTimeout(() => (later = true), 0);
  const read = await readCappedBody(body, 10_000);
  expect(read.bytes.byteLength).toBe(2000);
  expect(later).toBe(false);
});
