'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { clientStreamCallbacks } from '../state/client-stream-callbacks.js';
import type { PollingPolicyOptions } from '../state/polling-policy.js';
import { streamSlots } from '../state/stream-slots.js';
import { createStreamStartJournal, streamEndStatus } from '../state/stream-start-journal.js';
import { lacksFinalUsage, mergeStreamRecord } from '../state/merge-stream-record.js';
import { createTaskStreamController } from '../state/task-stream-controller.js';
import type { TaskStreamState } from '../state/task-stream-state.js';
import type { TaskRecord } from '../protocol/records.js';
import type {
  TaskCustomEvent,
  TaskName,
  TaskParams,
  TaskResult,
} from '../protocol/task-schemas.js';
import { taskwireKeys } from './query-options.js';
import type { RegisteredTasks } from './register.js';
import { useProvidedJournal, useTaskClient } from './taskwire-provider.js';
import { queryRecordWatcher } from './query-record-watcher.js';

/** Options of {@link useTaskStream}. */
export interface UseTaskStreamOptions<Event> {
  /** How many custom events `events` keeps, the most recent. Defaults to `100`. */
  maxEvents?: number;
  /** Called for every custom event as it arrives, even when renders are coalesced. */
  onEvent?: (event: Event) => void;
  /** The polling schedule used while `recovering`. */
  polling?: PollingPolicyOptions;
  /**
   * How long `recovering` may go without reading the task's record (the service gone, say) before
   * it gives up with status `error`, in milliseconds. Defaults to `600000` (10 minutes).
   */
  recoverForMs?: number;
  /**
   * Names the task this hook starts in the provider's journal, so that after a reload the same hook
   * takes it up again: `recovering` from its first render (on a server-rendered page, from right
   * after hydration), nothing posted again. Where the service offers resumable streams it reads the
   * task's whole sequence from its first message (every custom event with its payload, once), else
   * its outcome with Get Result. Needs a `journal` on the provider; defaults to none.
   */
  resumeKey?: string;
}

/** What {@link useTaskStream} returns: the stream's state plus `start`, `attach` and `stop`. */
export interface UseTaskStreamResult<Params, Result, Event> extends TaskStreamState<Result, Event> {
  /** Starts the task as a stream; the same params while one runs join it, others replace it. */
  start: (params: Params) => void;
  /**
   * Follows a task started elsewhere (another tab, another device, the app's server) by its id,
   * posting nothing: its whole sequence from its first message where the service offers resumable
   * streams, else its record with Get Result. Replaces what the hook followed.
   */
  attach: (taskId: string) => void;
  /**
   * Closes the page's reading of the task. It is not a cancel: the service has none, so the task
   * runs on (and is paid for), its log is kept, and `attach` can follow it again.
   */
  stop: () => void;
}

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
  const { onEvent, polling, resumeKey } = options;
  const { scope } = client;
  const startJournal = useMemo(
    () =>
      journal && resumeKey !== undefined
        ? createStreamStartJournal({ journal, scope, key: resumeKey, task })
        : undefined,
    [journal, scope, resumeKey, task],
  );
  // The client's slots, made once per client: they read the page's Web Locks when made.
  const takeSlot = useMemo(() => streamSlots(client.baseUrl, client.maxOpenStreams), [client]);
  const callbacks = () =>
    clientStreamCallbacks({
      client,
      task,
      takeSlot,
      watchRecord: queryRecordWatcher<Result>(queryClient, client, task, polling, journal),
      // One task, one truth on a page: every view of the task reads this entry.
      onRecord: (record) => {
        const queryKey = taskwireKeys.result(scope, task, record.id);
        const cached = queryClient.setQueryData<TaskRecord<Result>>(queryKey, (previous) =>
          mergeStreamRecord(previous, record),
        );
        // Get Result may have the usage the stream left out: the views watching read it once.
        if (cached && lacksFinalUsage(cached)) {
          void queryClient.invalidateQueries({ queryKey, exact: true });
        }
      },
      onEvent,
      journal: startJournal,
    });
  const [controller] = useState(() =>
    createTaskStreamController<Params, Result, Event>({
      ...callbacks(),
      ...(options.maxEvents !== undefined ? { maxEvents: options.maxEvents } : {}),
      ...(options.recoverForMs !== undefined ? { recoverForMs: options.recoverForMs } : {}),
      // Looked up at the first client snapshot, never in a server render or a hydrating one: the
      // journal reads storage and the clock, which the server has not (docs/protocol.md, "The hooks").
      ...(startJournal ? { resume: () => startJournal.taskToResume() } : {}),
    }),
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
  // The journal follows the task to its end, so a reload after it shows the outcome, not a recovery.
  const ended = streamEndStatus(state.status);
  useEffect(() => {
    if (journal && ended && state.taskId !== undefined) {
      journal.update(scope, state.taskId, { status: ended });
    }
  }, [journal, scope, ended, state.taskId]);
  // A start refused before it made a task leaves no list row (docs/protocol.md, "The hooks").
  const errorBeforeTaskId =
    state.status === 'error' && state.taskId === undefined ? state.error : undefined;
  useEffect(() => {
    if (errorBeforeTaskId) startJournal?.failedBeforeTaskId(errorBeforeTaskId);
  }, [startJournal, errorBeforeTaskId]);
  // Written ahead: a start cut by a reload before its task id arrived is listed, as unknown.
  const start = useCallback(
    (params: Params) => {
      startJournal?.begin(params);
      controller.start(params);
    },
    [controller, startJournal],
  );
  return { ...state, start, attach: controller.attach, stop: controller.stop };
}
