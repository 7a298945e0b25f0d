/**
 * The scripted tasks the stream tests of both bindings feed their hook with: progress events in one
 * burst, or one per chunk, a wait apart.
 */
import { scriptTask, type ScriptStep } from '../../src/testing/index.js';

/** `count` progress events, each after a wait of `waitMs` (a chunk each), or all in one burst. */
export function progressSteps(count: number, waitMs?: number): ScriptStep[] {
  return Array.from({ length: count }, (_, index) => [
    { progress: [((index + 1) / count) * 100, 1] } as const,
    ...(waitMs === undefined ? [] : [{ wait: waitMs }]),
  ]).flat();
}

/** `burst`: 10,000 progress events in one chunk, then `{ count: 10000 }`. */
export const burstTask = scriptTask('burst', [
  ...progressSteps(10_000),
  { complete: { count: 10_000 } },
]);
