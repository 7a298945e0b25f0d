import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFrameScheduler } from '../../src/state/frame-scheduler.js';

/** Animation frames that run only when the test ticks them. */
function manualFrames() {
  const waiting: Array<() => void> = [];
  return {
    waiting,
    request(callback: () => void) {
      waiting.push(callback);
      return () => {
        const index = waiting.indexOf(callback);
        if (index >= 0) waiting.splice(index, 1);
      };
    },
    tick() {
      for (const callback of waiting.splice(0)) callback();
    },
  };
}

/** A scheduler that counts its flushes, on `request`'s frames (the default frames when not given). */
function countingScheduler(
  request?: (callback: () => void) => () => void,
  isHidden?: () => boolean,
) {
  let flushes = 0;
  const scheduler = createFrameScheduler(() => (flushes += 1), request, isHidden);
  return { scheduler, flushes: () => flushes };
}

/** Stubs the page's animation frames; returns the callbacks waiting, by handle. */
function stubAnimationFrames(): Map<number, () => void> {
  const waiting = new Map<number, () => void>();
  let nextHandle = 1;
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => {
    waiting.set(nextHandle, callback);
    return nextHandle++;
  });
  vi.stubGlobal('cancelAnimationFrame', (handle: number) => waiting.delete(handle));
  return waiting;
}

/** Runs the frame callbacks waiting in `waiting` (those asked for meanwhile wait for the next). */
function runFrame(waiting: Map<number, () => void>): void {
  const due = [...waiting.values()];
  waiting.clear();
  for (const callback of due) callback();
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('createFrameScheduler', () => {
  it('flushes once per frame however often it is asked', () => {
    const frames = manualFrames();
    const { scheduler, flushes } = countingScheduler(frames.request);
    for (let index = 0; index < 1000; index += 1) scheduler.schedule();
    expect(frames.waiting).toHaveLength(1);
    frames.tick();
    expect(flushes()).toBe(1);
    scheduler.schedule();
    expect(frames.waiting).toHaveLength(1);
    frames.tick();
    expect(flushes()).toBe(2);
  });

  it('flushes at once on flushNow, and the pending frame then flushes nothing', () => {
    const frames = manualFrames();
    const { scheduler, flushes } = countingScheduler(frames.request);
    scheduler.schedule();
    scheduler.flushNow();
    expect(flushes()).toBe(1);
    frames.tick();
    expect(flushes()).toBe(1);
    scheduler.schedule();
    scheduler.cancel();
    expect(frames.waiting).toHaveLength(0);
    frames.tick();
    expect(flushes()).toBe(1);
  });

  it('flushes at once on flushSoon when this frame has not flushed yet', () => {
    const frames = manualFrames();
    const { scheduler, flushes } = countingScheduler(frames.request);
    scheduler.schedule();
    frames.tick();
    expect(flushes()).toBe(1);
    // The frame after the one that flushed: nothing ran in it yet.
    frames.tick();
    scheduler.schedule();
    scheduler.flushSoon();
    expect(flushes()).toBe(2);
    frames.tick();
    expect(flushes()).toBe(2);
  });

  it('moves flushSoon to the next frame when a flush already ran in this one', () => {
    const frames = manualFrames();
    const { scheduler, flushes } = countingScheduler(frames.request);
    scheduler.schedule();
    frames.tick();
    expect(flushes()).toBe(1);
    scheduler.schedule();
    scheduler.flushSoon();
    expect(flushes()).toBe(1);
    frames.tick();
    expect(flushes()).toBe(2);
    // One more frame is asked for, to learn when this one ends; then the scheduler goes quiet.
    frames.tick();
    expect(flushes()).toBe(2);
    expect(frames.waiting).toHaveLength(0);
  });

  it('counts a flushNow as this frame’s flush', () => {
    const frames = manualFrames();
    const { scheduler, flushes } = countingScheduler(frames.request);
    scheduler.flushNow();
    scheduler.flushSoon();
    expect(flushes()).toBe(1);
    frames.tick();
    expect(flushes()).toBe(2);
  });

  it('flushes at once on flushSoon in a hidden document, which runs no frames', () => {
    const frames = manualFrames();
    let hidden = false;
    const { scheduler, flushes } = countingScheduler(frames.request, () => hidden);
    scheduler.flushNow();
    hidden = true;
    scheduler.flushSoon();
    expect(flushes()).toBe(2);
  });

  it('reads document.visibilityState by default', () => {
    vi.stubGlobal('document', { visibilityState: 'hidden' });
    const frames = manualFrames();
    const { scheduler, flushes } = countingScheduler(frames.request);
    scheduler.flushNow();
    scheduler.flushSoon();
    expect(flushes()).toBe(2);
    vi.stubGlobal('document', { visibilityState: 'visible' });
    scheduler.flushSoon();
    expect(flushes()).toBe(2);
    frames.tick();
    expect(flushes()).toBe(3);
  });

  it('falls back to a 16 ms timer where there is no requestAnimationFrame', async () => {
    vi.useFakeTimers();
    const { scheduler, flushes } = countingScheduler();
    scheduler.schedule();
    scheduler.schedule();
    expect(flushes()).toBe(0);
    await vi.advanceTimersByTimeAsync(16);
    expect(flushes()).toBe(1);
    scheduler.flushSoon();
    expect(flushes()).toBe(1);
    await vi.advanceTimersByTimeAsync(16);
    expect(flushes()).toBe(2);
    scheduler.cancel();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('uses requestAnimationFrame where there is one', () => {
    const waiting = stubAnimationFrames();
    const { scheduler, flushes } = countingScheduler();
    scheduler.schedule();
    expect(waiting.size).toBe(1);
    runFrame(waiting);
    expect(flushes()).toBe(1);
    // The frame after it is asked for too (to learn when this one ends); cancel drops it.
    expect(waiting.size).toBe(1);
    scheduler.cancel();
    expect(waiting.size).toBe(0);
  });

  it('asks the platform for one frame however many schedulers wait for it', () => {
    const waiting = stubAnimationFrames();
    const schedulers = Array.from({ length: 50 }, () => countingScheduler());
    for (const { scheduler } of schedulers) scheduler.schedule();
    expect(waiting.size).toBe(1);
    runFrame(waiting);
    expect(schedulers.map(({ flushes }) => flushes())).toEqual(schedulers.map(() => 1));
    // Each asks for the frame after (to learn when this one ends): one request again.
    expect(waiting.size).toBe(1);
    // The request stays while one scheduler still waits, and goes with the last.
    for (const { scheduler } of schedulers.slice(1)) scheduler.cancel();
    expect(waiting.size).toBe(1);
    schedulers[0]!.scheduler.cancel();
    expect(waiting.size).toBe(0);
  });

  it('runs the other schedulers of a frame when one flush throws', async () => {
    vi.useFakeTimers();
    const thrown = new Error('a flush failed');
    const failing = createFrameScheduler(() => {
      throw thrown;
    });
    const { scheduler, flushes } = countingScheduler();
    failing.schedule();
    scheduler.schedule();
    const uncaught = new Promise((resolve) => process.once('uncaughtException', resolve));
    await vi.advanceTimersByTimeAsync(16);
    expect(flushes()).toBe(1);
    await expect(uncaught).resolves.toBe(thrown);
    failing.cancel();
    scheduler.cancel();
  });
});
