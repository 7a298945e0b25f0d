/**
 * The events reads of a service that offers resumable streams (docs/protocol.md, "Resumable streams
 * (0.4)"), checked on the task the run streamed (a proxy logs the streams it relays), ended by then: its whole read, with a
 * position on every message, the final event last and the close; reads after several of those
 * positions, each the rest of the whole read, no message repeated or missed; another user's read
 * refused as an unknown id; and the multiplexed read's messages. A service that offers none of it
 * (no answer carried `x-taskwire-resumable: 1`) has these checks skipped.
 */
import { canonicalJson } from '../protocol/canonical-json.js';
import { followMessageSchema } from '../protocol/follow-schemas.js';
import {
  FOLLOW_PATH,
  isPosition,
  offersResumableStreams,
  RESUMABLE_HEADER,
} from '../protocol/resumable-streams.js';
import { isJsonObject, reasonOf, shapeProblem } from './answer-checks.js';
import {
  captureEventStream,
  typeOf,
  type CapturedMessage,
  type CapturedStream,
} from './capture-event-stream.js';
import { describeAnswer, type CheckRun } from './check-run.js';
import { MAX_CAPTURED_BYTES, readText, TOO_LARGE } from './read-text.js';
import type { Exchange } from './recorder.js';
import { checkFinalEvent, exchangeOf } from './stream-checks.js';
import { excerpt } from './shown-text.js';

const EVENTS_CHECKS = [
  'events.after-position',
  'events.other-user',
  'events.final-event',
  'events.follow',
] as const;

/** One message of a read as the checks compare them: its position and its event, as canonical JSON. */
interface ReadMessage {
  position: string | undefined;
  event: string;
  type: string;
}

/** A read that answered an event stream, or what came instead. */
type Read =
  | { exchange: Exchange; captured: CapturedStream }
  | { exchange?: Exchange; status: number; observed: string };

function readMessage(message: CapturedMessage): ReadMessage {
  let event = message.data;
  try {
    event = canonicalJson(JSON.parse(message.data));
  } catch {
    // Not JSON: compared as the text it is.
  }
  return { position: message.id, event, type: typeOf(message) ?? 'unknown' };
}

const shownMessage = (message: ReadMessage) => `${message.type} at ${message.position ?? '(none)'}`;

/** Opens a read and captures its event stream, or says what came instead of one. */
async function read(run: CheckRun, spec: Parameters<CheckRun['open']>[0]): Promise<Read> {
  let opened: { exchange: Exchange; response: Response };
  try {
    opened = await run.open(spec);
  } catch (error) {
    return {
      ...exchangeOf(error),
      status: 0,
      observed: `no answer: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const { exchange, response } = opened;
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || response.body === null || !/^text\/event-stream/i.test(type)) {
    const { text } = await readText(response).catch(() => ({ text: '' }));
    return {
      exchange,
      status: response.status,
      observed: `${response.status}${type ? ` (${type})` : ''}${text === '' ? ', no body' : ` ${excerpt(text, 300, run.secrets)}`}`,
    };
  }
  const captured = await captureEventStream(response.body, {
    closeWithinMs: run.options.closeWithinMs,
    maxDurationMs: run.options.taskTimeoutMs,
    maxBytes: MAX_CAPTURED_BYTES,
    ...(run.options.signal ? { signal: run.options.signal } : {}),
  });
  return { exchange, captured };
}

/** Whether any answer so far said that the service offers resumable streams. */
function offered(run: CheckRun): boolean {
  return run.recorder.exchanges.some(
    (exchange) => exchange.headers !== undefined && offersResumableStreams(exchange.headers),
  );
}

/** The events checks of the streamed task (the submitted one where no stream answered). */
export async function checkEventsReads(run: CheckRun): Promise<void> {
  const skipAll = (why: string) => {
    for (const check of EVENTS_CHECKS) run.skip(check, why);
  };
  if (!offered(run))
    return skipAll(
      `the service offers no resumable streams (no answer carried ${RESUMABLE_HEADER}: 1)`,
    );
  // The streamed task: a proxy keeps the logs of the streams it relays, not of Submits.
  const id = run.streamedId ?? run.knownId;
  if (id === undefined) return skipAll('needs the streamed task (see stream.task-id)');
  const path = run.taskPath('events', { id });

  await checkOtherUser(run, path);
  const whole = await read(run, { method: 'GET', path });
  if (!('captured' in whole)) {
    const failure = {
      expected: `200 text/event-stream: the streamed task's messages, from the first`,
      observed: whole.observed,
      ...(whole.exchange ? { exchange: whole.exchange } : {}),
    };
    run.fail('events.final-event', failure);
    run.skip('events.after-position', 'needs the whole read (see events.final-event)');
    run.skip('events.follow', 'needs the whole read (see events.final-event)');
    return;
  }
  const { captured, exchange } = whole;
  if (captured.end === 'too-large' || captured.messages.length === 0) {
    run.fail('events.final-event', {
      expected: "the streamed task's messages, from the first, then the final event",
      observed:
        captured.end === 'too-large'
          ? `the read was ${TOO_LARGE}`
          : `no message at all (the body ${captured.end === 'closed' ? 'closed' : 'was given up'})`,
      exchange,
    });
    run.skip('events.after-position', 'needs messages (see events.final-event)');
    run.skip('events.follow', 'needs messages (see events.final-event)');
    return;
  }
  checkFinalEvent(run, captured, exchange, 'events.final-event');
  const messages = captured.messages.map(readMessage);
  const positionProblem = problemOfPositions(messages);
  if (positionProblem !== undefined) {
    run.fail('events.after-position', {
      expected: 'every message of an events read with its position (id:), in increasing order',
      observed: positionProblem,
      exchange,
    });
    run.skip('events.follow', 'needs positions (see events.after-position)');
    return;
  }
  await checkAfterPositions(run, path, messages);
  await checkFollow(run, id, messages);
}

