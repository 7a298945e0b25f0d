/**
 * The stream, read raw since its wire is what is checked (docs/protocol.md, "Streams"): the answer's
 * headers, `x-task-id` and the record it names, the framing of every message, the custom events'
 * ids against Get Result's list, the final event and the close, the keep-alives of a silent task,
 * and a refusal before the start answered as JSON.
 */
import {
  captureEventStream,
  typeOf,
  type CapturedMessage,
  type CapturedStream,
} from './capture-event-stream.js';
import { describeAnswer, type Answer, type CheckRun } from './check-run.js';
import { MAX_CAPTURED_BYTES, readText, TOO_LARGE } from './read-text.js';
import { offersResumableStreams } from '../protocol/resumable-streams.js';
import { isTaskId } from '../protocol/names.js';
import { isJsonAnswer, isJsonObject, reasonOf, shapeProblem } from './answer-checks.js';
import {
  failedEventSchema,
  partialResultEventSchema,
  progressEventSchema,
} from '../protocol/stream-event-schemas.js';
import { jsonObjectSchema } from '../protocol/records.js';
import { usageShapeSchema } from '../protocol/usage.js';
import * as z from 'zod/mini';
import { recordProblem, type SeenUsage } from './task-checks.js';
import type { OutcomeUsage } from './outcome-checks.js';
import { UNKNOWN_TASK } from './refusal-checks.js';
import type { Exchange } from './recorder.js';
import { excerpt, seconds } from './shown-text.js';

/** `task.completed`, its usage's sums left to `usage.arithmetic`. */
const completedShapeSchema = z.object({
  type: z.literal('task.completed'),
  result: z.nullable(jsonObjectSchema),
  usage: z.optional(usageShapeSchema),
});

const KNOWN_EVENTS: Record<string, z.ZodMiniType> = {
  'task.progress': progressEventSchema,
  'task.partial-result': partialResultEventSchema,
  'task.completed': completedShapeSchema,
  'task.failed': failedEventSchema,
};

/** A fifth more than the keep-alive period, for the network and the service's timers. */
const KEEP_ALIVE_GRACE = 1.2;

const STREAM_CHECKS = [
  'stream.task-id',
  'stream.framing',
  'stream.event-ids',
  'stream.final-event',
  'stream.live',
] as const;

/** Messages that came within this many milliseconds of one another came in one burst. */
const BURST_MS = 50;
/** A final event this long after the request, or longer, ended a task that took noticeable time. */
const NOTICEABLE_MS = 500;

/** The exchange `CheckRun.open` attaches to the error it rejects with. */
export function exchangeOf(error: unknown): { exchange?: Exchange } {
  const exchange = (error as { exchange?: Exchange } | undefined)?.exchange;
  return exchange ? { exchange } : {};
}

