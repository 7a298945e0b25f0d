/**
 * What the checks of taskwire/check are tested against: the reference service with tokens that
 * are not the public demo ones (so a test can tell that no output ever holds them), a task that
 * stays silent for the keep-alive check, and the options that make a run fast on its time scale.
 */
import { onTestFinished } from 'vitest';
import {
  createReferenceService,
  demoTasks,
  type ReferenceService,
} from '../../src/reference/index.js';
import { scriptTask } from '../../src/testing/index.js';
import type { CheckServiceOptions } from '../../src/check/index.js';

export const USER_TOKEN = 'user-secret-token-1a2b3c';
export const OTHER_USER_TOKEN = 'other-secret-token-4d5e6f';
export const CLIENT_TOKEN = 'client-secret-token-7a8b9c';
export const TOKENS = [USER_TOKEN, OTHER_USER_TOKEN, CLIENT_TOKEN];

/** Every delay of the tasks and the keep-alive period, times this. */
export const TIME_SCALE = 0.1;

/** A task whose stream says nothing for 30 nominal seconds (3 s here, two keep-alive periods), then completes. */
export const silentTask = scriptTask('silent-report', [{ wait: 30_000 }, { complete: {} }]);

/**
 * A task that works in silence for 8 nominal seconds (0.8 s here), then reports its end all at once:
 * a burst at the end that is the task's own, not a held-back stream.
 */
export const quietTask = scriptTask('quiet-summary', [
  { wait: 8000 },
  { progress: [100, 0] },
  { partial: { lines: 1 } },
  { complete: { lines: 1 } },
]);

/** A reference service for the checks, closed when the test ends. */
export function checkedService(): ReferenceService {
  const service = createReferenceService({
    timeScale: TIME_SCALE,
    tasks: [...demoTasks, silentTask, quietTask],
    userTokens: { [USER_TOKEN]: 'alice', [OTHER_USER_TOKEN]: 'bob' },
    clientTokens: [CLIENT_TOKEN],
  });
  onTestFinished(() => service.close());
  return service;
}

/** The options of a fast run: render-video over 100 ms, read every 20 ms. */
export const FAST: Omit<CheckServiceOptions, 'baseUrl' | 'fetch'> = {
  userToken: USER_TOKEN,
  clientToken: CLIENT_TOKEN,
  otherUserToken: OTHER_USER_TOKEN,
  task: 'render-video',
  params: { frames: 10, frameMs: 200 },
  pollIntervalMs: 20,
  taskTimeoutMs: 10_000,
  requestTimeoutMs: 5000,
  closeWithinMs: 300,
  keepAliveMs: 15_000 * TIME_SCALE,
};

/** The keep-alive check's task and options. */
export const WITH_KEEP_ALIVE: Pick<CheckServiceOptions, 'keepAliveTask'> = {
  keepAliveTask: { task: silentTask.name },
};