/** What is wrong with the positions of a whole read, when something is. */
function problemOfPositions(messages: ReadMessage[]): string | undefined {
  for (const [index, message] of messages.entries()) {
    if (!isPosition(message.position))
      return `message ${index + 1} (${message.type}) has ${message.position === undefined ? 'no id: line' : `the id '${excerpt(message.position, 80, [])}', no position`}`;
    const before = messages[index - 1]?.position;
    if (before !== undefined && !(before < message.position))
      return `message ${index + 1} (${message.type}) is at ${message.position}, not after ${before}`;
  }
  return undefined;
}

/**
 * The indices of the positions read after: the first, one in the middle, the one before the final
 * event, and the final event's own (nothing after it).
 */
function positionsToReadAfter(count: number): number[] {
  return [...new Set([0, Math.floor((count - 1) / 2), count - 2, count - 1])].filter(
    (index) => index >= 0,
  );
}

/**
 * How a read after the message at `index` differs from the rest of the whole read: a message
 * repeated, one missed, or one that is not the whole read's; undefined when it is the same.
 */
function differenceFrom(
  messages: ReadMessage[],
  index: number,
  got: ReadMessage[],
): string | undefined {
  const expected = messages.slice(index + 1);
  const same = (a: ReadMessage, b: ReadMessage) => a.position === b.position && a.event === b.event;
  for (let at = 0; at < Math.max(expected.length, got.length); at += 1) {
    const want = expected[at];
    const came = got[at];
    if (came === undefined)
      return `${expected.length - at} message(s) missing, the first ${shownMessage(want!)}`;
    if (want !== undefined && same(want, came)) continue;
    const earlier = messages.slice(0, index + 1).find((message) => same(message, came));
    if (earlier !== undefined)
      return `it repeated ${shownMessage(earlier)}, which the reader already had`;
    const later = expected.slice(at + 1).findIndex((message) => same(message, came));
    if (later >= 0)
      return `it skipped ${later + 1} message(s), the first ${shownMessage(want!)}, and went on with ${shownMessage(came)}`;
    return `message ${at + 1} was ${shownMessage(came)}, where the whole read has ${want ? shownMessage(want) : 'nothing'}`;
  }
  return undefined;
}

