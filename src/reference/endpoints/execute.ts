/**
 * Execute (docs/protocol.md, "Execute"): creates a task and answers once it ends, or 504 when it
 * runs too long.
 */
import { successResponse } from '../json-response.js';
import type { ServiceContext, TaskCall } from '../service-context.js';
import { ServiceError } from '../service-error.js';

/**
 * Answers Execute: 200 with the final record of a new task; throws 504 `EXECUTE_TIMEOUT` (naming the
 * task, which goes on) when it has not ended within the service's execute timeout.
 */
export async function answerExecute(context: ServiceContext, call: TaskCall): Promise<Response> {
  const { timers, executeTimeoutMs } = context;
  const run = context.createRun(call);
  context.scheduler.enqueue(run);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<true>((resolve) => {
    timer = timers.setTimeout(() => resolve(true), executeTimeoutMs);
  });
  const outcome = await Promise.race([run.settled.then(() => false as const), timedOut]);
  if (timer !== undefined) timers.clear(timer);
  if (outcome) {
    throw new ServiceError(
      504,
      'EXECUTE_TIMEOUT',
      `The task ran past ${executeTimeoutMs} ms; it goes on and can be read with Get Result.`,
      { 'x-task-id': run.id },
      run.id,
    );
  }
  return successResponse(200, run.executeRecord(), { 'x-task-id': run.id });
}
