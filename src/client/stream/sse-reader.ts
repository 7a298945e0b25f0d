/**
 * The server-sent events reader of the stream path. Lines and fields are parsed by
 * `@microsoft/fetch-event-source`'s parser (`getLines` and `getMessages`, which follow the WHATWG
 * rules for CR, LF and CRLF in any chunking and decode UTF-8 per complete line); this file adds what
 * that parser leaves out: one leading BOM is stripped, messages without data (comments, keep-alives)
 * are skipped, one event's size is capped while it is still arriving, and messages are handed out in
 * batches, one batch per chunk read, so that a fast stream costs no promise per event here.
 *
 * The package's root exports only `fetchEventSource()`, which must never own our connection (it
 * re-sends the POST after every error). The parser lives in `lib/esm/parse.js`: a self-contained ES
 * module without imports. The package has no `exports` map, so the deep import resolves in bundlers
 * and in Node (which detects the module syntax since 20.19; the package declares no `type`).
 */
import { getLines, getMessages } from '@microsoft/fetch-event-source/lib/esm/parse.js';

/**
 * One message of an event stream that carried data: the parser's own message object, handed on
 * without a copy (its `event` and `retry` fields are not used by the contract).
 */
export interface ServerSentMessage {
  /** The `data:` lines of the message, joined by `\n`. */
  data: string;
  /** The message's `id:` line, or `''` when it had none. */
  id: string;
}

/** The default cap on one event's size: 16 MiB. */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

/** Thrown by the reader when one event grows past its cap; the client turns it into a `protocol` error. */
export class EventTooLargeError extends Error {
  override readonly name = 'EventTooLargeError';
  /** The cap that was exceeded, in bytes. */
  readonly maxEventBytes: number;

  constructor(maxEventBytes: number) {
    super(`A stream event is larger than ${maxEventBytes} bytes.`);
    this.maxEventBytes = maxEventBytes;
  }
}

/** Options of {@link createEventStreamReader}. */
export interface EventStreamReaderOptions {
  /** The largest event accepted, in bytes of its lines (line ends not counted). Defaults to 16 MiB. */
  maxEventBytes?: number;
  /** Called for every chunk received, comments and keep-alives included (the idle watchdog's tick). */
  onChunk?: () => void;
}

/** A pull reader over an event stream body. */
export interface EventStreamReader {
  /**
   * The messages completed by the next chunk (at least one), or `undefined` once the body has ended.
   * A message whose blank line never arrived before the end is not a message. Rejects with
   * {@link EventTooLargeError} or with the body's own error.
   */
  read(): Promise<ServerSentMessage[] | undefined>;
  /** Cancels the body (closing the connection); never rejects. */
  cancel(reason?: unknown): Promise<void>;
}

const LINE_FEED = 10;
const CARRIAGE_RETURN = 13;
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf] as const;

function noop(): void {}

