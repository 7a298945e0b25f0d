/**
 * What a fault of `withFaults` answers: the service's error body for a status, the network error of
 * a lost answer, and a stream body that breaks after a number of events. Each is what a real
 * service or a real connection would give, so the client under test cannot tell them apart.
 */
import { createEventStreamParser } from '../protocol/event-stream-reader.js';
import { jsonResponse } from '../reference/json-response.js';
import type { Endpoint } from '../protocol/match-route.js';
import type { ErrorReason } from '../reference/service-error.js';

/** The reason the reference service gives with each status (docs/protocol.md, "Error bodies"). */
const REASONS: Readonly<Record<number, ErrorReason>> = {
  400: 'MALFORMED_BODY',
  401: 'UNAUTHENTICATED',
  404: 'TASK_NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  410: 'RESULT_EXPIRED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'INVALID_PARAMS',
  429: 'RATE_LIMITED',
  504: 'EXECUTE_TIMEOUT',
};

/**
 * The error answer of `status` to a request of `endpoint` (docs/protocol.md, "Error bodies"), with
 * `reason` (by default the service's for that status, else `INTERNAL`) and `Retry-After` when
 * given, and the CORS headers the service sends, so that a page on another origin can read it.
 */
export function errorAnswer(
  endpoint: Endpoint,
  status: number,
  reason?: string,
  retryAfter?: number,
): Response {
  const chosen =
    reason ??
    (status === 404 && endpoint === 'result' ? 'RESULT_NOT_FOUND' : REASONS[status]) ??
    'INTERNAL';
  const body = {
    status: 'error',
    statusCode: status,
    reason: chosen,
    message: `withFaults answered ${status} ${chosen} without serving the request.`,
  };
  return jsonResponse(status, body, {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'x-task-id, location, retry-after',
    ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }),
  });
}

/** The error `fetch` rejects with when a connection is lost, as undici's `fetch` words it. */
export function networkError(): TypeError {
  return new TypeError('fetch failed');
}

/** The line ends; UTF-8 never uses their bytes inside a multi-byte character. */
const LF = 0x0a;
const CR = 0x0d;
const LINE_END = Uint8Array.of(LF);

/**
 * Counts the events of an event stream as its bytes go by, with the one reader of event streams
 * (docs/protocol.md, "Streams"), so that what counts as an event here is what the client reads as
 * one: a message with a `data` field (a comment such as `: keep-alive` is none). The bytes are fed
 * to it line by line, each line end (LF, CR or CRLF) as an LF, so that it completes an event at the
 * very byte that ends it, and `cutPoint` can say where.
 */
function eventCounter() {
  let events = 0;
  // Whether the last line ended with a CR, whose LF (if one comes next) is part of that line end.
  let afterCarriageReturn = false;
  const parser = createEventStreamParser({
    onMessage: () => (events += 1),
    // Only counted: the client under test is the one that refuses an event too large.
    maxEventBytes: Infinity,
  });
  return {
    /** How many events have gone by. */
    events: () => events,
    /**
     * How many bytes of `chunk` go through before the `limit`-th event is complete (a CRLF blank
     * line whole), or `undefined` for all.
     */
    cutPoint(chunk: Uint8Array, limit: number): number | undefined {
      let start = 0;
      for (let index = 0; index < chunk.length; index += 1) {
        const byte = chunk[index];
        if (byte !== LF && byte !== CR) continue;
        if (byte === LF && afterCarriageReturn && index === start) {
          afterCarriageReturn = false;
          start = index + 1;
          continue;
        }
        parser.feed(chunk.subarray(start, index));
        parser.feed(LINE_END);
        afterCarriageReturn = byte === CR;
        start = index + 1;
        if (events >= limit) return byte === CR && chunk[start] === LF ? start + 1 : start;
      }
      if (start < chunk.length) afterCarriageReturn = false;
      parser.feed(chunk.subarray(start));
      return undefined;
    },
  };
}

/**
 * `response` with its event stream cut: exactly `limit` events (comments not counted) go through,
 * then the body fails as a broken connection does, and the service's stream is cancelled. An answer
 * that is no event stream (a JSON error) passes unchanged; a stream that ends first ends as it would.
 */
export function cutAfterEvents(response: Response, limit: number): Response {
  const contentType = response.headers.get('content-type') ?? '';
  if (response.body === null || !contentType.startsWith('text/event-stream')) return response;
  const reader = response.body.getReader();
  const counter = eventCounter();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // The break comes on the read after the last event, so that the event is not dropped from
        // the queue with it.
        if (counter.events() >= limit) {
          await reader.cancel();
          controller.error(new TypeError('terminated: other side closed'));
          return;
        }
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        const cut = counter.cutPoint(value, limit);
        if (cut === undefined) controller.enqueue(value);
        else if (cut > 0) controller.enqueue(value.subarray(0, cut));
      },
      cancel: (reason) => reader.cancel(reason),
      // No read ahead: pull runs only when the reader downstream asks for more, so the break is
      // not written before that reader has the last event (msw's clone of the answer in Node
      // dropped it from its queue otherwise). Through a service worker the page's fetch still
      // throws away what it has not read when the body fails, so there taskwireHandlers passes
      // the break on as the end of the body.
    },
    new CountQueuingStrategy({ highWaterMark: 0 }),
  );
  return new Response(body, { status: response.status, headers: response.headers });
}
