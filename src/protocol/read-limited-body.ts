/**
 * The one reader of a whole body with a byte limit that holds while reading, for requests and
 * answers alike: the reference service and the server proxy read a request's body with it, the
 * client a JSON or error answer, and taskwire-check every answer it reads whole. A body longer than
 * the limit is read chunk by chunk and abandoned, its stream cancelled, as soon as it passes the
 * limit, so that nobody holds more than the limit plus one chunk. A body that breaks off while it is
 * read rejects with the stream's error; one still coming when `signal` aborts (a deadline, the
 * caller's abort) is cancelled at once, and rejects with the signal's reason.
 */

/** A body read up to a limit: all of its bytes, or the first `limit` of a longer one (`cut`). */
export interface CappedBody {
  /** The bytes read: the whole body, or its first `limit` bytes when it was longer. */
  bytes: Uint8Array<ArrayBuffer>;
  /** Whether the body was longer than the limit, and so was read no further. */
  cut: boolean;
}

/**
 * Reads `body` (an answer's or a request's; `null` reads as empty) up to `limit` bytes, unless
 * `signal` aborts first: a longer body is cancelled once it passes the limit, and its first `limit`
 * bytes come back marked `cut`.
 */
export async function readCappedBody(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  signal?: AbortSignal,
): Promise<CappedBody> {
  signal?.throwIfAborted();
  const reader = body?.getReader();
  // Cancelling ends the pending read (as if the body had ended), so the loop checks the signal. It
  // is not awaited: a body's source may take its time, and nothing more is read anyway.
  const stop = (): void => void reader?.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', stop);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    // To the end, or to the first chunk that passes the limit.
    while (reader !== undefined && size <= limit) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  const cut = size > limit;
  if (cut) stop();
  // The first `limit` bytes: all of them when the body was shorter. Copied here, not joined through
  // a Blob: Chromium's Blob.arrayBuffer() is a round trip through its blob store, which held a
  // price on screen for 29-66 ms behind 50 streams on a busy page.
  const bytes = new Uint8Array(Math.min(size, limit));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - at);
    bytes.set(part, at);
    at += part.length;
  }
  return { bytes, cut };
}

/** What reading a request's body gave: its bytes, or `too-large` when it passed the limit. */
export type LimitedBody =
  { outcome: 'read'; bytes: Uint8Array<ArrayBuffer> } | { outcome: 'too-large' };

/**
 * Reads all of `request`'s body, up to `limit` bytes, unless `signal` aborts first: a declared
 * `Content-Length` over the limit is refused before a byte is read.
 */
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
  const { bytes, cut } = await readCappedBody(request.body, limit, signal);
  return cut ? { outcome: 'too-large' } : { outcome: 'read', bytes };
}
