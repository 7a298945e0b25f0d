/**
 * Execute's answer (docs/protocol.md, "Execute"), Options' three rules as far as one task shows
 * them (docs/protocol.md, "Options"), and the arithmetic of every usage the run saw
 * (docs/protocol.md, "Usage and credits").
 */
import { failureSchema } from '../protocol/records.js';
import { optionsResultSchema } from '../protocol/start-answers.js';
import { findUsageInconsistency, usageShapeSchema } from '../protocol/usage.js';
import { describeAnswer, type Answer, type CheckRun } from './check-run.js';
import {
  envelopeProblem,
  executeShapeSchema,
  isJsonObject,
  reasonOf,
  shapeProblem,
} from './answer-checks.js';
import { recordProblem, type SeenUsage } from './task-checks.js';
import type { Exchange } from './recorder.js';
import { excerpt, seconds } from './shown-text.js';

/**
 * An outcome's usage beside the usage Get Result has for the same task, for `usage.in-outcomes`:
 * the stream's `task.completed`, or Execute's answer.
 */
export interface OutcomeUsage {
  /** Which outcome: "the stream's task.completed", "Execute". */
  where: string;
  usage: unknown;
  /** The usage of Get Result's record of the same task. */
  recordUsage: unknown;
  exchange: Exchange;
}

/** Execute's limit and a twentieth: what the network may add to an answer sent at the limit. */
const EXECUTE_GRACE = 1.05;
/** Execute's limit and a quarter: when the client stops waiting (25 s for 20), and so the check. */
const EXECUTE_GIVE_UP = 1.25;

/**
 * `execute.deadline`: Execute answered, the outcome or its timeout, within its limit (the interface
 * document's 20 s, a twentieth more for the network). Returns whether an answer came at all.
 */
function checkExecuteDeadline(run: CheckRun, answer: Answer, tookMs: number): boolean {
  const limit = run.options.executeDeadlineMs;
  const expected = `an answer within ${seconds(limit)}: the outcome, or 504 EXECUTE_TIMEOUT for a task that runs longer (a twentieth more allowed for the network)`;
  if (answer.status === 0) {
    const gaveUp = tookMs >= limit * EXECUTE_GIVE_UP * 0.99;
    if (gaveUp)
      run.fail('execute.deadline', {
        expected,
        observed: `no answer after ${seconds(limit * EXECUTE_GIVE_UP)}, when the client stops waiting`,
        exchange: answer.exchange,
      });
    else run.skip('execute.deadline', 'no answer came (see execute.answer)');
    return !gaveUp;
  }
  run.verdict(
    'execute.deadline',
    tookMs > limit * EXECUTE_GRACE
      ? {
          expected,
          observed: `Execute answered ${answer.status} after ${seconds(tookMs)}, past the limit of ${seconds(limit)}`,
          exchange: answer.exchange,
        }
      : undefined,
    `answered in ${seconds(tookMs)}`,
  );
  return true;
}

