/**
 * The two reads of resumable streams (docs/protocol.md, "Resumable streams (0.4)"), served from an
 * {@link EventLog} the same way by the reference service and the proxy: one task's events after a
 * position (`GET …/<ID>/events`, `Last-Event-ID`), and the multiplexed read of a page's tasks
 * (`POST /workflows/events`). Each answer is either a refusal, which the caller writes as its
 * error body, or an event-stream body that reads the log only as fast as the page reads it, with
 * keep-alive comments while the log is silent.
 */
import * as z from 'zod/mini';
import { describeIssues } from '../protocol/describe-issues.js';
import { followRequestSchema, type FollowedTask } from '../protocol/follow-schemas.js';
import { EventLogError, type EventLog, type EventLogEntry, type EventLogKey } from './event-log.js';
import { formatServerSentEvent, KEEP_ALIVE_COMMENT } from './format-server-sent-event.js';
import { parsePosition } from './log-position.js';

/** Every `reason` a read is refused with (docs/protocol.md, "Resumable streams (0.4)"). */
export type ReadRefusalReason =
  | 'RESULT_NOT_FOUND'
  | 'EVENTS_EXPIRED'
  | 'EVENTS_UNAVAILABLE'
  | 'INVALID_HEADER'
  | 'INVALID_FOLLOW';

/** A read refused before any event: the caller answers it with the error body of its status. */
export interface ReadRefusal {
  /** The HTTP status. */
  status: 400 | 404 | 410 | 422 | 503;
  /** The error body's reason. */
  reason: ReadRefusalReason;
  /** The error body's message. */
  message: string;
}

/**
 * A read's answer: its event-stream body; `ended` when the reader already has the task's final
 * message (answered 204); or its refusal.
 */
export type ReadAnswer =
  { body: ReadableStream<Uint8Array> } | { ended: true } | { refusal: ReadRefusal };

/** How a read is served. */
export interface ReadOptions {
  /** The longest silence before a keep-alive comment, in milliseconds. */
  keepAliveMs: number;
  /** Ends the read: the page went away, or the server closes. */
  signal: AbortSignal;
}

/** The headers of a read's event stream. */
export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
});

const NOT_FOUND: ReadRefusal = {
  status: 404,
  reason: 'RESULT_NOT_FOUND',
  message: 'No result with that id for this task.',
};
const EXPIRED: ReadRefusal = {
  status: 410,
  reason: 'EVENTS_EXPIRED',
  message: "The task's messages after this position are no longer kept; read it with Get Result.",
};
const UNAVAILABLE: ReadRefusal = {
  status: 503,
  reason: 'EVENTS_UNAVAILABLE',
  message: "The task's messages could not be read; read it with Get Result.",
};

/**
 * The answer of a read: its event stream (with `headers`), 204 when the reader has the final
 * message already, or its refusal with the error body (docs/protocol.md, "Error bodies").
 */
