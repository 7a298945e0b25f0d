/**
 * A proxy without a log in front of a service that offers resumable streams passes its streams on
 * as a 0.3 service frames them (docs/protocol.md, "Resumable streams (0.4)"): it offers no reads,
 * so it must not say its `id:` lines are positions. Each message's `id:` line goes, a custom
 * event's `eventId` becomes its `id:` line again, and keep-alive comments pass as they came.
 */
import { createEventStreamParser } from '../protocol/event-stream-reader.js';
import { formatServerSentEvent } from '../events/format-server-sent-event.js';

/** The custom event's uuid of a message's data, when it has one. */
function eventIdOf(data: string): string | undefined {
  try {
    const event = JSON.parse(data) as { type?: unknown; eventId?: unknown };
    return typeof event.type === 'string' &&
      event.type.startsWith('event.') &&
      typeof event.eventId === 'string' &&
      !/[\r\n\0]/.test(event.eventId)
      ? event.eventId
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `body`, a resumable stream, framed as a stream that is not resumable: read with the one reader
 * of event streams (its cap on one event included), so that it reads the same messages as the
 * client and the relay into a log would.
 */
export function withPlainFraming(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let output: TransformStreamDefaultController<Uint8Array> | undefined;
  const write = (text: string) => output?.enqueue(encoder.encode(text));
  const parser = createEventStreamParser({
    onMessage: ({ data }) => write(formatServerSentEvent(data, eventIdOf(data))),
    onComment: (comment) => write(`: ${comment}\n\n`),
  });
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        output = controller;
        parser.feed(chunk);
      },
      flush(controller) {
        output = controller;
        parser.end();
      },
    }),
  );
}
