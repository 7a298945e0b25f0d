/**
 * Small helpers the live stories share: how long to wait, reading untyped results, the keyboard,
 * a hidden page, and the props a component takes straight from a hook.
 */
import { expect } from 'storybook/test';
import {
  streamDisplayStatus,
  type TaskProgressProps,
  type TaskStreamState,
  type UseTaskOptionsResult,
} from '../../src/index.js';
import { liveTiming } from './live-service.js';

/**
 * How long a play function waits for something that takes `nominalMs` at time scale 1: the
 * scaled time, plus room for polling (at least 1 s between polls) and a busy machine.
 */
export function timeFor(nominalMs: number): { timeout: number } {
  return { timeout: Math.ceil(nominalMs * liveTiming.timeScale) + 6000 };
}

/** The field `name` of an untyped result, when it is there. */
export function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

/** The user-event API a play function receives. */
interface Keyboard {
  tab: () => Promise<void>;
  keyboard: (text: string) => Promise<void>;
}

/**
 * Presses Tab until `target` has the focus (at most `maxPresses` times), as a keyboard-only user
 * would, and fails when it never gets there.
 */
export async function tabTo(userEvent: Keyboard, target: HTMLElement, maxPresses = 10) {
  for (let press = 0; press < maxPresses && document.activeElement !== target; press += 1) {
    await userEvent.tab();
  }
  await expect(target).toHaveFocus();
}

/** Tabs to `target` (see {@link tabTo}) and presses Enter on it, as a keyboard-only user would. */
export async function pressWithKeyboard(userEvent: Keyboard, target: HTMLElement, maxPresses = 10) {
  await tabTo(userEvent, target, maxPresses);
  await userEvent.keyboard('{Enter}');
}

/**
 * Makes the page `hidden` or `visible` again, as a browser does when its tab goes to the
 * background or comes back: `document.visibilityState` (and `document.hidden`) say so, and
 * `visibilitychange` is fired. Headless Chromium never hides a page by itself, so a play function
 * that checks what happens in a background tab calls this; `visible` goes back to the browser's own
 * answer.
 */
export function pretendPageIs(state: 'hidden' | 'visible') {
  if (state === 'hidden') {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
  } else {
    // The own properties shadow the browser's getters on Document.prototype; without them, its own.
    Reflect.deleteProperty(document, 'visibilityState');
    Reflect.deleteProperty(document, 'hidden');
  }
  document.dispatchEvent(new Event('visibilitychange'));
}

/** The CreditCostPreview props that come straight from a `useTaskOptions` result. */
export function previewPropsOf(options: UseTaskOptionsResult) {
  return {
    status: options.status,
    quote: options.data,
    isUpdating: options.isQuoteStale,
    error: options.error,
    onRetry: () => void options.refetch(),
  };
}

/** What {@link streamProgressPropsOf} reads of a `useTaskStream` result. */
export type StreamProgress = Pick<TaskStreamState, 'status' | 'progress' | 'failure' | 'error'>;

/** The TaskProgress props that come straight from a `useTaskStream` result (all but the label). */
export function streamProgressPropsOf(stream: StreamProgress): Omit<TaskProgressProps, 'label'> {
  return {
    status: streamDisplayStatus(stream),
    percent: stream.progress?.percent ?? null,
    estimatedSecondsLeft: stream.progress?.estimatedSecondsLeft ?? null,
    error: stream.failure ?? stream.error,
  };
}