/** The stream checks of the checked task (all but the keep-alive). */
export async function checkStream(
  run: CheckRun,
  usages: SeenUsage[],
  outcomeUsages: OutcomeUsage[],
): Promise<void> {
  const spec = {
    method: 'POST',
    path: run.taskPath('stream'),
    body: { params: run.options.params },
  } as const;
  let opened: { exchange: Exchange; response: Response };
  const sentAt = performance.now();
  try {
    opened = await run.open(spec);
  } catch (error) {
    run.fail('stream.headers', {
      expected: '200 text/event-stream',
      observed: `no answer: ${error instanceof Error ? error.message : String(error)}`,
      ...exchangeOf(error),
    });
    for (const check of STREAM_CHECKS) run.skip(check, 'needs a stream (see stream.headers)');
    return;
  }
  const { exchange, response } = opened;
  const type = response.headers.get('content-type') ?? '';
  const cache = response.headers.get('cache-control') ?? '';
  if (response.status !== 200 || response.body === null) {
    const { text } = await readText(response).catch(() => ({ text: '' }));
    run.fail('stream.headers', {
      expected: '200 text/event-stream',
      observed: `${response.status}${type ? ` (${type})` : ''} ${excerpt(text, 300, run.secrets)}`,
      exchange,
    });
    for (const check of STREAM_CHECKS) run.skip(check, 'needs a stream (see stream.headers)');
    return;
  }
  const mediaType = type.split(';')[0]!.trim().toLowerCase();
  const charset = /;\s*charset=("?)([^";]+)\1/i.exec(type)?.[2];
  run.verdict(
    'stream.headers',
    mediaType !== 'text/event-stream' || (charset !== undefined && !/^utf-?8$/i.test(charset))
      ? {
          expected: 'Content-Type: text/event-stream; charset=utf-8',
          observed: `Content-Type: ${type || '(none)'}`,
          exchange,
        }
      : !/no-cache|no-store/i.test(cache)
        ? {
            expected: 'Cache-Control: no-cache (so no proxy holds the events back)',
            observed: `Cache-Control: ${cache || '(none)'}`,
            exchange,
          }
        : undefined,
  );

  const captured = await captureEventStream(response.body, {
    closeWithinMs: run.options.closeWithinMs,
    maxDurationMs: run.options.taskTimeoutMs,
    maxBytes: MAX_CAPTURED_BYTES,
    ...(run.options.signal ? { signal: run.options.signal } : {}),
  });
  checkFraming(run, captured, exchange);
  if (captured.end === 'too-large') {
    const why = 'needs a stream of at most 1 MiB (see stream.framing)';
    run.skip('stream.final-event', why);
    run.skip('stream.event-ids', why);
    run.skip('stream.live', why);
  }
  if (captured.messages.length === 0) {
    const why = 'needs messages it can read (see stream.framing)';
    run.skip('stream.final-event', why);
    run.skip('stream.event-ids', why);
    run.skip('stream.live', why);
  }
  checkFinalEvent(run, captured, exchange);
  checkLive(run, captured, sentAt, exchange);
  const completed = completedEvent(captured);
  if (completed?.usage !== undefined)
    usages.push({ where: "the stream's task.completed", usage: completed.usage, exchange });

  // x-task-id, and the record it names, read once the stream has ended.
  const taskId = response.headers.get('x-task-id');
  if (!isTaskId(taskId)) {
    run.fail('stream.task-id', {
      expected: 'x-task-id: <the task id>, so a client that loses the stream can read the outcome',
      observed: taskId === null ? 'no x-task-id header' : `x-task-id: ${taskId}`,
      exchange,
    });
    run.skip('stream.event-ids', "needs the task's id (see stream.task-id)");
    return;
  }
  run.streamedId = taskId;
  const record = await run.send({
    method: 'GET',
    path: run.taskPath('result', { id: taskId }),
  });
  const problem = recordProblem(record, taskId);
  run.verdict(
    'stream.task-id',
    problem
      ? {
          expected: `Get Result of x-task-id ${taskId} answers that task's record`,
          observed: problem,
          exchange: record.exchange,
        }
      : undefined,
  );
  if (problem) {
    run.skip('stream.event-ids', "needs the task's record (see stream.task-id)");
    return;
  }
  const usage = (record.json as { response: { usage?: unknown } }).response.usage;
  if (usage !== undefined)
    usages.push({ where: 'Get Result of the streamed task', usage, exchange: record.exchange });
  if (completed !== undefined)
    outcomeUsages.push({
      where: "the stream's task.completed",
      usage: completed.usage,
      recordUsage: usage,
      exchange,
    });
  checkEventIds(run, captured, record, exchange, offersResumableStreams(response.headers));
}

/** The stream's `task.completed` event, when it sent one that parses. */
function completedEvent(captured: CapturedStream): { usage?: unknown } | undefined {
  const message = captured.messages.find((candidate) => typeOf(candidate) === 'task.completed');
  if (message === undefined) return undefined;
  try {
    return JSON.parse(message.data) as { usage?: unknown };
  } catch {
    // Not JSON: stream.framing says so.
    return undefined;
  }
}

