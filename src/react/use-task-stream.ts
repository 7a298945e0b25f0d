'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { TaskwireError } from '../client/errors.js';
import type { PollingPolicyOptions } from '../state/polling-policy.js';
import { createTaskStreamController } from '../state/task-stream-controller.js';
import type { TaskStreamState } from '../state/task-stream-state.js';
import type {
  TaskCustomEvent,
  TaskName,
  TaskParams,
  TaskResult,
} from '../protocol/task-schemas.js';
import { taskwireKeys } from './query-options.js';
import type { RegisteredTasks } from './register.js';
import { useTaskClient } from './taskwire-provider.js';
import { useStartPaths } from './use-start-paths.js';
import { useTaskResult } from './use-task-result.js';

/** Options of {@link useTaskStream}. */
export interface UseTaskStreamOptions<Event> {
  /** How many custom events `events` keeps, the most recent. Defaults to `100`. */
  maxEvents?: number;
  /** Called for every custom event as it arrives, even when renders are coalesced. */
  onEvent?: (event: Event) => void;
  /** The polling schedule used while `recovering`. */
  polling?: PollingPolicyOptions;
}

/** What {@link useTaskStream} returns: the stream's state plus `start` and `stop`. */
export interface UseTaskStreamResult<Params, Result, Event> extends TaskStreamState<Result, Event> {
  /** Starts the task as a stream; the same params while one runs join it, others replace it. */
  start: (params: Params) => void;
  /** Closes the stream; the task itself goes on at the service. */
  stop: () => void;
}

/**
 * Runs a task as a server-sent event stream and follows its progress, partial results and custom
 * events. Renders at most once per animation frame however fast events come; the final state at
 * once, or on the next frame when this one has already rendered. If the connection breaks, the outcome is read with Get Result (`recovering`), never
 * by posting again. A finished stream writes its TaskRecord into the cache `useTaskResult` reads.
 */
export function useTaskStream<Name extends TaskName<RegisteredTasks>>(
  task: Name,
  options: UseTaskStreamOptions<TaskCustomEvent<RegisteredTasks, Name>> = {},
): UseTaskStreamResult<
  TaskParams<RegisteredTasks, Name>,
  TaskResult<RegisteredTasks, Name>,
  TaskCustomEvent<RegisteredTasks, Name>
> {
  type Params = TaskParams<RegisteredTasks, Name>;
  type Result = TaskResult<RegisteredTasks, Name>;
  type Event = TaskCustomEvent<RegisteredTasks, Name>;
  const client = useTaskClient();
  const queryClient = useQueryClient();
  const [controller] = useState(() =>
    createTaskStreamController<Params, Result, Event>({
      openStream: (params, streamOptions) => client.stream(task, params, streamOptions),
      ...(options.maxEvents !== undefined ? { maxEvents: options.maxEvents } : {}),
    }),
  );
  // The controller lives as long as the component; give it the latest props after each render.
  const { onEvent } = options;
  useEffect(() => {
    controller.configure({
      openStream: (params, streamOptions) => client.stream(task, params, streamOptions),
      ...(onEvent ? { onEvent } : {}),
      onRecord: (record) => queryClient.setQueryData(taskwireKeys.result(task, record.id), record),
    });
  }, [controller, client, queryClient, task, onEvent]);
  const state = useSyncExternalStore(
    controller.subscribe,
    controller.getSnapshot,
    controller.getSnapshot,
  );

  useStartPaths(true);

  // Disposal waits a tick: StrictMode unmounts and remounts at once, and must find the stream alive.
  const pendingDispose = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    clearTimeout(pendingDispose.current);
    return () => {
      pendingDispose.current = setTimeout(() => controller.dispose(), 0);
    };
  }, [controller]);

  const recoveringId = state.status === 'recovering' ? state.taskId : undefined;
  const recovery = useTaskResult(
    task,
    recoveringId,
    options.polling ? { polling: options.polling } : {},
  );
  const { data: record, error } = recovery;
  useEffect(() => {
    if (record) controller.applyRecord(record);
  }, [controller, record]);
  useEffect(() => {
    if (error && !(TaskwireError.isInstance(error) && error.retryable))
      controller.applyError(error);
  }, [controller, error]);

  return { ...state, start: controller.start, stop: controller.stop };
}
