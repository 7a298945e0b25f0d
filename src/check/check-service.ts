/**
 * `checkService`: the checks of docs/checking-your-service.md, run against a team's own service (or its proxy)
 * from code. The `taskwire-check` command is a thin wrapper over it.
 */
import { TaskwireError } from '../client/errors.js';
import { TASK_NAME_PATTERN } from '../protocol/names.js';
import type { JsonObject } from '../protocol/records.js';
import { CHECKS } from './check-catalogue.js';
import { CheckRun, describeAnswer, type Answer, type ResolvedOptions } from './check-run.js';
import type { CheckReport, CheckServiceOptions } from './check-types.js';
import { checkExposedHeaders, checkPreflights } from './cors-checks.js';
import {
  checkExecute,
  checkFailedExecute,
  checkOptions,
  checkUsage,
  checkUsageInOutcomes,
  type OutcomeUsage,
} from './outcome-checks.js';
import { reasonOf } from './answer-checks.js';
import { checkErrorBodies, checkRefusals } from './refusal-checks.js';
import { checkEventsReads } from './events-checks.js';
import { checkKeepAlive, checkStream, checkStreamRefusal } from './stream-checks.js';
import { checkSubmittedTask, type SeenUsage } from './task-checks.js';
import { escapeControl, redact } from './shown-text.js';

/** The task checked when none is named: the reference service's demo task with the most to see. */
export const DEFAULT_CHECK_TASK = 'render-video';
/** Its params: six frames of 150 ms, about a second, with a partial result and custom events. */
export const DEFAULT_CHECK_PARAMS: Readonly<JsonObject> = Object.freeze({
  frames: 6,
  frameMs: 150,
});

/** The deadline of a whole run: two minutes, enough for a task of a few seconds and its keep-alive check. */
const DEFAULT_RUN_TIMEOUT_MS = 120_000;

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new TypeError(`checkService: ${name} must be a positive number.`);
  return value;
}

/** Headers the checks set themselves, or leave out on purpose: none can be given. */
const OWN_HEADERS = new Set([
  'authorization',
  'x-app-authorization',
  'content-type',
  'content-length',
  'origin',
  'host',
  'idempotency-key',
  'last-event-id',
  'access-control-request-method',
  'access-control-request-headers',
]);

/** A header name (RFC 9110's token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The headers given, checked, their names in lower case; no value is ever put in a message. */
function resolveHeaders(headers: Record<string, string> | undefined): Array<[string, string]> {
  return Object.entries(headers ?? {}).map(([given, value]) => {
    const name = given.toLowerCase();
    if (!HEADER_NAME.test(name))
      throw new TypeError(`checkService: headers: '${escapeControl(given)}' is not a header name.`);
    if (OWN_HEADERS.has(name))
      throw new TypeError(
        `checkService: headers: '${name}' is sent by the checks themselves (give userToken, clientToken or origin instead).`,
      );
    // eslint-disable-next-line no-control-regex
    if (typeof value !== 'string' || value.trim() === '' || /[\u0000\r\n]/.test(value))
      throw new TypeError(
        `checkService: headers: the value of '${name}' cannot be sent (empty, or a line break in it).`,
      );
    return [name, value.trim()];
  });
}

