'use client';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { TaskwireError } from '../client/errors.js';
import { createRecordEventTracker } from '../state/event-tracker.js';
import type { TaskRecord } from '../protocol/records.js';
import type { TaskName, TaskResult } from '../protocol/task-schemas.js';
import type { UseTaskResultOptions } from '../query/hook-options.js';
import { watchedRecordQuery } from '../query/hook-queries.js';
import type { RegisteredTasks } from '../query/register.js';
import { useProvidedJournal, useTaskClient } from './taskwire-provider.js';

export type { UseTaskResultOptions } from '../query/hook-options.js';

/** What {@link useTaskResult} returns: TanStack Query's query result over the TaskRecord. */
export type UseTaskResultResult<Result = unknown> = UseQueryResult<
  TaskRecord<Result>,
  TaskwireError
>;

/**
 * Reads a task's record and polls it until COMPLETED or FAILED, then never again. Idle while `id` is
 * `undefined`. Every component watching one task shares one request per poll; with a journal on the
 * provider, so do the tabs of the origin (one tab polls, the others take its records).
 */
export function useTaskResult<Name extends TaskName<RegisteredTasks>>(
  task: Name,
  id: string | undefined,
  options: UseTaskResultOptions = {},
): UseTaskResultResult<TaskResult<RegisteredTasks, Name>> {
  const client = useTaskClient();
  const journal = useProvidedJournal();
  const query = useQuery(watchedRecordQuery(client, task, id, options, journal));

  const onEvent = useRef(options.onEvent);
  useEffect(() => {
    onEvent.current = options.onEvent;
  });
  // Each custom event once, by id, however often it is polled.
  const [newEvents] = useState(createRecordEventTracker);
  const record = query.data;
  useEffect(() => {
    if (record) for (const event of newEvents(record)) onEvent.current?.(event);
  }, [record, newEvents]);

  return query;
}
