/**
 * The mutation options of `useSubmitTask`, over `@tanstack/query-core`, for every binding: one
 * intent, one task (the submit coalescer: a retry reuses its call's idempotency key, a double click
 * or double effect joins the call in flight) and, with a `resumeKey`, the start written ahead in the
 * journal (src/state/submit-write-ahead.ts; docs/protocol.md, "The hooks").
 */
import type { MutationOptions } from '@tanstack/query-core';
import type { TaskwireError } from '../client/errors.js';
import type { TaskClient } from '../client/types.js';
import type { NotificationRequest } from '../protocol/notification.js';
import type { SubmitAnswer } from '../protocol/start-answers.js';
import type { TaskName, TaskParams, TaskSchemas } from '../protocol/task-schemas.js';
import type { JournalSession } from '../state/journal-session.js';
import {
  retriesSubmit,
  SUBMIT_RETRIES,
  submitRetryDelay,
  type SubmitCoalescer,
} from '../state/submit-coalescer.js';
import { createSubmitWriteAhead, type SubmitWriteAhead } from '../state/submit-write-ahead.js';
import type { SubmitTaskVariables } from './hook-options.js';

/** Settings of {@link submitTaskMutationOptions}. */
export interface SubmitTaskMutationConfig {
  /** The coalescer of the hook, made once for its life (`createSubmitCoalescer`). */
  coalescer: SubmitCoalescer;
  /** The write-ahead of the hook's `resumeKey` ({@link submitWriteAheadOf}). Defaults to none. */
  writeAhead?: SubmitWriteAhead | undefined;
  /** How often a retryable failure is retried with the same key. Defaults to `3`. */
  retry?: number | undefined;
}

/**
 * The write-ahead of the Submits of `task` under `resumeKey` in the provider's journal session, or
 * `undefined` without a session or a key.
 */
export function submitWriteAheadOf(
  session: JournalSession | undefined,
  resumeKey: string | undefined,
  task: string,
  client: Pick<TaskClient<TaskSchemas>, 'tasks'>,
): SubmitWriteAhead | undefined {
  return session && resumeKey !== undefined
    ? createSubmitWriteAhead({
        journal: session.journal,
        scope: session.scope,
        key: resumeKey,
        task,
        tasks: client.tasks,
      })
    : undefined;
}

/** The mutation options that Submit `task` with `client`, each intent once. */
export function submitTaskMutationOptions<Tasks extends TaskSchemas, Name extends TaskName<Tasks>>(
  client: TaskClient<Tasks>,
  task: Name,
  { coalescer, writeAhead, retry = SUBMIT_RETRIES }: SubmitTaskMutationConfig,
): MutationOptions<SubmitAnswer, TaskwireError, SubmitTaskVariables<TaskParams<Tasks, Name>>> {
  return {
    mutationFn: (variables) =>
      coalescer.run(task, variables, async (idempotencyKey) => {
        const { params, notification } = variables;
        // Before the request leaves; a start the client or the journal refuses is refused here, unsent.
        writeAhead?.beforeSend({
          params,
          ...(notification ? { notification } : {}),
          idempotencyKey,
        });
        return client.submit(task, params, {
          idempotencyKey,
          ...(notification ? { notification } : {}),
        });
      }),
    retry: (failureCount, error) => retriesSubmit(failureCount + 1, error, retry),
    retryDelay: submitRetryDelay,
    // Replaces the start, whose body leaves the storage with it.
    onSuccess: (answer, { params }) => writeAhead?.answered(answer, params),
    // The hook shows this error: the Submit is never sent again by itself (docs/protocol.md, "The hooks").
    onError: (_error, variables) => writeAhead?.failed(coalescer.keyOf(variables)),
  };
}

/**
 * The Submit a reload cut before any answer reached the page, as `mutate` takes it (same key, so
 * the service answers the task it already made), or `undefined`.
 */
export function submitCutByReload<Params>(
  writeAhead: SubmitWriteAhead | undefined,
): SubmitTaskVariables<Params> | undefined {
  const cut = writeAhead?.cutByReload();
  if (!cut) return undefined;
  return {
    params: cut.params as Params,
    ...(cut.notification === undefined
      ? {}
      : { notification: cut.notification as NotificationRequest }),
    idempotencyKey: cut.idempotencyKey,
  };
}