function checkFraming(run: CheckRun, captured: CapturedStream, exchange: Exchange): void {
  const fail = (observed: string) =>
    run.fail('stream.framing', {
      expected:
        'each message data: <one JSON event object whose type is task.* or event.*>, then a blank line',
      observed,
      exchange,
    });
  if (captured.end === 'too-large') {
    fail(`the stream was ${TOO_LARGE}${openLineNote(captured)}`);
    return;
  }
  if (captured.messages.length === 0) {
    fail(
      captured.unendedDataLines > 0
        ? `messages not separated by blank lines: ${captured.unendedDataLines} data: lines came, and no blank line ended a message`
        : `no message at all (the body ${captured.end === 'closed' ? 'closed' : 'was given up'})`,
    );
    return;
  }
  for (const [index, message] of captured.messages.entries()) {
    const where = `message ${index + 1}`;
    // Fields a reader ignores (event:, retry:, an id: on a task.* event) are not counted: the
    // client reads the data alone, its lines joined as every reader joins them.
    const data = message.data;
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      const events = eventsPerLine(data);
      return fail(
        events > 1
          ? `${where} holds ${events} events, one on each of its data: lines: messages not separated by blank lines`
          : `${where}'s data is not JSON: ${excerpt(data, 120, run.secrets)}`,
      );
    }
    if (!isJsonObject(event))
      return fail(`${where}'s data is not a JSON object: ${excerpt(data, 120, run.secrets)}`);
    const type = event.type;
    if (typeof type !== 'string')
      return fail(`${where} has no string type: ${excerpt(data, 120, run.secrets)}`);
    if (!type.startsWith('task.') && !type.startsWith('event.'))
      return fail(`${where} has the type '${type}', neither task.* nor event.*`);
    const schema = KNOWN_EVENTS[type];
    const problem = schema ? shapeProblem(schema, event) : undefined;
    if (problem) return fail(`${where} (${type}): ${problem}`);
  }
  if (captured.unterminated)
    return fail('the body ended inside a message (no blank line after it)');
  run.pass('stream.framing', `${captured.messages.length} messages`);
}

/**
 * How many events a message's data holds when each of its lines is a JSON event of its own (two
 * messages that lost the blank line between them); 0 when its lines are not.
 */
function eventsPerLine(data: string): number {
  const lines = data.split('\n');
  if (lines.length < 2) return 0;
  for (const line of lines) {
    try {
      const value: unknown = JSON.parse(line);
      if (!isJsonObject(value) || typeof value.type !== 'string') return 0;
    } catch {
      return 0;
    }
  }
  return lines.length;
}

/** A note on a line that was still open when the reading stopped, when it was a long one. */
function openLineNote(captured: CapturedStream): string {
  return captured.openLine >= 64 * 1024
    ? ` (its last ${Math.round(captured.openLine / 1024)} KiB are one line that never ended)`
    : '';
}

/** `stream.final-event`, or `events.final-event` for an events read: the final event last, then the close. */
export function checkFinalEvent(
  run: CheckRun,
  captured: CapturedStream,
  exchange: Exchange,
  id: 'stream.final-event' | 'events.final-event' = 'stream.final-event',
): void {
  const types = captured.messages.map(typeOf);
  const finalIndex = types.findIndex((type) => type === 'task.completed' || type === 'task.failed');
  const expected =
    'task.completed or task.failed as the last message, then the server closes the stream';
  if (finalIndex < 0) {
    run.fail(id, {
      expected,
      observed:
        captured.end === 'time-limit'
          ? `no final event within ${seconds(run.options.taskTimeoutMs)}`
          : `the body ${captured.end === 'broke' ? 'broke off' : 'closed'} after ${captured.messages.length} messages without a final event`,
      exchange,
    });
    return;
  }
  if (finalIndex < captured.messages.length - 1) {
    run.fail(id, {
      expected,
      observed: `${captured.messages.length - finalIndex - 1} message(s) after ${types[finalIndex]}, the first of type ${types[finalIndex + 1] ?? 'unknown'}`,
      exchange,
    });
    return;
  }
  if (captured.end !== 'closed') {
    run.fail(id, {
      expected,
      observed:
        captured.end === 'broke'
          ? `the body broke off after ${types[finalIndex]} instead of closing`
          : `the stream was still open ${seconds(run.options.closeWithinMs)} after ${types[finalIndex]}`,
      exchange,
    });
    return;
  }
  run.pass(
    id,
    `${types[finalIndex]}, closed ${Math.round(captured.endedAt - (captured.finalAt ?? captured.endedAt))} ms later`,
  );
}

