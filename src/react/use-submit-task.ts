'use client';
import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { TaskwireError } from '../client/errors.js';
import type { SubmitAnswer } from '../protocol/start-answers.js';
import type { TaskName, TaskParams } from '../protocol/task-schemas.js';
import type { SubmitTaskVariables, UseSubmitTaskOptions } from '../query/hook-options.js';
import {
  submitCutByReload,
  submitTaskMutationOptions,
  submitWriteAheadOf,
} from '../query/submit-task-mutation.js';
import { createSubmitCoalescer } from '../state/submit-coalescer.js';
import type { RegisteredTasks } from '../query/register.js';
import { useJournalSession, useTaskClient } from './taskwire-provider.js';

export type { SubmitTaskVariables, UseSubmitTaskOptions } from '../query/hook-options.js';

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
  const client = useTaskClient();
  const session = useJournalSession();
  const { resumeKey } = options;
  const [coalescer] = useState(createSubmitCoalescer);
  const { tasks } = client;
  const writeAhead = useMemo(
    () => submitWriteAheadOf(session, resumeKey, task, { tasks }),
    [session, resumeKey, task, tasks],
  );
  const mutation = useMutation(
    submitTaskMutationOptions(client, task, { coalescer, writeAhead, retry: options.retry }),
  );
  const { mutate } = mutation;
  // After a reload mid-request: the same Submit again, same key, so the service answers its task.
  useEffect(() => {
    const cut = submitCutByReload<TaskParams<RegisteredTasks, Name>>(writeAhead);
    if (cut) mutate(cut);
  }, [writeAhead, mutate]);
  return mutation;
}