function resolveOptions(options: CheckServiceOptions): ResolvedOptions {
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new TypeError('checkService: baseUrl must be an absolute http(s) URL.');
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new TypeError('checkService: baseUrl must be an http: or https: URL.');
  if (base.search !== '' || base.hash !== '')
    throw new TypeError('checkService: baseUrl must have no query or fragment.');
  if (base.username !== '' || base.password !== '')
    throw new TypeError(
      'checkService: baseUrl must not hold a user name or password; give tokens.',
    );
  if (typeof options.userToken !== 'string' || options.userToken === '')
    throw new TypeError('checkService: userToken must be a non-empty string.');
  for (const name of ['clientToken', 'otherUserToken'] as const) {
    const token = options[name];
    if (token !== undefined && (typeof token !== 'string' || token === ''))
      throw new TypeError(`checkService: ${name} must be a non-empty string when given.`);
  }
  if (options.otherUserToken !== undefined && options.otherUserToken === options.userToken)
    throw new TypeError(
      "checkService: otherUserToken must be another user's token, not userToken.",
    );
  const task = options.task ?? DEFAULT_CHECK_TASK;
  const params = options.params ?? (options.task === undefined ? { ...DEFAULT_CHECK_PARAMS } : {});
  for (const name of [task, options.keepAliveTask?.task]) {
    if (name !== undefined && !TASK_NAME_PATTERN.test(name))
      throw new TypeError(`checkService: '${name}' is not a task name (${TASK_NAME_PATTERN}).`);
  }
  const origin = options.origin ?? 'http://localhost:5173';
  try {
    new URL(origin);
  } catch {
    throw new TypeError('checkService: origin must be an origin such as https://app.example.com.');
  }
  return {
    baseUrl: base.href.replace(/\/+$/, ''),
    userToken: options.userToken,
    clientToken: options.clientToken,
    otherUserToken: options.otherUserToken,
    task,
    params,
    failingParams:
      options.failingParams ??
      (task === DEFAULT_CHECK_TASK ? { ...params, failAtFrame: 1 } : undefined),
    keepAliveTask: options.keepAliveTask && {
      task: options.keepAliveTask.task,
      params: options.keepAliveTask.params ?? {},
    },
    headers: resolveHeaders(options.headers),
    origin: new URL(origin).origin,
    pollIntervalMs: positive(options.pollIntervalMs, 1000, 'pollIntervalMs'),
    taskTimeoutMs: positive(options.taskTimeoutMs, 60_000, 'taskTimeoutMs'),
    requestTimeoutMs: positive(options.requestTimeoutMs, 30_000, 'requestTimeoutMs'),
    keepAliveMs: positive(options.keepAliveMs, 15_000, 'keepAliveMs'),
    closeWithinMs: positive(options.closeWithinMs, 5000, 'closeWithinMs'),
    executeDeadlineMs: positive(options.executeDeadlineMs, 20_000, 'executeDeadlineMs'),
    runTimeoutMs: positive(options.runTimeoutMs, DEFAULT_RUN_TIMEOUT_MS, 'runTimeoutMs'),
    signal: options.signal,
    onProgress: options.onProgress,
  };
}

/**
 * The first request, Options for the checked task, which starts nothing: it tells whether the
 * checks can run at all (the service answers, knows the tokens, the task and its params), and its
 * answer is the one `options.answer` checks.
 */
async function probe(run: CheckRun, stopIfAborted: () => void): Promise<Answer> {
  const answer = await run.send({
    method: 'POST',
    path: run.taskPath('options'),
    body: { params: run.options.params },
  });
  // A probe cut by the deadline says nothing about the service being reachable.
  stopIfAborted();
  const where = `${run.options.baseUrl}${run.taskPath('options')}`;
  const couldNot = (code: 'network' | 'http', message: string) =>
    new TaskwireError(code, escapeControl(redact(message, run.secrets)), {
      ...(answer.status === 0 ? {} : { status: answer.status }),
      ...(reasonOf(answer) === undefined ? {} : { reason: reasonOf(answer)! }),
    });
  if (answer.status === 0)
    throw couldNot(
      'network',
      `The service could not be reached at ${where}: ${answer.error ?? ''}.`,
    );
  if (answer.status === 401)
    throw couldNot(
      'http',
      `The service refused the tokens given (${describeAnswer(answer)}); check the user and client tokens${run.options.clientToken === undefined ? ' (no client token was given)' : ''}, or give the header it signs users in with (--header 'name: value').`,
    );
  // Refusals no check can get past: every request would get the same.
  if (answer.status === 400 || answer.status === 403 || answer.status === 407)
    throw couldNot(
      'http',
      `The service refused the first request, Options of '${run.options.task}' (${describeAnswer(answer)}), and would refuse every other request the same way, so the checks cannot run. If it needs a header taskwire-check does not send (platform, x-touchpoint, a proxy's cookie), give it with --header 'name: value' (checkService's headers)${answer.status === 400 ? '' : '; if the tokens given may not use this task, name one they may use (--task)'}.`,
    );
  const reason = reasonOf(answer);
  if (answer.status === 404 && reason === 'TASK_NOT_FOUND')
    throw couldNot(
      'http',
      `The service has no task '${run.options.task}'; name one of its tasks (--task) and its params (--params).`,
    );
  if (answer.status === 422 && reason === 'INVALID_PARAMS')
    throw couldNot(
      'http',
      `The service refused the params of '${run.options.task}' (${describeAnswer(answer)}); give params it accepts (--params).`,
    );
  return answer;
}

