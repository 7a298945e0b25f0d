/**
 * A transport fault, not a mock: the service's real answer is passed through byte for byte, but
 * its body breaks (a network error) once `offset` bytes went through, as a connection dropped at
 * that byte would. The seeded fault seam of the events read cuts at random offsets with it.
 */
export function cutBodyAt(response: Response, offset: number): Response {
  if (!response.body) return response;
  const reader = response.body.getReader();
  let passed = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (passed >= offset) {
        await reader.cancel();
        controller.error(new TypeError('terminated: other side closed'));
        return;
      }
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      const room = offset - passed;
      passed += Math.min(room, value.length);
      controller.enqueue(value.length > room ? value.subarray(0, room) : value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

/** A seeded pseudo-random generator (mulberry32): the same seed gives the same cuts. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
