/**
 * How a stream started under a `resumeKey` is kept in the provider's journal (docs/protocol.md,
 * "The hooks"), for every binding of `useTaskStream`: its start written ahead, its task id once the
 * service took it, the task to take up after a reload, and its end.
 */
import type { TaskJournal } from './task-journal.js';
import type { TaskStreamStatus } from './task-stream-state.js';

/** One `resumeKey`'s streams of one task, in one scope of a journal. */
export interface StreamJournal {
  /** Writes the start ahead, so a start cut by a reload before its task id came is listed, as unknown. */
  begin(): void;
  /** Records task `id` under the key once the service took it. */
  record(id: string): void;
  /** The task the key started before a reload, to take up, or `undefined` for none. */
  resume(): string | undefined;
}

/** The {@link StreamJournal} of `key` for streams of `task` in `scope` of `journal`. */
export function streamJournal(
  journal: TaskJournal,
  scope: string,
  task: string,
  key: string,
): StreamJournal {
  return {
    begin: () => journal.begin(scope, { key, task, mode: 'stream', startedAt: Date.now() }),
    record: (id) =>
      journal.record(scope, {
        key,
        task,
        id,
        mode: 'stream',
        status: 'IN_PROGRESS',
        startedAt: Date.now(),
      }),
    resume: () =>
      journal.entries(scope).find((entry) => entry.key === key && entry.task === task)?.id,
  };
}

/**
 * The status a journal entry takes when its stream shows `status`: `COMPLETED` or `FAILED` once the
 * task ended (so a reload after it shows the outcome, not a recovery), else `undefined`.
 */
export function streamEndStatus(status: TaskStreamStatus): 'COMPLETED' | 'FAILED' | undefined {
  return status === 'completed' ? 'COMPLETED' : status === 'failed' ? 'FAILED' : undefined;
}
