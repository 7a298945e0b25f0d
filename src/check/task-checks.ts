/**
 * The submitted task: Submit's answer and `Location` (docs/protocol.md, "Submit"), idempotency
 * (docs/protocol.md, "Idempotency"), the records Get Result answers while it runs and once it ended,
 * their `Retry-After` (docs/protocol.md, "Records", "Get Result"), and another user's view of it
 * (docs/protocol.md, "Headers and tokens").
 *
 * Submit goes through taskwire's own client, as the hooks send it: the repeat with the same
 * `Idempotency-Key` is what the client does after a lost answer. Get Result is read raw, since its
 * headers are what is checked.
 */
import { createTaskClient } from '../client/create-task-client.js';
import { MAX_CAPTURED_BYTES } from './read-text.js';
import { TaskwireError } from '../client/errors.js';
import { failureSchema, type TaskStatus } from '../protocol/records.js';
import { describeAnswer, type Answer, type CheckRun } from './check-run.js';
import {
  envelopeProblem,
  isJsonObject,
  recordShapeSchema,
  reasonOf,
  shapeProblem,
} from './answer-checks.js';
import { expectRefusals } from './refusal-checks.js';
import { madeUpId } from './unknown-ids.js';
import type { Exchange } from './recorder.js';
import { excerpt } from './shown-text.js';

/** A usage seen in an answer, for `usage.arithmetic`. */
export interface SeenUsage {
  where: string;
  usage: unknown;
  exchange: Exchange;
}

/** The most a `Retry-After` may say before it reads as milliseconds: 5 minutes, the client's clamp. */
const MAX_RETRY_AFTER_SECONDS = 300;

const ORDER: Record<TaskStatus, number> = {
  ACCEPTED: 0,
  IN_PROGRESS: 1,
  COMPLETED: 2,
  FAILED: 2,
};

/** Whether `status` is COMPLETED or FAILED, after which a task never changes. */
export function isTerminal(status: unknown): boolean {
  return status === 'COMPLETED' || status === 'FAILED';
}

/** What is wrong with a Get Result answer for `id`; undefined when nothing. */
export function recordProblem(answer: Answer, id: string): string | undefined {
  if (answer.status !== 200) return `the answer is ${describeAnswer(answer)}`;
  const problem = envelopeProblem(answer, recordShapeSchema);
  if (problem) return problem;
  const record = (answer.json as { response: { id: string; status: string; result: unknown } })
    .response;
  if (record.id !== id) return `response.id is ${JSON.stringify(record.id)}, not the id asked for`;
  if (record.status === 'FAILED') {
    const failure = shapeProblem(failureSchema, record.result, ['response', 'result']);
    if (failure) return `a FAILED record's result is not the failure object: ${failure}`;
  }
  return undefined;
}

/** The status of a Get Result answer's record, when it is one of the four. */
function statusOf(answer: Answer): TaskStatus | undefined {
  const json = answer.json;
  const status =
    isJsonObject(json) && isJsonObject(json.response) ? json.response.status : undefined;
  return typeof status === 'string' && status in ORDER ? (status as TaskStatus) : undefined;
}

/** The record of a Get Result answer (call after `recordProblem` found nothing). */
function recordOf(answer: Answer): { status: TaskStatus; result: unknown; usage?: unknown } {
  return (answer.json as { response: { status: TaskStatus; result: unknown; usage?: unknown } })
    .response;
}

