/**
 * What {@link TaskListView} says; status words come from `StatusMessages`, credits from
 * `CreditMessages`. A start `time` is written by `Intl.DateTimeFormat` in the locale: the time alone
 * when `today`, else date and time.
 */
export interface TaskListMessages {
  /** The heading when no `label` is given: "Tasks". */
  label: string;
  /** Shown when there are no tasks and no `emptyText` is given: "No tasks yet.". */
  empty: string;
  /** A task's progress, `figure` the formatted percentage: "45% done". */
  done: (percent: number, figure: string) => string;
  /** When a task started: "Started 14:05". */
  started: (time: string, today: boolean) => string;
  /** The dismiss button: "Dismiss". */
  dismiss: string;
  /** The dismiss button's accessible name: "Dismiss render-video, started 14:05". */
  dismissLabel: (task: string, time: string, today: boolean) => string;
  /**
   * In place of the status, for a task whose reads failed for good, by the answer's HTTP status:
   * "No longer at the service" (404, 410), "Not signed in to read it" (401), else "Can’t be read".
   */
  readFailed: (status: number | undefined) => string;
  /**
   * In place of the status, for a start cut by a reload before the service answered: "Outcome
   * unknown".
   */
  outcomeUnknown: string;
}

/** English task list wording, the default. */
export const taskListMessages: TaskListMessages = {
  label: 'Tasks',
  empty: 'No tasks yet.',
  done: (_percent, figure) => `${figure} done`,
  started: (time) => `Started ${time}`,
  dismiss: 'Dismiss',
  dismissLabel: (task, time) => `Dismiss ${task}, started ${time}`,
  readFailed: (status) =>
    status === 404 || status === 410
      ? 'No longer at the service'
      : status === 401
        ? 'Not signed in to read it'
        : 'Can’t be read',
  outcomeUnknown: 'Outcome unknown',
};
