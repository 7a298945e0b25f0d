/**
 * Reads a request body with a byte limit that holds while reading, for the reference service and
 * the server proxy alike: a declared `Content-Length` over the limit is refused before a byte is
 * read, and a body without one (chunked) is read chunk by chunk and abandoned, its stream
 * cancelled, as soon as it passes the limit. So a client cannot make either hold more than the
 * limit plus one chunk. A body that breaks off while it is read rejects with the stream's error; one
 * still coming when `signal` aborts (a deadline) is cancelled, and rejects with the signal's reason.
 */

/** What reading gave: the body's bytes, or `too-large` when it passed the limit. */
export type LimitedBody =
  { outcome: 'read'; bytes: Uint8Array<ArrayBuffer> } | { outcome: 'too-large' };

/** Reads all of `request`'s body, up to `limit` bytes, unless `signal` aborts first. */
export async function readLimitedBody(
  request: Request,
  limit: number,
  signal?: AbortSignal,
): Promise<LimitedBody> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) {
    // Cancelling tells the transport we will not read it; the error is ignored since the answer is
    // the same either way.
    await request.body?.cancel().catch(() => undefined);
    return { outcome: 'too-large' };
  }
  const body = request.body;
  if (body === null) return { outcome: 'read', bytes: new Uint8Array(0) };
  signal?.throwIfAborted();
  const reader = body.getReader();
  // Cancelling ends the pending read (as if the body had ended), so the loop checks the signal.
  const stop = (): void => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', stop, { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        return { outcome: 'too-large' };
      }
      chunks.push(value);
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    reader.releaseLock();
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { outcome: 'read', bytes };
}