/** Submit, idempotency, Get Result and the other user; resolves to the task's id, if one started. */
export async function checkSubmittedTask(
  run: CheckRun,
  usages: SeenUsage[],
  refusals: Answer[],
): Promise<string | undefined> {
  const { task, params } = run.options;
  const client = createTaskClient({
    baseUrl: run.options.baseUrl,
    userToken: run.options.userToken,
    ...(run.options.clientToken === undefined ? {} : { clientToken: run.options.clientToken }),
    fetch: run.recorder.fetch,
    requestTimeoutMs: run.options.requestTimeoutMs,
    // The run's cap on every answer it reads, not the client's 8 MiB.
    maxResponseBytes: MAX_CAPTURED_BYTES,
  });
  const key = madeUpId();

  // Submit -------------------------------------------------------------------------------------
  let id: string | undefined;
  let submitError: unknown;
  try {
    id = (await client.submit(task, params, { idempotencyKey: key, ...signalOf(run) })).id;
  } catch (error) {
    submitError = error;
  }
  const submit = run.recorder.latest('POST', '/submit');
  if (id === undefined || submit === undefined) {
    run.fail('submit.answer', {
      expected: '2xx with { status: "success", response: { id, status: "ACCEPTED" } }',
      observed: `${submit?.status ?? 'no answer'}: ${describeClientError(submitError, run)}`,
      ...(submit ? { exchange: submit } : {}),
    });
    const why = 'needs the task Submit should have started (see submit.answer)';
    for (const check of [
      'submit.status',
      'submit.location',
      'idempotency.same-key',
      'idempotency.other-body',
      'result.record',
      'result.states',
      'result.retry-after',
      'result.other-user',
    ] as const)
      run.skip(check, why);
    await checkUnknownIds(run, refusals);
    return undefined;
  }
  run.knownId = id;
  run.pass('submit.answer');
  // Any 2xx is what the client needs; 202 is taskwire's own contract.
  run.verdict(
    'submit.status',
    submit.status === 202
      ? undefined
      : {
          expected: '202 Accepted (the task has only been accepted)',
          observed: `${submit.status}`,
          exchange: submit,
        },
  );
  checkLocation(run, submit, id);

  // Idempotency --------------------------------------------------------------------------------
  try {
    const again = await client.submit(task, params, { idempotencyKey: key, ...signalOf(run) });
    const exchange = run.recorder.latest('POST', '/submit')!;
    run.verdict(
      'idempotency.same-key',
      again.id === id
        ? undefined
        : {
            expected: `the first answer again: id ${id}`,
            observed: `a new id ${again.id}: a second task, charged again`,
            exchange,
          },
    );
  } catch (error) {
    run.fail('idempotency.same-key', {
      expected: `202 with the first answer again: id ${id}`,
      observed: describeClientError(error, run),
      ...exchangeOf(run.recorder.latest('POST', '/submit')),
    });
  }
  try {
    const other = await client.submit(task, params, {
      idempotencyKey: key,
      notification: { enabled: false, data: { title: 'taskwire-check: another body' } },
      ...signalOf(run),
    });
    run.fail('idempotency.other-body', {
      expected: '422 IDEMPOTENCY_KEY_REUSED',
      observed:
        other.id === id
          ? `the first answer again (id ${id}): the other body was not compared`
          : `202 with a new id ${other.id}: the key was not honoured`,
      ...exchangeOf(run.recorder.latest('POST', '/submit')),
    });
  } catch (error) {
    const ok =
      TaskwireError.isInstance(error) &&
      error.status === 422 &&
      error.reason === 'IDEMPOTENCY_KEY_REUSED';
    run.verdict(
      'idempotency.other-body',
      ok
        ? undefined
        : {
            expected: '422 IDEMPOTENCY_KEY_REUSED',
            observed: describeClientError(error, run),
            ...exchangeOf(run.recorder.latest('POST', '/submit')),
          },
    );
  }

  // Get Result while it runs, then once more after it ended ------------------------------------
  const path = run.taskPath('result', { id });
  const answers: Answer[] = [];
  const deadline = performance.now() + run.options.taskTimeoutMs;
  let shapeFailure: { problem: string; answer: Answer } | undefined;
  // Read on to the end even past a bad record, as long as its status can be read: the states
  // and the hints are checks of their own.
  for (;;) {
    const answer = await run.send({ method: 'GET', path });
    answers.push(answer);
    const problem = recordProblem(answer, id);
    if (problem) shapeFailure ??= { problem, answer };
    const status = statusOf(answer);
    if (status === undefined || isTerminal(status)) break;
    if (performance.now() > deadline || run.options.signal?.aborted) break;
    await run.wait(run.options.pollIntervalMs);
  }
  if (isTerminal(statusOf(answers.at(-1)!))) {
    const again = await run.send({ method: 'GET', path });
    answers.push(again);
    const problem = recordProblem(again, id);
    if (problem) shapeFailure ??= { problem, answer: again };
    else {
      const record = recordOf(again);
      if (record.usage !== undefined)
        usages.push({ where: 'Get Result', usage: record.usage, exchange: again.exchange });
    }
  }
  run.verdict(
    'result.record',
    shapeFailure && {
      expected: '200 with { status: "success", response: <task record> }',
      observed: shapeFailure.problem,
      exchange: shapeFailure.answer.exchange,
    },
    `${answers.length} records read`,
  );
  const readable = answers.filter((answer) => statusOf(answer) !== undefined);
  if (readable.length === 0)
    run.skip('result.states', 'no record had a readable status (see result.record)');
  else checkStates(run, readable);
  checkRetryAfter(run, answers);

  await checkUnknownIds(run, refusals);
  await checkOtherUser(run, id, refusals);
  return id;
}