/** `execute.answer`: 200 with the outcome, and the same outcome from Get Result of its id. */
export async function checkExecute(
  run: CheckRun,
  usages: SeenUsage[],
  outcomeUsages: OutcomeUsage[],
): Promise<void> {
  const limit = run.options.executeDeadlineMs;
  const startedAt = performance.now();
  const answer = await run.send({
    method: 'POST',
    path: run.taskPath('execute'),
    body: { params: run.options.params },
    timeoutMs: limit * EXECUTE_GIVE_UP,
  });
  if (!checkExecuteDeadline(run, answer, performance.now() - startedAt)) {
    run.skip('execute.answer', 'needs an answer (see execute.deadline)');
    return;
  }
  const expected =
    '200 with { status: "success", response: { id, status: COMPLETED or FAILED, result, usage? } }';
  if (answer.status === 504 && reasonOf(answer) === 'EXECUTE_TIMEOUT') {
    run.skip(
      'execute.answer',
      `the task ran past Execute's ${seconds(limit)} limit; name a shorter task (--task)`,
    );
    return;
  }
  if (answer.status !== 200) {
    run.fail('execute.answer', {
      expected,
      observed: describeAnswer(answer),
      exchange: answer.exchange,
    });
    return;
  }
  const problem = envelopeProblem(answer, executeShapeSchema);
  if (problem) {
    run.fail('execute.answer', { expected, observed: problem, exchange: answer.exchange });
    return;
  }
  const outcome = (
    answer.json as { response: { id: string; status: string; result: unknown; usage?: unknown } }
  ).response;
  if (outcome.status === 'FAILED') {
    const failure = shapeProblem(failureSchema, outcome.result, ['response', 'result']);
    if (failure) {
      run.fail('execute.answer', {
        expected: 'a FAILED outcome with the failure object as its result',
        observed: failure,
        exchange: answer.exchange,
      });
      return;
    }
  }
  if (outcome.usage !== undefined)
    usages.push({ where: 'Execute', usage: outcome.usage, exchange: answer.exchange });
  const record = await run.send({
    method: 'GET',
    path: run.taskPath('result', { id: outcome.id }),
  });
  const readProblem = recordProblem(record, outcome.id);
  const read = readProblem
    ? undefined
    : (record.json as { response: { status: string; usage?: unknown } }).response;
  const status = read?.status;
  if (read !== undefined)
    outcomeUsages.push({
      where: 'Execute',
      usage: outcome.usage,
      recordUsage: read.usage,
      exchange: answer.exchange,
    });
  run.verdict(
    'execute.answer',
    readProblem || status !== outcome.status
      ? {
          expected: `Get Result of the executed task ${outcome.id} answers ${outcome.status}`,
          observed: readProblem ?? `Get Result answers ${status}`,
          exchange: record.exchange,
        }
      : undefined,
    outcome.status,
  );
}

/**
 * `execute.failed`: Execute of params that make the task fail answers 200 with status FAILED and
 * the failure object as its result: a failed task is an outcome, not an error of the request.
 */
export async function checkFailedExecute(run: CheckRun): Promise<void> {
  const params = run.options.failingParams;
  if (params === undefined) {
    run.skip(
      'execute.failed',
      `needs params that make ${run.options.task} fail (--failing-params)`,
    );
    return;
  }
  const limit = run.options.executeDeadlineMs;
  const answer = await run.send({
    method: 'POST',
    path: run.taskPath('execute'),
    body: { params },
    timeoutMs: limit * EXECUTE_GIVE_UP,
  });
  const reason = reasonOf(answer);
  if (answer.status === 422 && reason === 'INVALID_PARAMS') {
    run.skip(
      'execute.failed',
      `the service refused the failing params (${describeAnswer(answer)}); give params it accepts that make the task fail (--failing-params)`,
    );
    return;
  }
  if (answer.status === 504 && reason === 'EXECUTE_TIMEOUT') {
    run.skip(
      'execute.failed',
      `the task ran past Execute's ${seconds(limit)} limit with the failing params; give params that make it fail sooner (--failing-params)`,
    );
    return;
  }
  const expected =
    '200 with { status: "success", response: { id, status: "FAILED", result: { status: "error", statusCode, reason, message } } }: a failed task is an outcome, not an error of the request';
  const fail = (observed: string) =>
    run.fail('execute.failed', { expected, observed, exchange: answer.exchange });
  if (answer.status !== 200) return fail(describeAnswer(answer));
  const problem = envelopeProblem(answer, executeShapeSchema);
  if (problem) return fail(problem);
  const outcome = (answer.json as { response: { status: string; result: unknown } }).response;
  if (outcome.status !== 'FAILED') {
    run.skip(
      'execute.failed',
      `the failing params did not make the task fail (it ended ${outcome.status}); give params that do (--failing-params)`,
    );
    return;
  }
  const failure = shapeProblem(failureSchema, outcome.result, ['response', 'result']);
  if (failure) return fail(failure);
  run.pass('execute.failed', `FAILED, ${(outcome.result as { reason: string }).reason}`);
}