export function readResponse(answer: ReadAnswer, headers: Record<string, string> = {}): Response {
  if ('refusal' in answer) {
    const { status, reason, message } = answer.refusal;
    return new Response(JSON.stringify({ status: 'error', statusCode: status, reason, message }), {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
  // Nothing after the reader's position, and nothing will come: it has the final message.
  if ('ended' in answer) return new Response(null, { status: 204, headers });
  return new Response(answer.body, {
    status: 200,
    headers: { ...EVENT_STREAM_HEADERS, ...headers },
  });
}

/** The refusal of a failed read: `expired` is 410, anything else (the store failed) 503. */
function refusalOf(error: unknown): ReadRefusal {
  return error instanceof EventLogError && error.kind === 'expired' ? EXPIRED : UNAVAILABLE;
}

/**
 * How long a read gathers messages after a write before it writes again, in milliseconds: one
 * frame. A page shows a stream at most once per frame, so a message held this long shows no later,
 * and a read of 50 busy tasks writes about 60 chunks a second instead of one per message: that many
 * fewer socket writes on the server and tasks on the page (docs/protocol.md, "Resumable streams
 * (0.4)"). A page waiting for a task's first message is not made to wait: see {@link ReadChunk}.
 */
const READ_WRITE_EVERY_MS = 16;
/** The most text a read gathers into one write; past it, it writes at once. */
const MAX_WRITE_CHARS = 64 * 1024;

/** SSE text for a read to write. */
interface ReadChunk {
  text: string;
  /**
   * Written as soon as it comes, with what was gathered before it, never held for the frame: the
   * first messages of a task the page follows from its first message (it has started the task, or
   * attached to it), which it shows nothing of until they come.
   */
  atOnce: boolean;
}

/**
 * An event-stream body over `chunks`, pulled as the page reads, with a keep-alive comment whenever
 * the next chunk takes `keepAliveMs`; when `chunks` throws, the body fails (the page sees a cut
 * connection and reads again from its last position). A chunk that comes after a silence is written
 * at once; those that follow within {@link READ_WRITE_EVERY_MS} of a write are gathered and written
 * together when it has passed, or with the first one `atOnce`.
 */
function eventStreamBody(
  chunks: AsyncIterator<ReadChunk>,
  { keepAliveMs, controller: readController }: { keepAliveMs: number; controller: AbortController },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | undefined;
  // The chunk asked for and not yet written: a gathering that ran out of time leaves it for the
  // next write (an iterator's `next()` cannot be taken back), and a failure or the end waits in it.
  let asked: Promise<IteratorResult<ReadChunk>> | undefined;
  const nextChunk = () => (asked ??= chunks.next());
  let lastWriteAt = -Infinity;
  const stop = () => {
    clearInterval(timer);
    readController.abort();
  };
  // Ticking at half the allowed silence and writing once a whole tick passed silently keeps
  // every silence within `keepAliveMs` (docs/protocol.md, "Streams").
  const tick = Math.max(1, keepAliveMs / 2);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let silentSince = Date.now();
        timer = setInterval(() => {
          // The second tick of a silence writes, with half a tick to spare for a late timer.
          if (Date.now() - silentSince < keepAliveMs - tick / 2) return;
          controller.enqueue(encoder.encode(KEEP_ALIVE_COMMENT));
          lastWriteAt = silentSince = Date.now();
        }, tick);
        let next: IteratorResult<ReadChunk>;
        try {
          next = await nextChunk();
        } catch (error) {
          stop();
          controller.error(error);
          return;
        } finally {
          clearInterval(timer);
        }
        if (next.done) {
          // A read ended by its signal (the page left, the server closes) is cut, never complete.
          const cut = readController.signal.aborted;
          stop();
          if (cut) controller.error(new Error('The read was ended before its final message.'));
          else controller.close();
          return;
        }
        asked = undefined;
        let text = next.value.text;
        // Right after a write, what comes within the frame goes with this chunk. A failure or the
        // end stays in `asked` for the next pull, after what was gathered is written.
        const wait = lastWriteAt + READ_WRITE_EVERY_MS - Date.now();
        if (wait > 0 && !next.value.atOnce) {
          let windowTimer: ReturnType<typeof setTimeout> | undefined;
          const windowEnd = new Promise<undefined>((resolve) => {
            windowTimer = setTimeout(() => resolve(undefined), wait);
          });
          try {
            while (text.length < MAX_WRITE_CHARS) {
              const more = await Promise.race([nextChunk(), windowEnd]).catch(() => undefined);
              if (more === undefined || more.done) break;
              asked = undefined;
              text += more.value.text;
              if (more.value.atOnce) break;
            }
          } finally {
            clearTimeout(windowTimer);
          }
        }
        lastWriteAt = Date.now();
        controller.enqueue(encoder.encode(text));
      },
      async cancel() {
        stop();
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/** A controller that aborts with `signal`, so a read can also be ended by its own body. */
function linkedController(signal: AbortSignal): AbortController {
  const controller = new AbortController();
  if (signal.aborted) controller.abort();
  else signal.addEventListener('abort', () => controller.abort(), { once: true });
  return controller;
}

/**
 * Answers one task's events read: its messages after `lastEventId` (from the first without one),
 * each with its position as the SSE `id:`, then the live ones, closed after the final one; `ended`
 * (204) when the log has ended and holds nothing after `lastEventId`. A
 * malformed `Last-Event-ID` is 400 `INVALID_HEADER`; a task `owner` cannot read (no log, another
 * user's) 404 `RESULT_NOT_FOUND`; a log past its limits 410 `EVENTS_EXPIRED`; a store that fails
 * 503 `EVENTS_UNAVAILABLE`.
 */
export async function answerEventsRead(
  log: EventLog,
  key: EventLogKey,
  owner: string,
  lastEventId: string | null,
  options: ReadOptions,
): Promise<ReadAnswer> {
  const after = lastEventId === null ? undefined : lastEventId.trim();
  if (after !== undefined && parsePosition(after) === undefined) {
    return {
      refusal: {
        status: 400,
        reason: 'INVALID_HEADER',
        message: 'The Last-Event-ID header is not a position of this service.',
      },
    };
  }
  const controller = linkedController(options.signal);
  let read;
  try {
    read = await log.read(key, owner, after, controller.signal);
  } catch (error) {
    return { refusal: refusalOf(error) };
  }
  if (read.status === 'not-found') return { refusal: NOT_FOUND };
  if (read.status === 'expired') return { refusal: EXPIRED };
  if (read.status === 'ended') return { ended: true };
  const chunks = textChunks(read.batches[Symbol.asyncIterator](), batchText);
  return { body: eventStreamBody(chunks, { keepAliveMs: options.keepAliveMs, controller }) };
}

/**
 * The answer of an events read whose entries come in batches from elsewhere than a read of the
 * log (the proxy's relay hands its own page what it appended): each batch goes out as one chunk of
 * SSE messages with their positions. `openBatches` gets the read's signal, which aborts when the
 * page leaves or `options.signal` does; an error it throws cuts the answer, as a failed read does.
 */
export function answerBatches(
  openBatches: (signal: AbortSignal) => AsyncIterator<readonly EventLogEntry[]>,
  options: ReadOptions,
): ReadAnswer {
  const controller = linkedController(options.signal);
  const chunks = textChunks(openBatches(controller.signal), batchText);
  return { body: eventStreamBody(chunks, { keepAliveMs: options.keepAliveMs, controller }) };
}

/** A batch of entries as SSE messages, each with its position as the `id:`. */
function batchText(batch: readonly EventLogEntry[]): string {
  let text = '';
  for (const entry of batch) text += formatServerSentEvent(entry.message, entry.position);
  return text;
}

/** The SSE text of each item of `items`, written by `text`, each gathered with the frame's others. */
function textChunks<Item>(
  items: AsyncIterator<Item>,
  text: (item: Item) => string,
): AsyncIterator<ReadChunk> {
  return {
    async next() {
      const next = await items.next();
      return next.done
        ? { done: true, value: undefined }
        : { done: false, value: { text: text(next.value), atOnce: false } };
    },
    async return() {
      await items.return?.();
      return { done: true, value: undefined };
    },
  };
}

/** The multiplexed read's message for a task's entry, its `message` written in as it is. */
function entryMessage({ task, id }: FollowedTask, entry: EventLogEntry): string {
  const head = `{"task":${JSON.stringify(task)},"id":${JSON.stringify(id)}`;
  return formatServerSentEvent(
    `${head},"position":${JSON.stringify(entry.position)},"message":${entry.message}}`,
  );
}

/** The multiplexed read's message for a task that cannot be read, with its error body. */
function errorMessage({ task, id }: FollowedTask, refusal: ReadRefusal): string {
  const error = {
    status: 'error',
    statusCode: refusal.status,
    reason: refusal.reason,
    message: refusal.message,
  };
  return formatServerSentEvent(JSON.stringify({ task, id, error }));
}

/** What the multiplexed read needs to know of the caller. */
export interface FollowOptions extends ReadOptions {
  /** Whether the caller serves a task of this name (the service's tasks, the proxy's allow-list). */
  isReadable(taskName: string): boolean;
}

/**
 * Answers the multiplexed read of `body` (the request's parsed JSON): a body that is not 1 to 100
 * distinct tasks is 422 `INVALID_FOLLOW`. Every followed task's messages come interleaved as they
 * are appended, each as `{ task, id, position, message }`; a task that cannot be read gets one
 * `{ task, id, error }` and nothing more; the answer closes once every task has ended.
 */
export function answerFollowRead(
  log: EventLog,
  body: unknown,
  owner: string,
  options: FollowOptions,
): ReadAnswer {
  const parsed = z.safeParse(followRequestSchema, body);
  if (!parsed.success) {
    return {
      refusal: {
        status: 422,
        reason: 'INVALID_FOLLOW',
        message: `The body must be { follow: [{ task, id, after }] }, 1 to 100 tasks: ${describeIssues(parsed.error.issues)}`,
      },
    };
  }
  const controller = linkedController(options.signal);
  const tasks = parsed.data.follow;
  // Each task is a source of SSE chunks, asked for one chunk at a time; the answer takes them in
  // the order they come. A queue, not a race of every source's promise per chunk: one promise per
  // chunk, however many tasks are followed.
  const sources = tasks.map((task) => taskChunks(log, task, owner, options, controller.signal));
  type Settled = { source: AsyncIterator<ReadChunk> } & (
    { result: IteratorResult<ReadChunk> } | { error: unknown }
  );
  const ready: Settled[] = [];
  let asking = 0;
  let wake: (() => void) | undefined;
  const settle = (settled: Settled) => {
    asking -= 1;
    ready.push(settled);
    wake?.();
  };
  const ask = (source: AsyncIterator<ReadChunk>) => {
    asking += 1;
    source.next().then(
      (result) => settle({ source, result }),
      (error: unknown) => settle({ source, error }),
    );
  };
  sources.forEach(ask);
  const chunks: AsyncIterator<ReadChunk> = {
    async next() {
      for (;;) {
        const first = ready.shift();
        if (first !== undefined) {
          if ('error' in first) throw first.error;
          if (first.result.done) continue;
          ask(first.source);
          return { done: false, value: first.result.value };
        }
        if (asking === 0) return { done: true, value: undefined };
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    },
    async return() {
      controller.abort();
      await Promise.all(sources.map((source) => source.return?.(undefined)));
      return { done: true, value: undefined };
    },
  };
  return { body: eventStreamBody(chunks, { keepAliveMs: options.keepAliveMs, controller }) };
}

/**
 * One followed task's chunks: its entries, or one error message; never a rejection. The first
 * chunk of a task followed from its first message goes out at once: the page shows nothing of
 * the task until it comes (docs/protocol.md, "Resumable streams (0.4)").
 */
async function* taskChunks(
  log: EventLog,
  task: FollowedTask,
  owner: string,
  options: FollowOptions,
  signal: AbortSignal,
): AsyncGenerator<ReadChunk> {
  let atOnce = task.after === null;
  const chunk = (text: string): ReadChunk => {
    const value = { text, atOnce };
    atOnce = false;
    return value;
  };
  const after = task.after ?? undefined;
  if (!options.isReadable(task.task) || (after !== undefined && !parsePosition(after))) {
    yield chunk(errorMessage(task, NOT_FOUND));
    return;
  }
  const key = { taskName: task.task, taskId: task.id };
  try {
    const read = await log.read(key, owner, after, signal);
    // A task whose final message the page already has is followed no further.
    if (read.status === 'ended') return;
    if (read.status !== 'ok') {
      yield chunk(errorMessage(task, read.status === 'expired' ? EXPIRED : NOT_FOUND));
      return;
    }
    for await (const batch of read.batches) {
      let text = '';
      for (const entry of batch) text += entryMessage(task, entry);
      yield chunk(text);
    }
  } catch (error) {
    if (!signal.aborted) yield chunk(errorMessage(task, refusalOf(error)));
  }
}