/**
 * `result.unknown-id`: an id of the service's own shape that it never gave out is 404
 * RESULT_NOT_FOUND; `result.malformed-id`: so is a made-up id of no service's shape, taskwire's own
 * contract (ids are opaque), which a service that checks its ids' format may answer 400.
 */
async function checkUnknownIds(run: CheckRun, refusals: Answer[]): Promise<void> {
  const get = (id: string) => [{ method: 'GET', path: run.taskPath('result', { id }) }] as const;
  await expectRefusals(
    run,
    'result.unknown-id',
    get(run.unknownId()),
    404,
    'RESULT_NOT_FOUND',
    refusals,
  );
  if (run.knownId === undefined) {
    run.skip(
      'result.malformed-id',
      'needs an id the service gave out, to tell its shape from another (see submit.answer)',
    );
    return;
  }
  await expectRefusals(
    run,
    'result.malformed-id',
    get(madeUpId()),
    404,
    'RESULT_NOT_FOUND',
    refusals,
  );
}

function checkLocation(run: CheckRun, submit: Exchange, id: string): void {
  const location = submit.headers?.get('location');
  const wanted = new URL(run.url(run.taskPath('result', { id })));
  if (location === null || location === undefined) {
    run.fail('submit.location', {
      expected: `Location: ${wanted.pathname}`,
      observed: 'no Location header',
      exchange: submit,
    });
    return;
  }
  let resolved: URL | undefined;
  try {
    resolved = new URL(location, submit.request.url);
  } catch {
    resolved = undefined;
  }
  run.verdict(
    'submit.location',
    resolved !== undefined &&
      resolved.origin === wanted.origin &&
      resolved.pathname === wanted.pathname
      ? undefined
      : {
          expected: `Location: ${wanted.pathname} (the task's Get Result, below the base URL)`,
          observed: `Location: ${location}`,
          exchange: submit,
        },
  );
}

/** `result.states`: the statuses read go forward only, end terminal, and stay there. */
function checkStates(run: CheckRun, answers: readonly Answer[]): void {
  const statuses = answers.map((answer) => recordOf(answer).status);
  const seen = statuses.join(' → ');
  for (let index = 1; index < answers.length; index += 1) {
    const before = statuses[index - 1]!;
    const now = statuses[index]!;
    const backwards = ORDER[now] < ORDER[before] || (isTerminal(before) && now !== before);
    if (backwards) {
      run.fail('result.states', {
        expected:
          'ACCEPTED → IN_PROGRESS → COMPLETED or FAILED, never back; a terminal task never changes',
        observed: `${before} then ${now} (${seen})`,
        exchange: answers[index]!.exchange,
      });
      return;
    }
  }
  const last = answers.at(-1);
  if (last === undefined || !isTerminal(recordOf(last).status)) {
    run.fail('result.states', {
      expected: `COMPLETED or FAILED within ${run.options.taskTimeoutMs / 1000} s`,
      observed: `still ${statuses.at(-1) ?? 'unread'} (${seen})`,
      ...(last ? { exchange: last.exchange } : {}),
    });
    return;
  }
  const first = answers.find((answer) => isTerminal(recordOf(answer).status))!;
  if (JSON.stringify(recordOf(first).result) !== JSON.stringify(recordOf(last).result)) {
    run.fail('result.states', {
      expected: 'a terminal record that never changes',
      observed: `the result changed after ${recordOf(first).status}: ${JSON.stringify(recordOf(last).result)}`,
      exchange: last.exchange,
    });
    return;
  }
  run.pass('result.states', seen);
}

