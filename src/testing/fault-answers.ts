/**
 * What a fault of `withFaults` answers: the service's error body for a status, the network error of
 * a lost answer, and a stream body that breaks after a number of events. Each is what a real
 * service or a real connection would give, so the client under test cannot tell them apart.
 */
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

/** The bytes the event counter looks at; UTF-8 never uses them inside a multi-byte character. */
const LF = 0x0a;
const CR = 0x0d;
const DATA = [...'data'].map((char) => char.charCodeAt(0));
const COLON = 0x3a;

/**
 * Counts the events of an event stream as its bytes go by (docs/protocol.md, "Streams"): a message
 * ends at a blank line and is an event when one of its lines is a `data` field; a comment
 * (`: keep-alive`) is none. Lines may end in LF, CR or CRLF.
 */
class EventCounter {
  events = 0;
  /** The first bytes of the current line, enough to tell a `data` field. */
  private line: number[] = [];
  private lineLength = 0;
  private hasData = false;
  private afterCarriageReturn = false;

  /** How many bytes of `chunk` go through before the `limit`-th event is complete, or `undefined` for all. */
  cutPoint(chunk: Uint8Array, limit: number): number | undefined {
    for (let index = 0; index < chunk.length; index += 1) {
      const byte = chunk[index] as number;
      if (byte === LF && this.afterCarriageReturn) {
        this.afterCarriageReturn = false;
        continue;
      }
      this.afterCarriageReturn = byte === CR;
      if (byte !== LF && byte !== CR) {
        if (this.line.length < 5) this.line.push(byte);
        this.lineLength += 1;
        continue;
      }
      if (this.lineLength === 0) {
        if (this.hasData) this.events += 1;
        this.hasData = false;
        if (this.events >= limit) {
          // A CRLF blank line goes out whole.
          return byte === CR && chunk[index + 1] === LF ? index + 2 : index + 1;
        }
      } else if (
        DATA.every((code, at) => this.line[at] === code) &&
        (this.lineLength === 4 || this.line[4] === COLON)
      ) {
        this.hasData = true;
      }
      this.line = [];
      this.lineLength = 0;
    }
    return undefined;
  }
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
  const counter = new EventCounter();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // The break comes on the read after the last event, so that the event is not dropped from
        // the queue with it.
        if (counter.events >= limit) {
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