async function checkAfterPositions(
  run: CheckRun,
  path: string,
  messages: ReadMessage[],
): Promise<void> {
  const indices = positionsToReadAfter(messages.length);
  for (const index of indices) {
    const position = messages[index]!.position!;
    const after = await read(run, {
      method: 'GET',
      path,
      headers: { 'last-event-id': position },
    });
    const expected = `after position ${position}, the whole read's ${messages.length - index - 1} later message(s), each once, in order${index === messages.length - 1 ? ' (204, or a stream that closes empty)' : ''}`;
    if (!('captured' in after)) {
      // After the final event, nothing: 204 says so without a stream.
      if (after.status === 204 && index === messages.length - 1) continue;
      run.fail('events.after-position', {
        expected,
        observed: after.observed,
        ...(after.exchange ? { exchange: after.exchange } : {}),
      });
      return;
    }
    const difference =
      after.captured.end === 'too-large'
        ? `the read was ${TOO_LARGE}`
        : differenceFrom(messages, index, after.captured.messages.map(readMessage));
    if (difference !== undefined) {
      run.fail('events.after-position', {
        expected,
        observed: `after position ${position}, ${difference}`,
        exchange: after.exchange,
      });
      return;
    }
  }
  run.pass(
    'events.after-position',
    `${indices.length} reads after positions of ${messages.length} messages`,
  );
}

/** `events.other-user`: the other user's read of the task is refused as an unknown id. */
async function checkOtherUser(run: CheckRun, path: string): Promise<void> {
  if (run.options.otherUserToken === undefined) {
    run.skip('events.other-user', "needs a second user's token (--other-user-token)");
    return;
  }
  const answer = await run.send({ method: 'GET', path, user: 'other' });
  if (answer.status === 401) {
    run.skip(
      'events.other-user',
      "the service refused the other user's token (401); give a second user's token it knows",
    );
    return;
  }
  run.verdict(
    'events.other-user',
    answer.status === 404 && reasonOf(answer) === 'RESULT_NOT_FOUND'
      ? undefined
      : {
          expected:
            "404 RESULT_NOT_FOUND: another user's events read is answered as an unknown id, and shows nothing of the task",
          observed: describeAnswer(answer),
          exchange: answer.exchange,
        },
  );
}

/**
 * `events.follow`: the multiplexed read of the task after the middle position sends the rest of
 * the whole read, each message as `{ task, id, position, message }`, then closes.
 */
async function checkFollow(run: CheckRun, id: string, messages: ReadMessage[]): Promise<void> {
  const index = Math.floor((messages.length - 1) / 2);
  const task = run.options.task;
  const after = messages[index]!.position!;
  const answer = await read(run, {
    method: 'POST',
    path: FOLLOW_PATH,
    body: { follow: [{ task, id, after }] },
  });
  const expected = `200 text/event-stream: the task's messages after ${after} as { task, id, position, message }, each once, then the close`;
  if (!('captured' in answer)) {
    run.fail('events.follow', {
      expected,
      observed: answer.observed,
      ...(answer.exchange ? { exchange: answer.exchange } : {}),
    });
    return;
  }
  const { captured, exchange } = answer;
  const fail = (observed: string) => run.fail('events.follow', { expected, observed, exchange });
  if (captured.end === 'too-large') return fail(`the read was ${TOO_LARGE}`);
  const got: ReadMessage[] = [];
  for (const [at, message] of captured.messages.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(message.data);
    } catch {
      return fail(
        `message ${at + 1}'s data is not JSON: ${excerpt(message.data, 120, run.secrets)}`,
      );
    }
    const problem = shapeProblem(followMessageSchema, value);
    if (problem !== undefined) return fail(`message ${at + 1}: ${problem}`);
    const followed = value as { task: string; id: string; position?: string; message?: unknown };
    if (followed.task !== task || followed.id !== id)
      return fail(`message ${at + 1} is of ${followed.task} ${followed.id}, a task not followed`);
    if (followed.message === undefined)
      return fail(`message ${at + 1} is an error: ${excerpt(message.data, 200, run.secrets)}`);
    const event = followed.message;
    got.push({
      position: followed.position,
      event: canonicalJson(event),
      type: isJsonObject(event) && typeof event.type === 'string' ? event.type : 'unknown',
    });
  }
  const difference = differenceFrom(messages, index, got);
  if (difference !== undefined) return fail(`after position ${after}, ${difference}`);
  if (captured.end !== 'closed')
    return fail(
      `the read was ${captured.end === 'broke' ? 'broken off' : 'still open'} after the task's final message`,
    );
  run.pass('events.follow', `${got.length} messages after ${after}, then closed`);
}