/** The error of a run past its deadline: how long that was, and how far the run got. */
function pastDeadline(run: CheckRun): TaskwireError {
  const ended = run.ended();
  const seconds = Number((run.options.runTimeoutMs / 1000).toFixed(3));
  const progress =
    ended.length === 0
      ? 'no check had ended'
      : `${ended.length} of ${CHECKS.length} checks had ended; the last was ${ended.at(-1)!}`;
  return new TaskwireError(
    'timeout',
    `The check run did not end within its deadline of ${seconds} s (runTimeoutMs, --run-timeout): ${progress}. A service that stops answering is cut off there; a task that runs longer needs a longer deadline.`,
  );
}

/**
 * Runs every check of docs/checking-your-service.md against the service at `options.baseUrl` and
 * resolves to their results. It starts few tasks (four: Submit, Stream, Execute and the failing
 * Execute; five with a keep-alive task; never more than 20) and says how many. No token's value appears in the report: `curl` commands write them as
 * shell variables.
 *
 * @throws TypeError for options that cannot be used (a base URL that is not http(s), an empty
 * token, a bad task name).
 * @throws TaskwireError when the service cannot be checked: unreachable (`network`), or refusing
 * the tokens, the task or its params (`http`, with its status and reason); `aborted` when
 * `options.signal` aborts the run; `timeout` when the run passes `options.runTimeoutMs`.
 */
export async function checkService(options: CheckServiceOptions): Promise<CheckReport> {
  const resolved = resolveOptions(options);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), resolved.runTimeoutMs);
  const caller = resolved.signal;
  resolved.signal = caller ? AbortSignal.any([caller, deadline.signal]) : deadline.signal;
  try {
    return await runChecks(resolved, options.fetch, caller);
  } finally {
    clearTimeout(timer);
  }
}

async function runChecks(
  resolved: ResolvedOptions,
  fetch: CheckServiceOptions['fetch'],
  caller: AbortSignal | undefined,
): Promise<CheckReport> {
  const send = fetch ?? ((request: Request) => globalThis.fetch(request));
  const run = new CheckRun(resolved, send);
  const startedAt = performance.now();
  // An aborted run stops between groups: its verdicts would only report the abort.
  const stopIfAborted = () => {
    if (caller?.aborted)
      throw new TaskwireError('aborted', 'The check run was aborted.', { cause: caller.reason });
    if (resolved.signal?.aborted) throw pastDeadline(run);
  };
  const optionsAnswer = await probe(run, stopIfAborted);

  const usages: SeenUsage[] = [];
  const outcomeUsages: OutcomeUsage[] = [];
  const refusals: Answer[] = [];
  // The silent task's stream takes up to three keep-alive periods: it runs beside the others.
  const keepAlive = checkKeepAlive(run);
  // Settled here too, so an abort below leaves no rejection unhandled.
  keepAlive.catch(() => undefined);
  // The submitted task first: its id tells the shape of the service's ids, for the unknown ids
  // the later checks ask for.
  for (const group of [
    () => checkSubmittedTask(run, usages, refusals),
    () => checkRefusals(run, refusals),
    () => checkPreflights(run),
    () => checkStream(run, usages, outcomeUsages),
    () => checkStreamRefusal(run, refusals),
    () => checkEventsReads(run),
    () => checkExecute(run, usages, outcomeUsages),
    () => checkFailedExecute(run),
  ]) {
    stopIfAborted();
    await group();
  }
  checkOptions(run, optionsAnswer);
  await keepAlive;
  stopIfAborted();
  checkUsage(run, usages);
  checkUsageInOutcomes(run, outcomeUsages);
  checkErrorBodies(run, refusals);
  checkExposedHeaders(run);

  const results = run.results();
  const count = (outcome: string) => results.filter((result) => result.outcome === outcome).length;
  return {
    baseUrl: resolved.baseUrl,
    task: resolved.task,
    params: resolved.params,
    results,
    passed: count('pass'),
    failed: count('fail'),
    warned: count('warn'),
    skipped: count('skipped'),
    tasksStarted: run.recorder.startedTasks.size,
    durationMs: Math.round(performance.now() - startedAt),
  };
}
