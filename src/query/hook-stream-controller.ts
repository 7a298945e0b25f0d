/**
 * The stream controller of one `useTaskStream`, for every binding: the controller of src/state
 * with the hook's options and, with a `resumeKey`, the task to take up after a reload.
 */
import type { StreamStartJournal } from '../state/stream-start-journal.js';
import {
  createTaskStreamController,
  type TaskStreamCallbacks,
  type TaskStreamController,
} from '../state/task-stream-controller.js';
import type { UseTaskStreamOptions } from './hook-options.js';

/**
 * The controller of a `useTaskStream` with `callbacks` and `options`. The task to resume is looked up
 * at the first client snapshot or subscription, never in a server render or a hydrating one: the
 * journal reads storage and the clock, which the server has not (docs/protocol.md, "The hooks").
 */
export function hookStreamController<Params, Result, Event extends { type: string }>(
  callbacks: TaskStreamCallbacks<Params, Result, Event>,
  { maxEvents, recoverForMs }: UseTaskStreamOptions<Event>,
  startJournal: StreamStartJournal | undefined,
): TaskStreamController<Params, Result, Event> {
  // The controller takes an option left undefined as its default.
  return createTaskStreamController<Params, Result, Event>({
    ...callbacks,
    maxEvents,
    recoverForMs,
    resume: startJournal && (() => startJournal.taskToResume()),
  });
}