/** `result.retry-after`: every hint on a running task's record is whole seconds, 1 to 300. */
function checkRetryAfter(run: CheckRun, answers: readonly Answer[]): void {
  const running = answers.filter((answer) => {
    const json = answer.json;
    return (
      answer.status === 200 &&
      isJsonObject(json) &&
      isJsonObject(json.response) &&
      !isTerminal(json.response.status)
    );
  });
  if (running.length === 0) {
    run.skip(
      'result.retry-after',
      'the task had ended by the first read; name a task that runs for a few seconds',
    );
    return;
  }
  const hints: string[] = [];
  for (const answer of running) {
    const value = answer.headers.get('retry-after');
    if (value === null) continue;
    hints.push(value);
    const whole = /^\d+$/.test(value.trim());
    const seconds = Number(value.trim());
    if (!whole || seconds < 1 || seconds > MAX_RETRY_AFTER_SECONDS) {
      run.fail('result.retry-after', {
        expected: `Retry-After in whole seconds, 1 to ${MAX_RETRY_AFTER_SECONDS}`,
        observed: `Retry-After: ${value}${whole && seconds > MAX_RETRY_AFTER_SECONDS ? ' (milliseconds?)' : ''} while the task was ${String((answer.json as { response: { status: unknown } }).response.status)}`,
        exchange: answer.exchange,
      });
      return;
    }
  }
  run.pass(
    'result.retry-after',
    hints.length === 0
      ? `no Retry-After on ${running.length} running records (allowed)`
      : `Retry-After: ${[...new Set(hints)].join(', ')}`,
  );
}

/** `result.other-user`: the other user's read of the task is the answer to an id that never existed. */
async function checkOtherUser(run: CheckRun, id: string, refusals: Answer[]): Promise<void> {
  if (run.options.otherUserToken === undefined) {
    run.skip('result.other-user', "needs a second user's token (--other-user-token)");
    return;
  }
  // Of the shape of the service's ids: a service that checks their format answers both alike.
  const unknownId = run.unknownId();
  const theirs = await run.send({
    method: 'GET',
    path: run.taskPath('result', { id }),
    user: 'other',
  });
  const unknown = await run.send({
    method: 'GET',
    path: run.taskPath('result', { id: unknownId }),
    user: 'other',
  });
  if (unknown.status === 401) {
    run.skip(
      'result.other-user',
      "the service refused the other user's token (401); give a second user's token it knows",
    );
    return;
  }
  if (theirs.status >= 400) refusals.push(theirs);
  // Status, reason and message, the id taken out of the message: what tells the two apart.
  const shape = (answer: Answer, answerId: string) => {
    const json = answer.json;
    const message = isJsonObject(json) && typeof json.message === 'string' ? json.message : '';
    return `${answer.status} ${reasonOf(answer) ?? ''} ${message.split(answerId).join('<ID>')}`;
  };
  const same = shape(theirs, id) === shape(unknown, unknownId);
  run.verdict(
    'result.other-user',
    theirs.status === 200
      ? {
          expected: `the answer to an id that never existed: ${describeAnswer(unknown)}`,
          observed: "200: the other user reads this user's task",
          exchange: theirs.exchange,
        }
      : same
        ? undefined
        : {
            expected: `the answer to an id that never existed: ${describeAnswer(unknown)}`,
            observed: describeAnswer(theirs),
            exchange: theirs.exchange,
          },
  );
}

/** The run's signal as the client's options take it, so an aborted run aborts its Submits. */
function signalOf(run: CheckRun): { signal?: AbortSignal } {
  return run.options.signal ? { signal: run.options.signal } : {};
}

function exchangeOf(exchange: Exchange | undefined): { exchange?: Exchange } {
  return exchange ? { exchange } : {};
}

/**
 * What a Submit sent through the client got, for `observed`: the answer as the checks see it, never
 * the client's own advice. The run's first request reached the service, so the base URL is right,
 * and an answer that is not the error body breaks the error-body rule, not the address.
 */
export function describeClientError(error: unknown, run: CheckRun): string {
  if (!TaskwireError.isInstance(error))
    return error instanceof Error ? error.message : String(error);
  if (error.reason === 'NOT_A_TASKWIRE_ANSWER') {
    const exchange = run.recorder.latest('POST', '/submit');
    const type = exchange?.headers?.get('content-type') ?? 'no content type';
    const body = typeof error.body === 'string' ? `: ${excerpt(error.body, 300, run.secrets)}` : '';
    return error.code === 'http'
      ? `${error.status} (${type}), not the error body { status: "error", statusCode, reason, message }${body}`
      : `${exchange?.status ?? 'the answer'}: not JSON (${type})`;
  }
  if (error.code === 'network')
    return `no answer: the connection failed or broke (${error.cause instanceof Error ? error.cause.message : 'unknown'})`;
  const status = error.status === undefined ? '' : `${error.status} `;
  const reason = error.reason === undefined ? '' : `${error.reason}: `;
  return `${status}${reason}${error.message}`;
}