/** `options.answer` and `options.runs-nothing`, from the Options answer the run began with. */
export function checkOptions(run: CheckRun, answer: Answer): void {
  const expected =
    '200 with { status: "success", response: { monetization?: { toolId }, usageAmount?, credits? } } (or {})';
  if (answer.status !== 200) {
    run.fail('options.answer', {
      expected,
      observed: describeAnswer(answer),
      exchange: answer.exchange,
    });
    run.skip('options.runs-nothing', 'needs an Options answer (see options.answer)');
    return;
  }
  const problem = envelopeProblem(answer, optionsResultSchema);
  const response = isJsonObject(answer.json) ? answer.json.response : undefined;
  if (problem) {
    run.fail('options.answer', { expected, observed: problem, exchange: answer.exchange });
  } else {
    const quote = response as {
      monetization?: { toolId: string };
      usageAmount?: number;
      credits?: number;
    };
    const rule =
      Object.keys(quote).length === 0
        ? 'rule 3: {} (no monetization configured)'
        : quote.monetization !== undefined &&
            quote.usageAmount !== undefined &&
            quote.credits !== undefined
          ? `rule 1 or 2, a quote: ${quote.monetization.toolId}, usageAmount ${quote.usageAmount}, ${quote.credits} credits`
          : 'rule 1: a preflight answer';
    run.pass('options.answer', rule);
  }
  const taskId = answer.headers.get('x-task-id');
  const looksLikeTask =
    isJsonObject(response) &&
    (typeof response.id === 'string' || typeof response.status === 'string');
  run.verdict(
    'options.runs-nothing',
    taskId !== null || looksLikeTask
      ? {
          expected: 'a quote only: no task started, no x-task-id, no task record',
          observed:
            taskId !== null
              ? `x-task-id: ${taskId}: Options started a task`
              : `the answer looks like a task: ${excerpt(answer.shown, 200, [])}`,
          exchange: answer.exchange,
        }
      : undefined,
  );
}

/** A usage as compared: its total and its entries, whatever the order of their fields. */
function comparable(usage: unknown): string {
  if (!isJsonObject(usage)) return JSON.stringify(usage);
  const details = Array.isArray(usage.details) ? usage.details : [];
  return JSON.stringify({
    credits: usage.credits,
    details: details.map((entry: unknown) =>
      isJsonObject(entry)
        ? [entry.toolId, entry.price, entry.amount, entry.credits, entry.failed === true]
        : entry,
    ),
  });
}

/**
 * `usage.in-outcomes`: where Get Result has a usage, the stream's `task.completed` and Execute's
 * answer of the same task carry it too, the same (the interface document's "usage, if any").
 */
export function checkUsageInOutcomes(run: CheckRun, outcomes: readonly OutcomeUsage[]): void {
  const charged = outcomes.filter((outcome) => outcome.recordUsage !== undefined);
  if (charged.length === 0) {
    run.skip(
      'usage.in-outcomes',
      outcomes.length === 0
        ? 'no completed stream or Execute answer to compare with Get Result (see stream.final-event, execute.answer)'
        : 'Get Result had no usage for the streamed or the executed task; name a task that charges credits (--task) to check it',
    );
    return;
  }
  for (const outcome of charged) {
    const recorded = excerpt(JSON.stringify(outcome.recordUsage), 300, run.secrets);
    const problem =
      outcome.usage === undefined
        ? `${outcome.where} has no usage, but Get Result of that task has one: ${recorded}`
        : comparable(outcome.usage) !== comparable(outcome.recordUsage)
          ? `${outcome.where} has the usage ${excerpt(JSON.stringify(outcome.usage), 300, run.secrets)}, but Get Result of that task has ${recorded}`
          : undefined;
    if (problem) {
      run.fail('usage.in-outcomes', {
        expected:
          "the usage Get Result has for the task, in its task.completed event and in Execute's answer",
        observed: problem,
        exchange: outcome.exchange,
      });
      return;
    }
  }
  run.pass('usage.in-outcomes', charged.map((outcome) => outcome.where).join(', '));
}

/** `usage.arithmetic`: every usage seen adds up (docs/protocol.md, "Usage and credits"). */
export function checkUsage(run: CheckRun, usages: readonly SeenUsage[]): void {
  if (usages.length === 0) {
    run.skip(
      'usage.arithmetic',
      'no answer carried a usage; name a task that charges credits (--task) to check the sums',
    );
    return;
  }
  for (const seen of usages) {
    const problem =
      shapeProblem(usageShapeSchema, seen.usage, ['usage']) ??
      findUsageInconsistency(seen.usage as Parameters<typeof findUsageInconsistency>[0]);
    if (problem) {
      run.fail('usage.arithmetic', {
        expected:
          'each entry credits = price × amount; usage.credits = the sum over the entries that did not fail',
        observed: `${seen.where}: ${problem}`,
        exchange: seen.exchange,
      });
      return;
    }
  }
  run.pass(
    'usage.arithmetic',
    `${usages.length} usages: ${usages.map((seen) => seen.where).join(', ')}`,
  );
}
