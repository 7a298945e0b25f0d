'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { TaskStreamControls, UseTaskStreamOptions } from '../query/hook-options.js';
import { hookStreamController } from '../query/hook-stream-controller.js';
import { queryStreamCallbacks } from '../query/query-stream-callbacks.js';
import { createStreamJournals } from '../state/stream-end-journal.js';
import type { TaskStreamState } from '../state/task-stream-state.js';
import type {
  TaskCustomEvent,
  TaskName,
  TaskParams,
  TaskResult,
} from '../protocol/task-schemas.js';
import type { RegisteredTasks } from '../query/register.js';
import { useProvidedJournal, useTaskClient } from './taskwire-provider.js';

export type { UseTaskStreamOptions } from '../query/hook-options.js';

/** What {@link useTaskStream} returns: the stream's state plus `start`, `attach` and `stop`. */
export interface UseTaskStreamResult<Params, Result, Event>
  extends TaskStreamState<Result, Event>, TaskStreamControls<Params> {}

/**
 * Runs a task as a server-sent event stream and follows its progress, partial results and custom
 * events. Renders at most once per animation frame however fast events come; the final state at
 * once, or on the next frame when this one has already rendered. If the connection breaks, a
 * service that offers resumable streams is read again after the last message the page had (every
 * message once, in order, over one connection for all the page's streams); any other's
 * outcome is read with Get Result (`recovering`, sharing the poll of every `useTaskResult` of the
 * task, and with a journal on the provider that of the other tabs), never by posting again. While
 * it streams (once per frame) and once it has completed, it writes its TaskRecord into the cache
 * that `useTaskResult`, `useTaskList` and `<TaskList>` read, so every view of the task shows the
 * same progress. The stream is aborted when the component unmounts.
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
  const journal = useProvidedJournal();
  const { resumeKey } = options;
  const { scope } = client;
  // The journal of its starts (with a resumeKey) and of its ends.
  const { start: startJournal, end: endJournal } = useMemo(
    () => createStreamJournals({ journal, scope, resumeKey, task }),
    [journal, scope, resumeKey, task],
  );
  const callbacks = () =>
    queryStreamCallbacks({ queryClient, client, journal, startJournal }, task, options);
  const [controller] = useState(() =>
    hookStreamController<Params, Result, Event>(callbacks(), options, startJournal),
  );
  // The controller lives as long as the component; give it the latest props after each render.
  useEffect(() => {
    controller.configure(callbacks());
  });
  // Hydration renders the server's snapshot (idle), so the HTML matches; a task to resume shows
  // right after it. A render with nothing to hydrate takes it up from its first render.
  const state = useSyncExternalStore(
    controller.subscribe,
    controller.getSnapshot,
    controller.getServerSnapshot,
  );
  // The journal follows the task to its end, so a reload after it shows the outcome, not a
  // recovery; a start refused before it made a task leaves no list row (docs/protocol.md, "The hooks").
  useEffect(() => endJournal(state), [endJournal, state]);
  return { ...state, start: controller.start, attach: controller.attach, stop: controller.stop };
}
