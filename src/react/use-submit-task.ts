'use client';
import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { TaskwireError } from '../client/errors.js';
import type { SubmitAnswer } from '../protocol/start-answers.js';
import { createSubmitCoalescer, submitRetryDelay } from '../state/submit-coalescer.js';
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
 * With a `resumeKey` and a journal on the provider, the start is written ahead: the entry, with its
 * idempotency key and body, is stored before the request leaves (and the body dropped when the
 * answer arrives), so that after a reload mid-request the hook sends the same Submit again with the
 * same key when it mounts, the service answers the task it already made, and the hook follows it:
 * one task, one charge (docs/protocol.md, "Idempotency").
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
  const maxRetries = options.retry ?? 3;
  const journaled = session && resumeKey !== undefined ? { session, key: resumeKey } : undefined;
  const mutation = useMutation<SubmitAnswer, TaskwireError, SubmitTaskVariables<Params>>({
    mutationFn: (variables: SubmitTaskVariables<Params>) =>
      coalescer.run(task, variables, async (idempotencyKey) => {
        const { params, notification } = variables;
        // Before the request leaves; a start the journal cannot keep is refused here, unsent.
        journaled?.session.journal.begin(journaled.session.scope, {
          key: journaled.key,
          task,
          mode: 'submit',
          startedAt: Date.now(),
          idempotencyKey,
          body: { params, ...(notification ? { notification } : {}) },
        });
        return client.submit(task, params, {
          idempotencyKey,
          ...(notification ? { notification } : {}),
        });
      }),
    retry: (failureCount, error) =>
      TaskwireError.isInstance(error) && error.retryable && failureCount < maxRetries,
    retryDelay: submitRetryDelay,
    onSuccess: ({ id, status }) => {
      if (!journaled) return;
      const { session: own, key } = journaled;
      // Replaces the start, whose body leaves the storage with it.
      own.journal.record(own.scope, {
        key,
        task,
        id,
        mode: 'submit',
        status,
        startedAt: Date.now(),
      });
    },
    onError: (error) => {
      // The service refused the Submit (a 4xx that will not heal): no task was made to follow.
      if (journaled && error.code === 'http' && !error.retryable)
        journaled.session.forgetStart(journaled.key);
    },
  });
  const { mutate } = mutation;
  // After a reload mid-request: the same Submit again, same key, so the service answers its task.
  useEffect(() => {
    if (!session || resumeKey === undefined) return;
    const start = session.journal
      .starts(session.scope)
      .find((candidate) => candidate.key === resumeKey && candidate.task === task);
    if (start?.mode !== 'submit' || !start.body || start.idempotencyKey === undefined) return;
    mutate({
      params: start.body.params as Params,
      ...(start.body.notification === undefined
        ? {}
        : { notification: start.body.notification as NotificationRequest }),
      idempotencyKey: start.idempotencyKey,
    });
  }, [session, resumeKey, task, mutate]);
  return mutation;
}
