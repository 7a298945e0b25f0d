'use client';
import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { TaskwireError } from '../client/errors.js';
import { clampDelay, MAX_RETRY_AFTER_MS } from '../protocol/retry-after.js';
import type { SubmitAnswer } from '../protocol/start-answers.js';
import { createSubmitCoalescer } from '../state/submit-coalescer.js';
import type { NotificationRequest } from '../protocol/notification.js';
import type { TaskName, TaskParams } from '../protocol/task-schemas.js';
import type { RegisteredTasks } from './register.js';
import { useProvidedJournal, useTaskClient } from './taskwire-provider.js';

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

/** The delay before retry number `attempt`: the service's `Retry-After`, else 1 s, 2 s, 4 s… up to 10 s. */
export function submitRetryDelay(attempt: number, error: unknown): number {
  const retryAfterMs = TaskwireError.isInstance(error) ? error.retryAfterMs : undefined;
  // A service's hint is bounded before it reaches a timer (docs/protocol.md, "Get Result").
  return retryAfterMs === undefined
    ? Math.min(10_000, 1000 * 2 ** attempt)
    : clampDelay(retryAfterMs, MAX_RETRY_AFTER_MS);
}

/**
 * Submits a task. Each call gets an idempotency key of its own and its retries reuse it; a call with
 * the same params and notification as one still in flight joins it, so a double click or a StrictMode
 * double effect makes one task, and a dropped connection never makes two.
 */
export function useSubmitTask<Name extends TaskName<RegisteredTasks>>(
  task: Name,
  options: UseSubmitTaskOptions = {},
): UseSubmitTaskResult<TaskParams<RegisteredTasks, Name>> {
  const client = useTaskClient();
  const journal = useProvidedJournal();
  const { resumeKey } = options;
  const [coalescer] = useState(createSubmitCoalescer);
  const maxRetries = options.retry ?? 3;
  return useMutation<
    SubmitAnswer,
    TaskwireError,
    SubmitTaskVariables<TaskParams<RegisteredTasks, Name>>
  >({
    mutationFn: (variables: SubmitTaskVariables<TaskParams<RegisteredTasks, Name>>) =>
      coalescer.run(task, variables, (idempotencyKey) =>
        client.submit(task, variables.params, {
          idempotencyKey,
          ...(variables.notification ? { notification: variables.notification } : {}),
        }),
      ),
    retry: (failureCount, error) =>
      TaskwireError.isInstance(error) && error.retryable && failureCount < maxRetries,
    retryDelay: submitRetryDelay,
    onSuccess: ({ id, status }) => {
      if (!journal || resumeKey === undefined) return;
      const startedAt = Date.now();
      journal.record(client.scope, { key: resumeKey, task, id, mode: 'submit', status, startedAt });
    },
  });
}
