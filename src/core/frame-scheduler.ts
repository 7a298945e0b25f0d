/**
 * Coalesces many "state changed" signals into at most one flush per animation frame, so a fast
 * stream does not cause a render per event. The final state is flushed at once with `flushNow`.
 */

/** Schedules a callback at most once per frame. */
export interface FrameScheduler {
  /** Asks for a flush on the next frame; repeated calls before it are free. */
  schedule(): void;
  /** Runs the flush now and cancels the pending one. */
  flushNow(): void;
  /** Cancels a pending flush without running it. */
  cancel(): void;
}

type Cancel = () => void;

/** Uses `requestAnimationFrame` where there is one (a browser tab), else a 16 ms timer (Node, tests). */
function requestFrame(callback: () => void): Cancel {
  if (typeof requestAnimationFrame === 'function' && typeof cancelAnimationFrame === 'function') {
    const handle = requestAnimationFrame(callback);
    return () => cancelAnimationFrame(handle);
  }
  const handle = setTimeout(callback, 16);
  return () => clearTimeout(handle);
}

/** Creates a {@link FrameScheduler} around `flush`. */
export function createFrameScheduler(
  flush: () => void,
  request: (callback: () => void) => Cancel = requestFrame,
): FrameScheduler {
  let cancelPending: Cancel | undefined;
  const run = () => {
    cancelPending = undefined;
    flush();
  };
  return {
    schedule() {
      if (cancelPending === undefined) cancelPending = request(run);
    },
    flushNow() {
      cancelPending?.();
      run();
    },
    cancel() {
      cancelPending?.();
      cancelPending = undefined;
    },
  };
}
