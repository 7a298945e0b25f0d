/**
 * Reads a request body with a byte limit that holds while reading: a declared `Content-Length` over
 * the limit is refused before a byte is read, and a body without one (chunked) is read chunk by
 * chunk and abandoned, its stream cancelled, as soon as it passes the limit. So a client cannot make
 * the service hold more than the limit plus one chunk.
 */
import { ServiceError } from './service-error.js';

function tooLarge(limit: number): ServiceError {
  return new ServiceError(413, 'PAYLOAD_TOO_LARGE', `The body is larger than ${limit} bytes.`);
}

/** Reads all of `request`'s body, up to `limit` bytes; throws a 413 {@link ServiceError} past it. */
export async function readLimitedBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) {
    // Cancelling tells the transport we will not read it; the error is ignored since the answer is
    // the same either way.
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge(limit);
  }
  const body = request.body;
  if (body === null) return new Uint8Array(0);
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
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
