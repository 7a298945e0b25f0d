/**
 * Reads a stream's body as the client does (docs/protocol.md, "Streams"), with the client's own
 * reader of event streams (src/protocol/event-stream-reader.ts): each message's data and `id:`, each
 * comment, and when every chunk arrived, so the checks can see the events, their ids, the silences
 * and what came after the final event.
 */
import { createEventStreamParser } from '../protocol/event-stream-reader.js';

/** Two line ends in a row (CRLF, CR or LF each), which end a message. */
const BLANK_LINE = /(?:\r\n|\r(?!\n)|\n)(?:\r\n|\r(?!\n)|\n)/g;

/** One message: its data (its `data:` lines joined), its `id:`, and when its blank line arrived. */
export interface CapturedMessage {
  data: string;
  id: string | undefined;
  at: number;
}

/** One comment line (`: keep-alive`). */
export interface CapturedComment {
  text: string;
  at: number;
}

/** What a stream's body held. */
export interface CapturedStream {
  messages: CapturedMessage[];
  comments: CapturedComment[];
  /** When the answer's headers came, then each chunk of the body. */
  openedAt: number;
  chunkTimes: number[];
  /**
   * How the reading ended: the body closed, stayed open after the final event, broke off, took
   * longer than allowed, or passed `maxBytes` (and was read no further).
   */
  end: 'closed' | 'still-open' | 'broke' | 'time-limit' | 'too-large';
  /** How many bytes of the body were read. */
  bytes: number;
  /** How many characters came after the last line end: a line still open when the reading ended. */
  openLine: number;
  /** When the body closed, broke or was given up. */
  endedAt: number;
  /** When the first final event (`task.completed` / `task.failed`) arrived. */
  finalAt?: number;
  /** Whether the body ended inside a message, with no blank line after it. */
  unterminated: boolean;
  /** How many `data:` lines came after the last blank line: a message, or several, never ended. */
  unendedDataLines: number;
}

/** When to stop reading. */
export interface CaptureLimits {
  /** After the final event, how long to wait for the body to close. */
  closeWithinMs: number;
  /** Give up after this long in all. */
  maxDurationMs: number;
  /** Read no more than this many bytes, so a body that never ends holds no more memory. */
  maxBytes: number;
  /** Aborts the reading. */
  signal?: AbortSignal;
}

/** The `type` of a message's data, when its data is a JSON object with a string `type`. */
export function typeOf(message: CapturedMessage): string | undefined {
  try {
    const value: unknown = JSON.parse(message.data);
    return typeof value === 'object' && value !== null && 'type' in value
      ? typeof value.type === 'string'
        ? value.type
        : undefined
      : undefined;
  } catch {
    return undefined;
  }
}

/** Reads `body` until it closes, or the limits say stop, then cancels it. */
export async function captureEventStream(
  body: ReadableStream<Uint8Array>,
  limits: CaptureLimits,
): Promise<CapturedStream> {
  const openedAt = performance.now();
  const captured: CapturedStream = {
    messages: [],
    comments: [],
    openedAt,
    chunkTimes: [],
    end: 'closed',
    bytes: 0,
    openLine: 0,
    endedAt: openedAt,
    unterminated: false,
    unendedDataLines: 0,
  };
  // The text since the last blank line, to tell at the end whether a message was cut off.
  let tail = '';
  const parser = createEventStreamParser({
    onMessage(event) {
      const message = { data: event.data, id: event.id, at: performance.now() };
      captured.messages.push(message);
      const type = typeOf(message);
      if (captured.finalAt === undefined && (type === 'task.completed' || type === 'task.failed'))
        captured.finalAt = message.at;
    },
    onComment(comment) {
      captured.comments.push({ text: comment.trim(), at: performance.now() });
    },
    onText(text) {
      tail += text;
      let end = -1;
      for (const match of tail.matchAll(BLANK_LINE)) end = match.index + match[0].length;
      if (end >= 0) tail = tail.slice(end);
    },
  });

  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopReason: CapturedStream['end'] | undefined;
  const stop = (reason: CapturedStream['end']) => {
    stopReason ??= reason;
    void reader.cancel().catch(() => undefined);
  };
  const arm = (ms: number, reason: CapturedStream['end']) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => stop(reason), Math.max(0, ms));
  };
  arm(limits.maxDurationMs, 'time-limit');
  const onAbort = () => stop('time-limit');
  limits.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      captured.chunkTimes.push(performance.now());
      const hadFinal = captured.finalAt !== undefined;
      const room = limits.maxBytes - captured.bytes;
      captured.bytes += value.byteLength;
      parser.feed(value.subarray(0, Math.max(0, room)));
      if (captured.bytes > limits.maxBytes) {
        stop('too-large');
        break;
      }
      if (!hadFinal && captured.finalAt !== undefined) arm(limits.closeWithinMs, 'still-open');
    }
    captured.end = stopReason ?? 'closed';
  } catch {
    captured.end = stopReason ?? 'broke';
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    limits.signal?.removeEventListener('abort', onAbort);
  }
  captured.endedAt = performance.now();
  captured.openLine = tail.length - Math.max(tail.lastIndexOf('\n'), tail.lastIndexOf('\r')) - 1;
  if (captured.end === 'too-large') return captured;
  // A body that ends in CR leaves the parser waiting for a possible LF: the reader ends that line.
  parser.end();
  // Left over: lines that no blank line ended, comments aside.
  const left = tail.split(/\r\n|\r|\n/);
  captured.unterminated = left.some((line) => line !== '' && !line.startsWith(':'));
  captured.unendedDataLines = left.filter((line) => /^data(:|$)/.test(line)).length;
  return captured;
}
