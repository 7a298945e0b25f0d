/**
 * What the hooks of `taskwire` and the composables of `taskwire/vue` take, written once: the two
 * bindings have the same names and the same behaviour (docs/protocol.md, "The hooks"), so they take
 * the same options and `mutate` variables.
 */
import type { NotificationRequest } from '../protocol/notification.js';
import type { EventReference } from '../protocol/records.js';
import type { PollingPolicyOptions } from '../state/polling-policy.js';

/** Options of `useTaskResult`. */
export interface UseTaskResultOptions {
  /** Set to `false` to pause the query. Defaults to `true`. */
  enabled?: boolean;
  /** The polling schedule: floor, ceiling, backoff, deadline (see `PollingPolicyOptions`). */
  polling?: PollingPolicyOptions;
  /** Called once for each custom event of the task, by id, however often it is polled. */
  onEvent?: (event: EventReference) => void;
}

/** Options of `useTaskOptions`. */
export interface UseTaskOptionsOptions {
  /**
   * How long params must hold still before they are priced, in milliseconds; `0` prices each
   * change at once, in the render that makes it. Defaults to `250`.
   */
  debounceMs?: number;
  /** Set to `false` to pause the query. Defaults to `true`. */
  enabled?: boolean;
  /** How long a quote stays fresh, in milliseconds. Defaults to `300000`. */
  staleTime?: number;
}

/** What `mutate` of `useSubmitTask` takes. */
export interface SubmitTaskVariables<Params> {
  /** The task's params. */
  params: Params;
  /** Asks for a notification on completion (docs/protocol.md, "Notifications"). */
  notification?: NotificationRequest;
  /** The idempotency key; defaults to a fresh one per call, reused by that call's retries. */
  idempotencyKey?: string;
}

/** Options of `useSubmitTask`. */
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

/** What `mutate` of `useExecuteTask` takes. */
export interface ExecuteTaskVariables<Params> {
  /** The task's params. */
  params: Params;
}

/** Options of `useTaskStream`. */
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

/** Options of `useTaskList`. */
export interface UseTaskListOptions {
  /** Keeps only the entries of this task name. Defaults to every task. */
  task?: string;
  /**
   * `true` keeps only the entries that are not terminal (neither COMPLETED nor FAILED) and whose
   * reads have not failed for good, and the starts whose outcome is unknown. Defaults to `false`.
   */
  active?: boolean;
  /**
   * The polling schedule of the entries that are not terminal (see `PollingPolicyOptions`); the
   * same as a `useTaskResult` of the task gets by default, so the two share one poll.
   */
  polling?: PollingPolicyOptions;
}

/** What `useTaskStream` gives besides the stream's state. */
export interface TaskStreamControls<Params> {
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