/** A resumable stream's custom event carries its uuid in its JSON, as `eventId`. */
function eventIdOf(message: CapturedStream['messages'][number]): string | undefined {
  try {
    const eventId = (JSON.parse(message.data) as { eventId?: unknown }).eventId;
    return typeof eventId === 'string' ? eventId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each custom event's id, the one Get Result lists: its `id:` line, or in a resumable stream (whose
 * `id:` is the message's position) its `eventId` (docs/protocol.md, "Resumable streams (0.4)").
 */
function checkEventIds(
  run: CheckRun,
  captured: CapturedStream,
  record: Answer,
  exchange: Exchange,
  resumable: boolean,
): void {
  const streamed = captured.messages
    .filter((message) => typeOf(message)?.startsWith('event.'))
    .map((message) => ({
      type: typeOf(message)!,
      id: resumable ? eventIdOf(message) : message.id,
    }));
  if (streamed.length === 0) {
    run.skip(
      'stream.event-ids',
      'the task sent no custom event.* message; name a task that emits one (--task)',
    );
    return;
  }
  const missing = streamed.findIndex((event) => event.id === undefined || event.id === '');
  if (missing >= 0) {
    run.fail('stream.event-ids', {
      expected: resumable
        ? 'an eventId on every event.* message of a resumable stream, the id Get Result lists for it'
        : 'an id: line on every event.* message, the id Get Result lists for it',
      observed: `the ${streamed[missing]!.type} message (custom event ${missing + 1}) has no ${resumable ? 'eventId' : 'id: line'}`,
      exchange,
    });
    return;
  }
  const listed = (record.json as { response: { events: Array<{ type: string; id: string }> } })
    .response.events;
  const shown = (events: ReadonlyArray<{ type: string; id?: string | undefined }>) =>
    events.map((event) => `${event.type} ${event.id ?? '(no id)'}`).join(', ');
  for (let index = 0; index < Math.max(streamed.length, listed.length); index += 1) {
    const a = streamed[index];
    const b = listed[index];
    if (a?.type !== b?.type || a?.id !== b?.id) {
      run.fail('stream.event-ids', {
        expected: `Get Result's events, in order, equal the stream's: ${excerpt(shown(streamed), 400, run.secrets)}`,
        observed: `event ${index + 1}: the stream sent ${a ? `${a.type} ${a.id}` : 'nothing'}, Get Result lists ${b ? `${b.type} ${b.id}` : 'nothing'}`,
        exchange: record.exchange,
      });
      return;
    }
  }
  run.pass('stream.event-ids', `${streamed.length} custom events`);
}

/**
 * `stream.live`: the stream is not held back and sent all at once at the end (by a buffering proxy,
 * or a service that writes the stream when the task is done). It was, when every message, the
 * final event and a `task.progress` below 100 % among them, came within {@link BURST_MS} of one
 * another, at least {@link NOTICEABLE_MS} after the request was sent: a progress below 100 % is
 * news only while the task runs. Skipped when the stream reported no such progress, or when a burst
 * came too soon after the request to tell a held-back stream from a quick task.
 */
function checkLive(
  run: CheckRun,
  captured: CapturedStream,
  sentAt: number,
  exchange: Exchange,
): void {
  const messages = captured.messages;
  const finalIndex = messages.findIndex((message) => {
    const type = typeOf(message);
    return type === 'task.completed' || type === 'task.failed';
  });
  if (finalIndex < 0) {
    run.skip(
      'stream.live',
      'needs a stream that ends with its final event (see stream.final-event)',
    );
    return;
  }
  const upToFinal = messages.slice(0, finalIndex + 1);
  const progress = upToFinal
    .map((message) => percentOf(message))
    .find((percent) => percent !== undefined && percent < 100);
  if (progress === undefined) {
    run.skip(
      'stream.live',
      'the stream reported no progress below 100 % to see it arrive while the task ran; name a task that reports progress (--task)',
    );
    return;
  }
  const first = upToFinal[0]!.at;
  const final = upToFinal.at(-1)!.at;
  const spread = final - first;
  const after = final - sentAt;
  if (spread > BURST_MS) {
    run.pass('stream.live', `${upToFinal.length} messages over ${seconds(spread)}`);
    return;
  }
  if (after < NOTICEABLE_MS) {
    run.skip(
      'stream.live',
      `every message came at once, but the task ended within ${seconds(after)} of the request, too soon to tell a held-back stream from a quick task; name a task that runs for a second or more`,
    );
    return;
  }
  run.fail('stream.live', {
    expected: `each message sent as the task reports it: its progress while it runs, not in one burst with the final event (held back: every message within ${BURST_MS} ms of one another, ${seconds(NOTICEABLE_MS)} or more after the request)`,
    observed: `all ${upToFinal.length} messages came within ${Math.round(spread)} ms of one another, ${seconds(after)} after the request, a task.progress of ${Number(progress.toFixed(2))} % among them`,
    exchange,
  });
}

/** The percent of a `task.progress` message, when it is one. */
function percentOf(message: CapturedMessage): number | undefined {
  if (typeOf(message) !== 'task.progress') return undefined;
  try {
    const percent = (JSON.parse(message.data) as { percent?: unknown }).percent;
    return typeof percent === 'number' ? percent : undefined;
  } catch {
    return undefined;
  }
}

/** `stream.keep-alive`: a task silent for longer than the keep-alive period gets comments in between. */
export async function checkKeepAlive(run: CheckRun): Promise<void> {
  const silent = run.options.keepAliveTask;
  const limit = run.options.keepAliveMs;
  if (silent === undefined) {
    run.skip(
      'stream.keep-alive',
      `needs a task whose stream stays silent for more than ${seconds(limit)} (--keep-alive-task)`,
    );
    return;
  }
  let opened: { exchange: Exchange; response: Response };
  try {
    opened = await run.open({
      method: 'POST',
      path: run.taskPath('stream', { task: silent.task }),
      body: { params: silent.params },
    });
  } catch (error) {
    run.fail('stream.keep-alive', {
      expected: `a stream of ${silent.task}`,
      observed: `no answer: ${error instanceof Error ? error.message : String(error)}`,
      ...exchangeOf(error),
    });
    return;
  }
  const { exchange, response } = opened;
  if (response.status !== 200 || response.body === null) {
    const { text } = await readText(response).catch(() => ({ text: '' }));
    run.fail('stream.keep-alive', {
      expected: `200, a stream of ${silent.task}`,
      observed: `${response.status} ${excerpt(text, 300, run.secrets)}`,
      exchange,
    });
    return;
  }
  // Three periods at most: a client counts that long a silence as a broken stream.
  const captured = await captureEventStream(response.body, {
    closeWithinMs: run.options.closeWithinMs,
    maxDurationMs: 3 * limit,
    maxBytes: MAX_CAPTURED_BYTES,
    ...(run.options.signal ? { signal: run.options.signal } : {}),
  });
  if (captured.end === 'too-large') {
    run.fail('stream.keep-alive', {
      expected: `a stream of ${silent.task}, comment lines in its silences`,
      observed: `the stream was ${TOO_LARGE}${openLineNote(captured)}`,
      exchange,
    });
    return;
  }
  const times = [captured.openedAt, ...captured.chunkTimes];
  if (captured.end === 'time-limit' || captured.end === 'closed') times.push(captured.endedAt);
  let longest = 0;
  for (let index = 1; index < times.length; index += 1)
    longest = Math.max(longest, times[index]! - times[index - 1]!);
  if (longest > limit * KEEP_ALIVE_GRACE) {
    run.fail('stream.keep-alive', {
      expected: `a comment line (: keep-alive) at least every ${seconds(limit)} of silence`,
      observed: `${seconds(longest)} without a byte (${captured.comments.length} comment lines in all)`,
      exchange,
    });
  } else if (captured.comments.length === 0) {
    run.skip(
      'stream.keep-alive',
      `the stream of ${silent.task} was never silent long enough to need a keep-alive (longest silence ${seconds(longest)}); name a task silent for more than ${seconds(limit)}`,
    );
  } else {
    run.pass(
      'stream.keep-alive',
      `${captured.comments.length} comment lines; longest silence ${seconds(longest)}`,
    );
  }
}

/** `stream.refusal-json`: an unknown task and a body without a params object get JSON, not a stream. */
export async function checkStreamRefusal(run: CheckRun, refusals: Answer[]): Promise<void> {
  const answers = [
    await run.send({
      method: 'POST',
      path: run.taskPath('stream', { task: UNKNOWN_TASK }),
      body: { params: {} },
    }),
    await run.send({ method: 'POST', path: run.taskPath('stream'), body: { params: 'none' } }),
  ];
  refusals.push(...answers.filter((answer) => answer.status >= 400));
  for (const answer of answers) {
    if (answer.status < 400 || !isJsonAnswer(answer) || reasonOf(answer) === undefined) {
      run.fail('stream.refusal-json', {
        expected:
          'a refusal before the task starts: 4xx with the JSON error body, never an event stream',
        observed: describeAnswer(answer),
        exchange: answer.exchange,
      });
      return;
    }
  }
  run.pass(
    'stream.refusal-json',
    answers.map((answer) => `${answer.status} ${reasonOf(answer)}`).join(', '),
  );
}
