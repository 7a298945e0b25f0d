/**
 * The frame scheduler coalesces many "state changed" signals into at most one flush per animation
 * frame, so a fast stream does not cause a render per event. A state that should show promptly (a
 * stream's final state) goes through `flushSoon`: at once when this frame has not flushed yet, else
 * on the next frame, so it never adds a second flush to a frame. The stream controller is its only
 * user; it lives alone so that what it promises is tested alone.
 */

/** Schedules a callback at most once per frame. */
export interface FrameScheduler {
  /** Asks for a flush on the next frame; repeated calls before it are free. */
  schedule(): void;
  /**
   * Flushes at once unless a flush already ran in this frame (since the last frame callback), in
   * which case on the next frame. In a hidden document, which runs no frames, it flushes at once.
   */
  flushSoon(): void;
  /** Flushes now whatever ran in this frame (for what a user did: start, stop), and drops the pending flush. */
  flushNow(): void;
  /** Cancels a pending flush without running it. */
  cancel(): void;
}

type Cancel = () => void;

/** Asks the platform for the next frame: `requestAnimationFrame` in a tab, else a 16 ms timer (Node, tests). */
function requestPlatformFrame(callback: () => void): Cancel {
  if (typeof requestAnimationFrame === 'function' && typeof cancelAnimationFrame === 'function') {
    const handle = requestAnimationFrame(callback);
    return () => cancelAnimationFrame(handle);
  }
  const handle = setTimeout(callback, 16);
  return () => clearTimeout(handle);
}

// One frame request for every scheduler of the page: a page of 50 streams asked the browser for 50
// frame callbacks each frame, and the browser runs each as a callback of its own.
let nextFrame: Set<() => void> | undefined;
let cancelNextFrame: Cancel = () => {};

/** Waits for the page's next frame, asking the platform for one only when nobody has yet. */
function requestFrame(callback: () => void): Cancel {
  if (nextFrame === undefined) {
    const due = (nextFrame = new Set());
    cancelNextFrame = requestPlatformFrame(() => {
      if (nextFrame === due) nextFrame = undefined;
      for (const run of due) {
        // One scheduler's failure must not keep the others' flushes from this frame.
        try {
          run();
        } catch (error) {
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    });
  }
  const waiting = nextFrame;
  waiting.add(callback);
  return () => {
    waiting.delete(callback);
    if (waiting.size === 0 && nextFrame === waiting) {
      cancelNextFrame();
      nextFrame = undefined;
    }
  };
}

/** Whether the document is hidden: a background tab runs no animation frames until it shows again. */
function isDocumentHidden(): boolean {
  return typeof document !== 'undefined' && document.visibilityState === 'hidden';
}

/**
 * Creates a {@link FrameScheduler} around `flush`. `request` asks for the next frame (defaults to
 * the page's shared `requestAnimationFrame`, or a 16 ms timer without it); `isHidden` says whether frames are paused
 * (defaults to reading `document.visibilityState`).
 */
export function createFrameScheduler(
  flush: () => void,
  request: (callback: () => void) => Cancel = requestFrame,
  isHidden: () => boolean = isDocumentHidden,
): FrameScheduler {
  // The frame asked for, if any. It runs a wanted flush, and it also marks where the frame in which
  // the last flush ran is over: that is how `flushSoon` knows whether this frame has flushed.
  let cancelFrame: Cancel | undefined;
  let wanted = false;
  let flushedThisFrame = false;
  const awaitFrame = () => {
    cancelFrame ??= request(onFrame);
  };
  const run = () => {
    wanted = false;
    flushedThisFrame = true;
    // Even with nothing more to flush, learn when this frame ends (one idle frame after the last).
    awaitFrame();
    flush();
  };
  function onFrame() {
    cancelFrame = undefined;
    flushedThisFrame = false;
    if (wanted) run();
  }
  const schedule = () => {
    wanted = true;
    awaitFrame();
  };
  return {
    schedule,
    flushSoon() {
      if (flushedThisFrame && !isHidden()) schedule();
      else run();
    },
    flushNow: run,
    cancel() {
      cancelFrame?.();
      cancelFrame = undefined;
      wanted = false;
    },
  };
}
