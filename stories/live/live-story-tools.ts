/** Small helpers the live stories share: how long to wait, and reading untyped results. */
import { expect } from 'storybook/test';
import type { UseTaskOptionsResult } from '../../src/index.js';
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

/** The CreditCostPreview props that come straight from a `useTaskOptions` result. */
export function previewPropsOf(options: UseTaskOptionsResult) {
  return {
    status: options.status,
    quote: options.data,
    isUpdating: options.isPlaceholderData,
    error: options.error,
    onRetry: () => void options.refetch(),
  };
}
