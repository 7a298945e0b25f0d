/**
 * The stream budget on Chromium's own Web Locks (docs/protocol.md, "The stream budget"), kept by
 * useTaskStream: the real client against the in-process reference service, behind a browser's six
 * connections per host (test/support/browser-connections.ts). Two providers, each with a client and
 * a QueryClient of its own, stand for two tabs: they share the page's `navigator.locks`, as the tabs
 * of one origin do. Tasks wait on a gate the test opens, so "while they all run" is an event.
 */
import { act, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { useTaskStream } from '../../src/react/index.js';
import { createReferenceService } from '../../src/reference/index.js';
import {
  recordRequests,
  renderHookWithTaskwire,
  type FetchService,
  type RenderHookWithTaskwireOptions,
} from '../../src/testing/index.js';
import { browserConnections } from '../support/browser-connections.js';
import { gatedTask } from '../support/gated-task.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The names of the stream slots held now in this browser. */
async function heldSlots(): Promise<string[]> {
  const { held = [] } = await navigator.locks.query();
  return held
    .map((lock) => lock.name ?? '')
    .filter((name) => name.startsWith('taskwire:stream-slot:'));
}

/** Renders one `useTaskStream('gated')` with `options`, unmounted when the test ends. */
function renderStream(options: RenderHookWithTaskwireOptions<undefined, FetchService>) {
  const view = renderHookWithTaskwire(() => useTaskStream('gated'), options);
  cleanups.push(() => view.unmount());
  return view;
}

it('holds 4 Web Locks for 8 useTaskStreams of two tabs, runs each task once, and gives every lock back', async () => {
  const { task, open } = gatedTask();
  const reference = createReferenceService({ tasks: [task] });
  cleanups.push(() => reference.close(), open);
  const served = recordRequests(reference);
  const browser = browserConnections(served);
  const started = (endpoint: 'stream' | 'submit') =>
    served.requests.filter(
      (request) =>
        request.endpoint === endpoint &&
        request.answer !== undefined &&
        request.answer.status < 300,
    ).length;
  const page = { service: browser, clientConfig: { baseUrl: 'http://stream-budget.test' } };
  const tabs = [renderStream(page), renderStream(page)];
  expect(tabs[0]!.client).not.toBe(tabs[1]!.client);
  const views = tabs.flatMap((tab) => [tab, ...Array.from({ length: 3 }, () => renderStream(tab))]);
  expect(await heldSlots()).toEqual([]);

  act(() => views.forEach((view, n) => view.result.current.start({ n })));
  await waitFor(() => {
    for (const view of views) {
      expect(view.result.current).toMatchObject({
        status: 'streaming',
        taskId: expect.any(String),
      });
    }
  });
  expect(new Set(views.map((view) => view.result.current.taskId)).size).toBe(8);
  expect(await heldSlots()).toHaveLength(4);
  expect(started('stream')).toBe(4);
  expect(started('submit')).toBe(4);
  // A quote answers while all 8 run.
  await expect(tabs[0]!.client.options('gated', { n: 0 })).resolves.toEqual({});

  act(open);
  await waitFor(
    () => {
      views.forEach((view, n) =>
        expect(view.result.current).toMatchObject({ status: 'completed', result: { n } }),
      );
    },
    { timeout: 30_000 },
  );
  expect(started('stream') + started('submit')).toBe(8);
  expect(browser.maxOpenStreams).toBe(4);
  await waitFor(async () => expect(await heldSlots()).toEqual([]));
});
