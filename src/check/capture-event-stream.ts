/**
 * Reads a stream's body as the wire has it (docs/protocol.md, "Streams"): each message with all its
 * fields, each comment, and when every chunk arrived, so the checks can see the framing, the ids,
 * the silences and what came after the final event. Lines are split by the same parser the
 * client's reader uses (`@microsoft/fetch-event-source`'s `getLines`: CR, LF and CRLF in any
 * chunking).
 */
import { getLines } from '@microsoft/fetch-event-source/lib/esm/parse.js';

/** One message: its fields in order, and when its blank line arrived. */
export interface CapturedMessage {
  fields: Array<[name: string, value: string]>;
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
  /** How the reading ended. */
  end: 'closed' | 'still-open' | 'broke' | 'time-limit';
  /** When the body closed, broke or was given up. */
  endedAt: number;
  /** When the first final event (`task.completed` / `task.failed`) arrived. */
  finalAt?: number;
  /** Bytes of a last message whose blank line never came. */
  unterminated: boolean;
}

/** When to stop reading. */
export interface CaptureLimits {
  /** After the final event, how long to wait for the body to close. */
  closeWithinMs: number;
  /** Give up after this long in all. */
  maxDurationMs: number;
  /** Aborts the reading. */
  signal?: AbortSignal;
}

/** The `type` of a message's data, when its data is a JSON object with a string `type`. */
export function typeOf(message: CapturedMessage): string | undefined {
  const data = dataOf(message);
  if (data === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null && 'type' in value
      ? typeof value.type === 'string'
        ? value.type
        : undefined
      : undefined;
  } catch {
    return undefined;
  }
}

/** A message's data lines joined by line feeds, as a reader joins them; undefined without any. */
export function dataOf(message: CapturedMessage): string | undefined {
  const lines = message.fields.filter(([name]) => name === 'data').map(([, value]) => value);
  return lines.length === 0 ? undefined : lines.join('\n');
}

/** A message's last `id:` value, or undefined. */
export function idOf(message: CapturedMessage): string | undefined {
  return message.fields.filter(([name]) => name === 'id').at(-1)?.[1];
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
    endedAt: openedAt,
    unterminated: false,
  };
  const decoder = new TextDecoder();
  let fields: CapturedMessage['fields'] = [];
  let first = true;
  const onChunk = getLines((line: Uint8Array, fieldLength: number) => {
    let text = decoder.decode(line);
    if (first) {
      text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    if (text === '') {
      if (fields.length > 0) {
        const message = { fields, at: performance.now() };
        captured.messages.push(message);
        const type = typeOf(message);
        if (captured.finalAt === undefined && (type === 'task.completed' || type === 'task.failed'))
          captured.finalAt = message.at;
      }
      fields = [];
    } else if (text.startsWith(':')) {
      captured.comments.push({ text: text.slice(1).trim(), at: performance.now() });
    } else {
      const colon = fieldLength < 0 ? text.length : text.indexOf(':');
      const name = text.slice(0, colon);
      let value = colon < text.length ? text.slice(colon + 1) : '';
      if (value.startsWith(' ')) value = value.slice(1);
      fields.push([name, value]);
    }
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
      onChunk(value);
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
  captured.unterminated = fields.length > 0;
  return captured;
}
