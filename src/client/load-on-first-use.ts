/**
 * Parts of the client that not every app uses (starting tasks, the stream path) or not on every call
 * (reading an error answer) are loaded with `import()` on first use, so a bundler puts each in a
 * chunk of its own and an app that only submits and polls never downloads them. The hooks that use a part call its loader on mount, ahead of the first call.
 */
import { TaskwireError } from './errors.js';

/**
 * Wraps a module import so that it runs once. A failed load (a chunk that could not be fetched) is
 * forgotten, so the next call tries again, and rejects with a retryable `network` error: nothing was
 * sent to the service.
 */
export function onFirstUse<Module>(load: () => Promise<Module>): () => Promise<Module> {
  let loading: Promise<Module> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw new TaskwireError('network', 'A part of the client could not be loaded.', {
        cause: error,
      });
    }));
}

/** Loads the stream path (reader, parser, event checks). */
export const loadStreamPath = onFirstUse(() => import('./stream/task-event-stream.js'));

/** Loads the ways to start a task (Submit, Execute, Options, a stream's POST) and their checks. */
export const loadStartPaths = onFirstUse(() => import('./start-task.js'));

/** Loads the reading of error answers: their body, cut at 64 KiB, and what it says. */
export const loadErrorAnswers = onFirstUse(() => import('./error-answer.js'));

/** Loads the activity feed's builder, on the first activity while someone listens. */
export const loadActivity = onFirstUse(() => import('./activity.js'));
