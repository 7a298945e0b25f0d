/**
 * Passes the service's answer body to the browser chunk by chunk, reading from the service only
 * when the browser asks for more, so nothing is buffered and a stream's events and keep-alives go
 * out as they come (docs/protocol.md, "The server proxy").
 */

/** Why the page stopped reading before the body's end. */
export type PageLeaving = 'cancelled' | 'idle';

/** What the relay tells its owner. */
export interface RelayHooks {
  /** Called before each read from the service; the owner starts a stream's idle timer. */
  beforeRead(): void;
  /** Called after each read, whatever it gave; the owner stops the idle timer. */
  afterRead(): void;
  /** Called once when the service's body ended or failed, and the page was given that end. */
  finished(): void;
  /**
   * Called once when the page stopped reading before the body's end: it cancelled its body
   * (`cancelled`), or read nothing for `pageIdleTimeoutMs` (`idle`; its body then fails, so it sees
   * a cut stream, never one that looks complete). `rest` is the rest of the service's body, unread:
   * the owner cancels it, aborting the service's request. This is the seam for a log of the
   * stream's messages, which would read the rest to its end here instead, for a page that comes
   * back.
   */
  pageLeft(rest: ReadableStreamDefaultReader<Uint8Array>, why: PageLeaving): void;
}

/** Options of {@link relayBody}. */
export interface RelayOptions {
  /**
   * How long the page may go without asking for the next chunk before it is cut off; no limit
   * when left out (the owner's deadline bounds the whole answer).
   */
  pageIdleTimeoutMs?: number | undefined;
}

/**
 * A body that reads `source` one chunk per pull of its reader. When `source` fails (the proxy
 * aborted the service's request on a deadline, or the network broke), the browser's body fails
 * too, so the browser sees a cut answer, never one that looks complete.
 */
export function relayBody(
  source: ReadableStream<Uint8Array>,
  hooks: RelayHooks,
  { pageIdleTimeoutMs }: RelayOptions = {},
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let done = false;
  let pageTimer: ReturnType<typeof setTimeout> | undefined;
  const stopPageTimer = (): void => {
    if (pageTimer !== undefined) clearTimeout(pageTimer);
    pageTimer = undefined;
  };
  const finish = (): void => {
    stopPageTimer();
    done = true;
    hooks.finished();
  };
  const pageLeft = (why: PageLeaving): void => {
    stopPageTimer();
    done = true;
    hooks.pageLeft(reader, why);
  };
  // The page's clock runs whenever the relay waits for it: from the start until its first pull,
  // and from each chunk handed over until its next pull.
  const startPageTimer = (page: ReadableStreamDefaultController<Uint8Array>): void => {
    if (pageIdleTimeoutMs === undefined || done) return;
    pageTimer = setTimeout(() => {
      page.error(new Error('The page read nothing of this answer for too long.'));
      pageLeft('idle');
    }, pageIdleTimeoutMs);
  };
  return new ReadableStream<Uint8Array>(
    {
      start: startPageTimer,
      async pull(controller) {
        stopPageTimer();
        hooks.beforeRead();
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          hooks.afterRead();
          if (done) return;
          finish();
          controller.error(error);
          return;
        }
        hooks.afterRead();
        // The page cancelled while the read was under way.
        if (done) return;
        if (chunk.done) {
          finish();
          controller.close();
        } else {
          controller.enqueue(chunk.value);
          startPageTimer(controller);
        }
      },
      cancel() {
        if (!done) pageLeft('cancelled');
      },
    },
    // No queue of our own: a chunk is read from the service only when the browser wants one.
    { highWaterMark: 0 },
  );
}
