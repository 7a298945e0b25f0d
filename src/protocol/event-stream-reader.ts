/**
 * The one reader of event-stream bodies (docs/protocol.md, "Streams"): bytes decoded as streaming
 * UTF-8 and parsed by eventsource-parser into messages, with a cap on one event. Two faces over one
 * parser: {@link createEventStreamParser}, fed chunk by chunk, for those that own their read loop
 * (the server proxy's plain framing, taskwire-check's capture of a stream, the count of events
 * by which taskwire/testing cuts a stream), and
 * {@link createEventStreamReader}, a pull reader over a body, for the client's stream and events
 * reads and the server proxy's relay into its log.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** The default cap on one event's size: 16 MiB. */
const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

/** Thrown by the reader when one event grows past its cap; the stream turns it into a `protocol` error. */
export class EventTooLargeError extends Error {
  override readonly name = 'EventTooLargeError';

  constructor(maxEventBytes: number) {
    super(`A stream event is larger than ${maxEventBytes} bytes.`);
  }
}

/** Options of {@link createEventStreamParser}. */
export interface EventStreamParserOptions {
  /** Called for every message, in order; one with empty data (`data:` alone) included. */
  onMessage: (message: EventSourceMessage) => void;
  /** Called for every comment line (`: keep-alive`), its text without the colon. Defaults to none. */
  onComment?: ((comment: string) => void) | undefined;
  /**
   * Called with each piece of text as decoded, before it is parsed, for a reader that looks at the
   * framing itself (taskwire-check). Defaults to none.
   */
  onText?: ((text: string) => void) | undefined;
  /**
   * The largest event accepted: the most the parser may hold of an event that has not ended (its
   * data so far and a line not yet ended), and the longest data of an event, in characters (as
   * many as bytes for ASCII, never more). Defaults to 16 MiB.
   */
  maxEventBytes?: number | undefined;
}

/** A parser of event-stream bytes, fed as they arrive. */
export interface EventStreamParser {
  /**
   * Parses the next chunk of the body, calling `onMessage` for each message it completes. Throws
   * {@link EventTooLargeError} once an event passes the cap.
   */
  feed(chunk: Uint8Array): void;
  /** The body has ended: what the decoder held is parsed, and a CR at the very end ends its line. */
  end(): void;
}

/**
 * Creates a parser of a body in the `text/event-stream` format: the bytes decoded as streaming
 * UTF-8 (`TextDecoder`, which also drops one leading BOM, even split across chunks) and fed to
 * eventsource-parser, which follows the WHATWG rules for CR, LF and CRLF in any chunking and for
 * comments, and holds at most `maxEventBytes` characters of an event that has not ended yet (its
 * `maxBufferSize`); an event whose data is longer is refused too, however it was chunked.
 */
export function createEventStreamParser(options: EventStreamParserOptions): EventStreamParser {
  const maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  const decoder = new TextDecoder();
  let tooLarge = false;
  // A CR that ends a chunk may be half of a CRLF, so the parser waits for the next one; at the end
  // of the body it is a line end all the same.
  let endsWithCarriageReturn = false;
  const parser = createParser({
    maxBufferSize: maxEventBytes,
    onEvent(message) {
      if (message.data.length > maxEventBytes) tooLarge = true;
      else options.onMessage(message);
    },
    onComment: options.onComment,
    onError(error) {
      // Unknown fields and a bad `retry` are ignored, as the WHATWG rules say; only the cap stops.
      if (error.type === 'max-buffer-size-exceeded') tooLarge = true;
    },
  });
  /** Parses the next decoded text; at the `end` of the body, a CR it ended with ends its line. */
  const parse = (decoded: string, end = false): void => {
    if (decoded !== '') endsWithCarriageReturn = decoded.endsWith('\r');
    const text = end && endsWithCarriageReturn ? `${decoded}\n` : decoded;
    if (text === '') return;
    options.onText?.(text);
    parser.feed(text);
    if (tooLarge) throw new EventTooLargeError(maxEventBytes);
  };
  return {
    feed: (chunk) => parse(decoder.decode(chunk, { stream: true })),
    end: () => parse(decoder.decode(), true),
  };
}

/** Options of {@link createEventStreamReader}. */
interface EventStreamReaderOptions {
  /**
   * The largest event accepted: the most the parser may hold of an event that has not ended (its
   * data so far and a line not yet ended), and the longest data of an event, in characters (as
   * many as bytes for ASCII, never more). Defaults to 16 MiB.
   */
  maxEventBytes?: number | undefined;
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
  read(): Promise<EventSourceMessage[] | undefined>;
  /** Cancels the body (closing the connection); never rejects. */
  cancel(reason?: unknown): Promise<void>;
}

/**
 * Creates a reader over `body`, a stream of bytes in the `text/event-stream` format: the bytes
 * decoded as streaming UTF-8 (`TextDecoder`, which also drops one leading BOM, even split across
 * chunks) and fed to eventsource-parser, which follows the WHATWG rules for CR, LF and CRLF in any
 * chunking and for comments, and holds at most `maxEventBytes` characters of an event that has not
 * ended yet (its `maxBufferSize`); an event whose data is longer is refused too, however it was
 * chunked. Messages without data (comments, keep-alives) are skipped, and messages are handed out
 * in batches, one batch per chunk read, so that a fast stream costs no promise per event here.
 */
export function createEventStreamReader(
  body: ReadableStream<Uint8Array>,
  options: EventStreamReaderOptions = {},
): EventStreamReader {
  const reader = body.getReader();
  let batch: EventSourceMessage[] = [];
  let cancelled = false;
  let ended = false;
  const parser = createEventStreamParser({
    maxEventBytes: options.maxEventBytes,
    onMessage(message) {
      // `data:` with nothing after it makes an empty event, which carries no JSON to read.
      if (message.data !== '') batch.push(message);
    },
  });

  return {
    async read() {
      for (;;) {
        if (ended || cancelled) return undefined;
        const result = await reader.read();
        if (cancelled) return undefined;
        if (result.done) {
          ended = true;
          parser.end();
        } else {
          options.onChunk?.();
          parser.feed(result.value);
        }
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
