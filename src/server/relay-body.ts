/**
 * Passes the service's answer body to the browser chunk by chunk, reading from the service only
 * when the browser asks for more, so nothing is buffered and a stream's events and keep-alives go
 * out as they come (docs/protocol.md, "The server proxy").
 */

/** What the relay tells its owner. */
export interface RelayHooks {
  /** Called before each read from the service; the owner starts a stream's idle timer. */
  beforeRead(): void;
  /** Called after each read, whatever it gave; the owner stops the idle timer. */
  afterRead(): void;
  /** Called once when the body ended, failed or was cancelled by the browser. */
  finished(cancelled: boolean): void;
}

/**
 * A body that reads `source` one chunk per pull of its reader. When `source` fails (the proxy
 * aborted the service's request on a deadline, or the network broke), the browser's body fails
 * too, so the browser sees a cut answer, never one that looks complete.
 */
export function relayBody(
  source: ReadableStream<Uint8Array>,
  hooks: RelayHooks,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let finished = false;
  const finish = (cancelled: boolean): void => {
    if (finished) return;
    finished = true;
    hooks.finished(cancelled);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        hooks.beforeRead();
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          hooks.afterRead();
          finish(false);
          controller.error(error);
          return;
        }
        hooks.afterRead();
        if (chunk.done) {
          finish(false);
          controller.close();
        } else {
          controller.enqueue(chunk.value);
        }
      },
      async cancel(reason) {
        finish(true);
        await reader.cancel(reason).catch(() => undefined);
      },
    },
    // No queue of our own: a chunk is read from the service only when the browser wants one.
    { highWaterMark: 0 },
  );
}
