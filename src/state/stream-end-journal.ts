/**
 * What the journal learns from how a stream ends (docs/protocol.md, "The hooks", on the journal),
 * framework-free: a binding's `useTaskStream` hands it each state its stream shows. A task that
 * ended, COMPLETED or FAILED, has its entry say so, so a reload after it shows the outcome, not a
 * recovery; a start refused before it made a task is forgotten, so it leaves no list row.
 */
import {
  createStreamStartJournal,
  streamEndStatus,
  type StreamStartJournal,
} from './stream-start-journal.js';
import type { TaskJournal } from './task-journal.js';
import type { TaskStreamState } from './task-stream-state.js';

/**
 * Takes each state a stream shows. Shown again, an end changes nothing more: the journal skips an
 * entry's status it already has, and a start it has forgotten.
 */
export type StreamEndJournal = (
  state: Pick<TaskStreamState, 'status' | 'taskId' | 'error'>,
) => void;

/** What a stream's journals are made of: the provider's journal, the client's scope, the hook's key. */
export interface StreamJournalsOptions {
  /** The provider's journal; without one nothing is written. */
  journal: TaskJournal | undefined;
  /** The client's scope. */
  scope: string;
  /** The hook's `resumeKey`; without one no start is written ahead. */
  resumeKey?: string | undefined;
  /** The task name. */
  task: string;
}

/** The journals of one `useTaskStream`: of its starts (with a `resumeKey`) and of its ends. */
export function createStreamJournals({ journal, scope, resumeKey, task }: StreamJournalsOptions): {
  start: StreamStartJournal | undefined;
  end: StreamEndJournal;
} {
  const start =
    journal && resumeKey !== undefined
      ? createStreamStartJournal({ journal, scope, key: resumeKey, task })
      : undefined;
  const end: StreamEndJournal = ({ status, taskId, error }) => {
    const ended = streamEndStatus(status);
    if (journal && ended && taskId !== undefined) journal.update(scope, taskId, { status: ended });
    // The error of a start that never got a task id: a refusal made no task.
    if (status === 'error' && taskId === undefined && error) start?.failedBeforeTaskId(error);
  };
  return { start, end };
}
