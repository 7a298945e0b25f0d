/**
 * Reads a request body up to the proxy's limit, and no further: a declared `Content-Length` over the
 * limit is refused before a byte is read, a body without one is abandoned (its stream cancelled) as
 * soon as it passes the limit (docs/protocol.md, "The server proxy").
 */

/** What reading gave: the bytes, or why there are none. */
export type BodyReading =
  | { outcome: 'read'; bytes: Uint8Array<ArrayBuffer> }
  | { outcome: 'too-large' }
  | { outcome: 'unreadable' };

/** Reads all of `request`'s body up to `limit` bytes. */
export async function readRequestBody(request: Request, limit: number): Promise<BodyReading> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\s*\d+\s*$/.test(declared) && Number(declared) > limit) {
    await request.body?.cancel().catch(() => undefined);
    return { outcome: 'too-large' };
  }
  const body = request.body;
  if (body === null) return { outcome: 'read', bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        return { outcome: 'too-large' };
      }
      chunks.push(value);
    }
  } catch {
    return { outcome: 'unreadable' };
  } finally {
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
