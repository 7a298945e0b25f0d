/**
 * The DOM the hook benchmarks render into: a jsdom window whose globals react-dom and TanStack Query
 * need, and a `requestAnimationFrame` that ticks at 60 Hz and counts its frames. Import this module
 * before React, react-dom and TanStack Query: they decide at load time whether they run in a browser.
 * It installs itself once per process and stays (a later uninstall would leave them half-browser).
 */
import { createRequire } from 'node:module';

/** The part of jsdom's API used here (the package ships no types, and @types/jsdom is not installed). */
interface JsdomModule {
  JSDOM: new (
    html: string,
    options: { pretendToBeVisual: boolean; url: string },
  ) => { window: Window & typeof globalThis };
}

const { JSDOM } = createRequire(import.meta.url)('jsdom') as JsdomModule;

/** A 60 Hz animation frame clock: the number of the current frame, and a way to keep it ticking. */
export interface FrameClock {
  /** How many frames have ticked since the process installed the clock. */
  readonly current: number;
  /** The frame period in milliseconds (1000 / 60). */
  readonly periodMs: number;
  /** Keeps the clock ticking even with no callback waiting, so idle frames count too. */
  hold(): () => void;
}

const FRAME_MS = 1000 / 60;

interface Installed {
  frames: FrameClock;
}

const scope = globalThis as typeof globalThis & {
  __taskwireHooksBenchDom?: Installed;
  IS_REACT_ACT_ENVIRONMENT?: boolean;
};

function install(): Installed {
  const dom = new JSDOM('<!doctype html><html><body></body></html>', {
    pretendToBeVisual: true,
    url: 'http://localhost/',
  });
  const window = dom.window as unknown as Record<string, unknown>;
  // Copy what Node lacks (window, document, navigator, HTMLElement, …); keep Node's own fetch,
  // streams, events and timers, which the client and the reference service run on.
  for (const key of Object.getOwnPropertyNames(window)) {
    if (key in globalThis || key === 'requestAnimationFrame' || key === 'cancelAnimationFrame')
      continue;
    Object.defineProperty(globalThis, key, {
      configurable: true,
      get: () => window[key],
    });
  }
  Object.defineProperty(globalThis, 'window', { configurable: true, value: dom.window });
  Object.defineProperty(globalThis, 'document', { configurable: true, value: dom.window.document });
  Object.defineProperty(globalThis, 'navigator', {
    configurable: true,
    value: dom.window.navigator,
  });
  // Real rendering through createRoot, not `act`.
  scope.IS_REACT_ACT_ENVIRONMENT = false;

  // A drift-free 60 Hz ticker: frames start FRAME_MS apart on a fixed grid. It runs while a callback
  // waits or a bench holds it, and stops otherwise so the process can exit.
  let frame = 0;
  let nextHandle = 1;
  let holds = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let nextAt = 0;
  const waiting = new Map<number, FrameRequestCallback>();
  const schedule = () => {
    if (timer !== undefined || (holds === 0 && waiting.size === 0)) return;
    const now = performance.now();
    // Skip the frames a busy event loop missed, as a browser does; an idle clock starts afresh.
    if (nextAt < now) nextAt += Math.ceil((now - nextAt) / FRAME_MS) * FRAME_MS;
    timer = setTimeout(tick, nextAt - now);
  };
  const tick = () => {
    timer = undefined;
    frame += 1;
    nextAt += FRAME_MS;
    const due = [...waiting.values()];
    waiting.clear();
    const now = performance.now();
    for (const callback of due) callback(now);
    schedule();
  };
  const restart = () => {
    if (timer === undefined) nextAt = performance.now() + FRAME_MS;
  };
  globalThis.requestAnimationFrame = (callback) => {
    restart();
    const handle = nextHandle++;
    waiting.set(handle, callback);
    schedule();
    return handle;
  };
  globalThis.cancelAnimationFrame = (handle) => {
    waiting.delete(handle);
  };
  const frames: FrameClock = {
    get current() {
      return frame;
    },
    periodMs: FRAME_MS,
    hold() {
      restart();
      holds += 1;
      schedule();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds -= 1;
        if (holds === 0 && waiting.size === 0 && timer !== undefined) {
          clearTimeout(timer);
          timer = undefined;
        }
      };
    },
  };
  return { frames };
}

scope.__taskwireHooksBenchDom ??= install();

/** The animation frame clock behind the installed `requestAnimationFrame`. */
export const frames: FrameClock = scope.__taskwireHooksBenchDom.frames;
