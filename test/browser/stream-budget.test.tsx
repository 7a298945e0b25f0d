/**
 * The stream budget on Chromium's own Web Locks (docs/protocol.md, "The stream budget"): the real
 * client against the in-process reference service, behind a browser's six connections per host.
 * Two clients of one page stand for two tabs here: they share the page's `navigator.locks`, as the
 * tabs of one origin do.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { createTaskClient, type StreamEvent } from '../../src/client/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
} from '../../src/reference/index.js';
import { recordRequests } from '../../src/testing/index.js';
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

/** The events of a stream to its end. */
async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

it('holds 4 Web Locks for 8 streams of two clients, runs each task once, and gives every lock back', async () => {
  const { task, open } = gatedTask();
  const reference = createReferenceService({ tasks: [task] });
  cleanups.push(() => reference.close(), open);
  const served = recordRequests(reference);
  const browser = browserConnections(served);
  const started = (endpoint: 'stream' | 'submit') =>
    served.requests.filter((request) => request.endpoint === endpoint && request.answer).length;
  const clients = [1, 2].map(() =>
    createTaskClient({
      baseUrl: 'http://stream-budget.test',
      userToken: DEMO_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
      fetch: browser.fetch,
    }),
  );
  const runs = clients.flatMap((client, tab) =>
    Array.from({ length: 4 }, (_, index) =>
      collect(client.stream('gated', { n: tab * 4 + index })),
    ),
  );
  await vi.waitFor(() => expect(started('stream') + started('submit')).toBe(8));
  expect(await heldSlots()).toHaveLength(4);
  expect(started('stream')).toBe(4);
  // A quote answers while all 8 run.
  await expect(clients[0]!.options('gated', { n: 0 })).resolves.toEqual({});

  open();
  const outcomes = await Promise.all(runs);
  outcomes.forEach((events, n) =>
    expect(events.at(-1)).toEqual({ type: 'task.completed', result: { n } }),
  );
  expect(started('stream') + started('submit')).toBe(8);
  expect(browser.maxOpenStreams).toBe(4);
  expect(await heldSlots()).toEqual([]);
});
