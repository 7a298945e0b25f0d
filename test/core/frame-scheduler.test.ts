import { describe, expect, it } from 'vitest';
import { createFrameScheduler } from '../../src/core/frame-scheduler.js';

describe('createFrameScheduler', () => {
  it('flushes once per frame however often it is asked', () => {
    const frames: Array<() => void> = [];
    let flushes = 0;
    const scheduler = createFrameScheduler(
      () => (flushes += 1),
      (callback) => {
        frames.push(callback);
        return () => frames.splice(frames.indexOf(callback), 1);
      },
    );
    for (let index = 0; index < 1000; index += 1) scheduler.schedule();
    expect(frames).toHaveLength(1);
    frames.shift()?.();
    expect(flushes).toBe(1);
    scheduler.schedule();
    expect(frames).toHaveLength(1);
  });

  it('flushes at once on flushNow and cancels the pending frame', () => {
    const frames: Array<() => void> = [];
    let flushes = 0;
    const scheduler = createFrameScheduler(
      () => (flushes += 1),
      (callback) => {
        frames.push(callback);
        return () => frames.splice(frames.indexOf(callback), 1);
      },
    );
    scheduler.schedule();
    scheduler.flushNow();
    expect(flushes).toBe(1);
    expect(frames).toHaveLength(0);
    scheduler.schedule();
    scheduler.cancel();
    expect(frames).toHaveLength(0);
    expect(flushes).toBe(1);
  });

  it('falls back to a timer where there is no requestAnimationFrame', async () => {
    let flushes = 0;
    const scheduler = createFrameScheduler(() => (flushes += 1));
    scheduler.schedule();
    scheduler.schedule();
    expect(flushes).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(flushes).toBe(1);
  });
});