/** Creates a reader over `body`, a stream of bytes in the `text/event-stream` format. */
export function createEventStreamReader(
  body: ReadableStream<Uint8Array>,
  options: EventStreamReaderOptions = {},
): EventStreamReader {
  const maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  const reader = body.getReader();
  let batch: ServerSentMessage[] = [];
  // Bytes of the complete lines of the message being read, and of the line not yet ended: together
  // they bound what the parser holds, so a huge or endless event is refused before it is all in memory.
  let messageBytes = 0;
  let openLineBytes = 0;
  // The first bytes, held until it is known whether they start with a BOM (it may arrive split).
  let head: Uint8Array | undefined = new Uint8Array(0);
  let cancelled = false;

  const onField = getMessages(noop, noop, (message) => {
    // The parser dispatches every blank line, also after a comment; only data makes an event.
    if (message.data !== '') batch.push(message);
  });
  const onChunk = getLines((line, fieldLength) => {
    if (line.length === 0) {
      messageBytes = 0;
    } else {
      messageBytes += line.length;
      if (messageBytes > maxEventBytes) throw new EventTooLargeError(maxEventBytes);
    }
    onField(line, fieldLength);
  });

  function stripByteOrderMark(chunk: Uint8Array): Uint8Array | undefined {
    if (head === undefined) return chunk;
    let bytes = chunk;
    if (head.length > 0) {
      bytes = new Uint8Array(head.length + chunk.length);
      bytes.set(head);
      bytes.set(chunk, head.length);
    }
    const compared = Math.min(BYTE_ORDER_MARK.length, bytes.length);
    for (let index = 0; index < compared; index++) {
      if (bytes[index] !== BYTE_ORDER_MARK[index]) {
        head = undefined;
        return bytes;
      }
    }
    if (bytes.length < BYTE_ORDER_MARK.length) {
      head = bytes;
      return undefined;
    }
    head = undefined;
    return bytes.subarray(BYTE_ORDER_MARK.length);
  }

  // Bytes after the last line end wait here until their line ends, so that the parser is only ever
  // given whole lines: it joins whatever it still holds to each chunk it is given, which copies every
  // chunk that follows a split line, and is quadratic for one long event arriving in many chunks.
  // Here only the split line's own bytes are joined. Each line is checked against the cap as the
  // parser reports it.
  let held: Uint8Array[] = [];
  let heldBytes = 0;

  function feed(chunk: Uint8Array): void {
    let lastLineEnd = chunk.length - 1;
    while (
      lastLineEnd >= 0 &&
      chunk[lastLineEnd] !== LINE_FEED &&
      chunk[lastLineEnd] !== CARRIAGE_RETURN
    ) {
      lastLineEnd--;
    }
    if (lastLineEnd < 0) {
      openLineBytes += chunk.length;
      // Checked before the bytes are kept, so an endless line is refused near the cap.
      if (messageBytes + openLineBytes > maxEventBytes) throw new EventTooLargeError(maxEventBytes);
      held.push(chunk);
      heldBytes += chunk.length;
      return;
    }
    let start = 0;
    if (held.length > 0) {
      let firstLineEnd = 0;
      while (chunk[firstLineEnd] !== LINE_FEED && chunk[firstLineEnd] !== CARRIAGE_RETURN) {
        firstLineEnd++;
      }
      start = firstLineEnd + 1;
      const line = new Uint8Array(heldBytes + start);
      let offset = 0;
      for (const part of held) {
        line.set(part, offset);
        offset += part.length;
      }
      line.set(chunk.subarray(0, start), offset);
      held = [];
      heldBytes = 0;
      onChunk(line);
    }
    if (start <= lastLineEnd) {
      onChunk(
        start === 0 && lastLineEnd === chunk.length - 1
          ? chunk
          : chunk.subarray(start, lastLineEnd + 1),
      );
    }
    openLineBytes = chunk.length - 1 - lastLineEnd;
    if (openLineBytes > 0) {
      held.push(chunk.subarray(lastLineEnd + 1));
      heldBytes = openLineBytes;
    }
    if (messageBytes + openLineBytes > maxEventBytes) throw new EventTooLargeError(maxEventBytes);
  }

  return {
    async read() {
      for (;;) {
        const result = await reader.read();
        if (result.done || cancelled) return undefined;
        options.onChunk?.();
        const chunk = stripByteOrderMark(result.value);
        if (chunk === undefined || chunk.length === 0) continue;
        feed(chunk);
        if (batch.length > 0) {
          const messages = batch;
          batch = [];
          return messages;
        }
      }
    },
    async cancel(reason) {
      if (cancelled) return;
      cancelled = true;
      try {
        await reader.cancel(reason);
      } catch {
        // A body that already failed cannot be cancelled; the connection is gone either way.
      }
    },
  };
}

/**
 * Reads every data message of an event stream body, one batch per chunk, without validating
 * anything. Used by the benchmark to measure the reader alone.
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  options: EventStreamReaderOptions = {},
): AsyncGenerator<ServerSentMessage[], void, undefined> {
  const reader = createEventStreamReader(body, options);
  try {
    for (;;) {
      const messages = await reader.read();
      if (messages === undefined) return;
      yield messages;
    }
  } finally {
    await reader.cancel();
  }
}
