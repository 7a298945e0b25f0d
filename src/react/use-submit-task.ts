'use client';
import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { TaskwireError } from '../client/errors.js';
import type { SubmitAnswer } from '../protocol/start-answers.js';
import { createSubmitCoalescer, submitRetryDelay } from '../state/submit-coalescer.js';
import { createSubmitWriteAhead } from '../state/submit-write-ahead.js';
import type { NotificationRequest } from '../protocol/notification.js';
import type { TaskName, TaskParams } from '../protocol/task-schemas.js';
import type { RegisteredTasks } from './register.js';
import { useJournalSession, useTaskClient } from './taskwire-provider.js';

/** What `mutate` of {@link useSubmitTask} takes. */
export interface SubmitTaskVariables<Params> {
  /** The task's params. */
  params: Params;
  /** Asks for a notification on completion (docs/protocol.md, "Notifications"). */
  notification?: NotificationRequest;
  /** The idempotency key; defaults to a fresh one per call, reused by that call's retries. */
  idempotencyKey?: string;
}

/** Options of {@link useSubmitTask}. */
export interface UseSubmitTaskOptions {
  /** How often a retryable failure (network, 408, 429, 5xx) is retried with the same key. Defaults to `3`. */
  retry?: number;
  /**
   * Names the task this hook submits in the provider's journal, so that after a reload
   * `useJournalEntry(resumeKey)` finds it and `useTaskResult` can follow it again. Needs a `journal`
   * on the provider; defaults to none.
   */
  resumeKey?: string;
}

/** What {@link useSubmitTask} returns: TanStack Query's mutation result; `data` is `{ id, status }`. */
export type UseSubmitTaskResult<Params> = UseMutationResult<
  SubmitAnswer,
  TaskwireError,
  SubmitTaskVariables<Params>
>;

/**
 * Submits a task. Each call gets an idempotency key of its own and its retries reuse it; a call with
 * the same params and notification as one still in flight joins it, so a double click or a StrictMode
 * double effect makes one task, and a dropped connection never makes two.
 *
 * With a `resumeKey` and a journal on the provider, the start is written ahead: once the client's
 * own checks have passed, the start, with its idempotency key and body, is stored before the request
 * leaves, and it lives no longer than the request (the task's entry replaces it when the answer
 * arrives; an error the hook shows forgets it, body and all). So only a start cut by a reload
 * mid-request is left: the hook sends that Submit again with the same key when it mounts, the
 * service answers the task it already made, and the hook follows it: one task, one charge
 * (docs/protocol.md, "Idempotency"). A body over 64 KiB of JSON is sent without being stored.
 */
export function useSubmitTask<Name extends TaskName<RegisteredTasks>>(
  task: Name,
  options: UseSubmitTaskOptions = {},
): UseSubmitTaskResult<TaskParams<RegisteredTasks, Name>> {
  type Params = TaskParams<RegisteredTasks, Name>;
  const client = useTaskClient();
  const session = useJournalSession();
  const { resumeKey } = options;
  const [coalescer] = useState(createSubmitCoalescer);
  // The idempotency key each call was sent under, for its error to forget that call's start.
  const [sentKeys] = useState(() => new WeakMap<SubmitTaskVariables<Params>, string>());
  const maxRetries = options.retry ?? 3;
  const { tasks } = client;
  const writeAhead = useMemo(
    () =>
      session && resumeKey !== undefined
        ? createSubmitWriteAhead({
            journal: session.journal,
            scope: session.scope,
            key: resumeKey,
            task,
            tasks,
          })
        : undefined,
    [session, resumeKey, task, tasks],
  );
  const mutation = useMutation<SubmitAnswer, TaskwireError, SubmitTaskVariables<Params>>({
    mutationFn: (variables: SubmitTaskVariables<Params>) =>
      coalescer.run(task, variables, async (idempotencyKey) => {
        const { params, notification } = variables;
        sentKeys.set(variables, idempotencyKey);
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
    retry: (failureCount, error) =>
      TaskwireError.isInstance(error) && error.retryable && failureCount < maxRetries,
    retryDelay: submitRetryDelay,
    // Replaces the start, whose body leaves the storage with it.
    onSuccess: (answer, { params }) => writeAhead?.answered(answer, params),
    // The hook shows this error: the Submit is never sent again by itself (docs/protocol.md, "The hooks").
    onError: (_error, variables) => writeAhead?.failed(sentKeys.get(variables)),
  });
  const { mutate } = mutation;
  // After a reload mid-request: the same Submit again, same key, so the service answers its task.
  useEffect(() => {
    const cut = writeAhead?.cutByReload();
    if (!cut) return;
    mutate({
      params: cut.params as Params,
      ...(cut.notification === undefined
        ? {}
        : { notification: cut.notification as NotificationRequest }),
      idempotencyKey: cut.idempotencyKey,
    });
  }, [writeAhead, mutate]);
  return mutation;
}
