/**
 * The refusals: requests without or with bad tokens (docs/protocol.md, "Headers and tokens"), an
 * unknown task and path (docs/protocol.md, "Error bodies", "Paths and names"), and the error body
 * they all carry; the unknown ids are asked in task-checks.ts, once an id of the service's shape is
 * known. The token checks ask Get Result and Options, which start no
 * task whatever a service does with them.
 */
import { describeAnswer, type Answer, type CheckRun, type RequestSpec } from './check-run.js';
import { errorBodyProblem, refusalProblem } from './answer-checks.js';
import type { CheckId } from './check-catalogue.js';

/** A name no service has a task for. */
export const UNKNOWN_TASK = 'taskwire-check-no-such-task';

/** Checks each request of `specs` for `status` and `reason`; records the first that is wrong. */
export async function expectRefusals(
  run: CheckRun,
  id: CheckId,
  specs: readonly RequestSpec[],
  status: number,
  reason: string,
  refusals: Answer[],
): Promise<void> {
  for (const spec of specs) {
    const answer = await run.send(spec);
    if (answer.status >= 400) refusals.push(answer);
    const problem = refusalProblem(answer, status, reason);
    if (problem) {
      run.fail(id, {
        expected: `${spec.method} ${spec.path}: ${status} with reason ${reason}`,
        observed: describeAnswer(answer),
        exchange: answer.exchange,
      });
      return;
    }
  }
  run.pass(id);
}

/**
 * The token checks, the unknown task and path checks; the error answers they get are added to
 * `refusals` for `errors.body`.
 */
export async function checkRefusals(run: CheckRun, refusals: Answer[]): Promise<void> {
  const { params } = run.options;
  const resultPath = run.taskPath('result', { id: run.unknownId() });
  const both = (extra: Partial<RequestSpec>): RequestSpec[] => [
    { method: 'GET', path: resultPath, ...extra },
    { method: 'POST', path: run.taskPath('options'), body: { params }, ...extra },
  ];
  await expectRefusals(
    run,
    'auth.no-user-token',
    both({ user: 'none' }),
    401,
    'UNAUTHENTICATED',
    refusals,
  );
  if (run.options.clientToken === undefined)
    run.skip(
      'auth.no-client-token',
      'no client token was given (a proxy that adds it on the server); give one to check a service directly',
    );
  else
    await expectRefusals(
      run,
      'auth.no-client-token',
      both({ client: false }),
      401,
      'UNAUTHENTICATED',
      refusals,
    );
  // The token without its scheme: the mistake an app makes when it writes the header itself.
  await expectRefusals(
    run,
    'auth.malformed-token',
    both({ user: { header: run.options.userToken } }),
    401,
    'UNAUTHENTICATED',
    refusals,
  );
  await expectRefusals(
    run,
    'auth.unknown-token',
    both({ user: { header: 'Bearer taskwire-check-unknown-user-token' } }),
    401,
    'UNAUTHENTICATED',
    refusals,
  );
  await expectRefusals(
    run,
    'unknown.task',
    [
      {
        method: 'POST',
        path: run.taskPath('submit', { task: UNKNOWN_TASK }),
        body: { params: {} },
      },
      {
        method: 'GET',
        path: run.taskPath('result', { task: UNKNOWN_TASK, id: run.unknownId() }),
      },
    ],
    404,
    'TASK_NOT_FOUND',
    refusals,
  );
  // Paths below the base URL that name no endpoint, on purpose: the task's own path with no endpoint
  // or a made-up one. Their answers are not counted for errors.body, since a gateway in front of a
  // service may well answer them itself.
  const noEndpoint = `/workflows/${encodeURIComponent(run.options.task)}`;
  await expectRefusals(
    run,
    'unknown.path',
    [
      { method: 'GET', path: noEndpoint },
      { method: 'POST', path: `${noEndpoint}/taskwire-check-no-such-endpoint`, body: { params } },
    ],
    404,
    'NOT_FOUND',
    [],
  );
}

/** `errors.body`: every refusal seen carries the error body, its `statusCode` the HTTP status. */
export function checkErrorBodies(run: CheckRun, refusals: readonly Answer[]): void {
  if (refusals.length === 0) {
    run.skip('errors.body', 'no request was refused, so there was no error body to read');
    return;
  }
  for (const answer of refusals) {
    const problem = errorBodyProblem(answer);
    if (problem) {
      run.fail('errors.body', {
        expected:
          'a JSON body { status: "error", statusCode: <the HTTP status>, reason, message } on every refusal',
        observed: `${answer.exchange.request.method} ${new URL(answer.exchange.request.url).pathname}: ${problem}`,
        exchange: answer.exchange,
      });
      return;
    }
  }
  run.pass('errors.body', `${refusals.length} refusals read`);
}
