/**
 * The stream budget (docs/protocol.md, "The stream budget"): the real client against
 * the in-process reference service, behind a browser's six connections per host
 * (test/support/browser-connections.ts), with the in-memory Web Locks of test/support for two tabs.
 * Tasks wait on a gate the test opens, so "while they all run" is an event, not a time window;
 * fake timers drive the polls of the streams over budget.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskwireError } from '../../src/client/index.js';
import {
  createTaskClient,
  type StreamEvent,
  type TaskClientConfig,
} from '../../src/client/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
} from '../../src/reference/index.js';
import { recordRequests, withFaults, type Fault } from '../../src/testing/index.js';
import { browserConnections } from '../support/browser-connections.js';
import { gatedTask } from '../support/gated-task.js';
import { createInMemoryWebLocks } from '../support/in-memory-web-locks.js';
import { advanceUntil, settleOnFakeClock, trackRequests } from '../support/fake-clock.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.useRealTimers();
});

/** The reference service with the gated task, what it served, and a browser's connections to it. */
function setUp(faults: Fault[] = []) {
  const { task, open } = gatedTask();
  const reference = createReferenceService({ tasks: [task] });
  cleanups.push(() => reference.close());
  cleanups.push(open);
  const served = recordRequests(reference);
  const service = trackRequests(withFaults(served, faults));
  const browser = browserConnections(service);
  const clientOf = (config: Partial<TaskClientConfig> = {}) =>
    createTaskClient({
      baseUrl: 'http://taskwire.test',
      userToken: DEMO_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
      fetch: browser.fetch,
      ...config,
    });
  /** How many requests of `endpoint` the service answered with success. */
  const answered = (endpoint: 'stream' | 'submit') =>
    served.requests.filter(
      (request) =>
        request.endpoint === endpoint &&
        request.answer !== undefined &&
        request.answer.status < 300,
    ).length;
  const started = () => answered('stream') + answered('submit');
  /** Moves the fake clock until `done()` holds, never past a request the service has not answered. */
  const until = (done: () => boolean, what: string) => advanceUntil(done, service, what);
  /** Settles `promise` on the fake clock the same way. */
  const settle = <Value>(promise: Promise<Value>, what: string) =>
    settleOnFakeClock(promise, service, what);
  return { open, served, browser, clientOf, answered, started, until, settle };
}

/** The events of a stream and the error it ended with, if any. */
async function collect(stream: AsyncIterable<StreamEvent>) {
  const events: StreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events, error: undefined };
  } catch (error) {
    return { events, error: error as TaskwireError };
  }
}

/** Runs `make` with `navigator.locks` set to `locks`, as a tab whose page has those Web Locks. */
function inTab<Value>(locks: LockManager, make: () => Value): Value {
  const page = globalThis as { navigator?: object };
  const hadNavigator = page.navigator !== undefined;
  if (hadNavigator)
    Object.defineProperty(page.navigator, 'locks', { value: locks, configurable: true });
  else vi.stubGlobal('navigator', { locks });
  try {
    return make();
  } finally {
    if (hadNavigator) delete (page.navigator as { locks?: unknown }).locks;
    else vi.unstubAllGlobals();
  }
}

describe('the stream budget', () => {
  it('keeps 8 streams to at most 4 connections, so a quote, a submit and a poll answer while all 8 run, and runs each task once', async () => {
    vi.useFakeTimers();
    const { open, browser, clientOf, answered, started, until, settle } = setUp();
    const client = clientOf();
    const taskIds: (string | undefined)[] = [];
    const runs = Array.from({ length: 8 }, (_, n) =>
      collect(client.stream('gated', { n }, { onOpen: (info) => (taskIds[n] = info.taskId) })),
    );
    await until(() => started() === 8, 'the 8 tasks to start');
    expect(taskIds.filter(Boolean)).toHaveLength(8);
    expect(answered('stream')).toBe(4);
    expect(answered('submit')).toBe(4);

    // Every task still waits at its gate: the other requests must find a connection now.
    const others = Promise.all([
      client.options('gated', { n: 0 }),
      client.submit('gated', { n: 100 }),
      client.getResult('gated', taskIds[7]!),
    ]);
    const [quote, submitted, record] = await settle(others, 'the quote, submit and poll');
    expect(quote).toEqual({});
    expect(submitted.status).toBe('ACCEPTED');
    expect(record.status).toBe('IN_PROGRESS');

    open();
    const outcomes = await settle(Promise.all(runs), 'the 8 streams to end');
    outcomes.forEach(({ events, error }, n) => {
      expect(error).toBeUndefined();
      expect(events.at(-1)).toEqual({ type: 'task.completed', result: { n } });
    });
    expect(started()).toBe(9);
    expect(browser.maxOpenStreams).toBe(4);
  });

  it('shares the budget between two tabs through Web Locks: 4 streams across both, every task once', async () => {
    vi.useFakeTimers();
    const { open, browser, clientOf, answered, started, until, settle } = setUp();
    const space = createInMemoryWebLocks();
    const tabA = inTab(space.tab('a'), () => clientOf());
    const tabB = inTab(space.tab('b'), () => clientOf());
    const runs = [tabA, tabB].flatMap((client, tab) =>
      Array.from({ length: 4 }, (_, index) =>
        collect(client.stream('gated', { n: tab * 4 + index })),
      ),
    );
    await until(() => started() === 8, 'the 8 tasks to start');
    expect(answered('stream')).toBe(4);
    expect(answered('submit')).toBe(4);
    expect(space.heldNames()).toHaveLength(4);
    open();
    const outcomes = await settle(Promise.all(runs), 'the 8 streams to end');
    outcomes.forEach(({ events }, n) =>
      expect(events.at(-1)).toEqual({ type: 'task.completed', result: { n } }),
    );
    expect(browser.maxOpenStreams).toBe(4);
    expect(started()).toBe(8);
    // Every stream gave its lock back.
    expect(space.heldNames()).toEqual([]);
  });

  it('gives the slot back when the signal aborts, on return() and when the stream breaks', async () => {
    const { open, clientOf, answered } = setUp([
      { endpoint: 'stream', request: 3, cutAfterEvents: 1 },
    ]);
    const client = clientOf({ maxOpenStreams: 1 });

    // Aborted between two events: the slot comes back without another `next()`.
    const controller = new AbortController();
    const aborted = client.stream('gated', { n: 1 }, { signal: controller.signal });
    await aborted[Symbol.asyncIterator]().next();
    controller.abort();

    // Left with `return()` (what `break` does).
    const left = client.stream('gated', { n: 2 });
    const iterator = left[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.return?.();

    // Broken by the network after its first event.
    const broken = await collect(client.stream('gated', { n: 3 }));
    expect(broken.error).toMatchObject({ code: 'network', taskId: expect.any(String) });

    // Each of them freed the one slot: the next one streamed too, and nothing was submitted.
    open();
    const last = await collect(client.stream('gated', { n: 4 }));
    expect(last.events.at(-1)).toEqual({ type: 'task.completed', result: { n: 4 } });
    expect(answered('stream')).toBe(4);
    expect(answered('submit')).toBe(0);
    // And the slot is free again after the final event.
    await collect(client.stream('gated', { n: 5 }));
    expect(answered('stream')).toBe(5);
  });

  it('follows a stream over budget: its task id at once, custom events as references, then its outcome', async () => {
    vi.useFakeTimers();
    const { open, clientOf, answered, until, settle } = setUp();
    const client = clientOf({ maxOpenStreams: 1 });
    const holder = collect(client.stream('gated', { n: 0 }));
    await until(() => answered('stream') === 1, 'the first stream');

    let openedWith: string | undefined;
    const followed = client.stream(
      'gated',
      { n: 1 },
      { onOpen: (info) => (openedWith = info.taskId) },
    );
    const run = collect(followed);
    await until(() => openedWith !== undefined, 'the followed task id');
    expect(followed.taskId).toBe(openedWith);
    const failing = collect(client.stream('gated', { n: 2, fail: true }));
    await until(() => answered('submit') === 2, 'the second follow');
    open();
    const { events, error } = await settle(run, 'the followed stream');
    expect(error).toBeUndefined();
    const [eventRef] = (await client.getResult('gated', openedWith!)).events;
    expect(events).toContainEqual({ type: 'event.started', eventId: eventRef!.id });
    expect(events).toContainEqual({ type: 'task.progress', percent: 10, estimatedSecondsLeft: 1 });
    expect(events.at(-1)).toEqual({ type: 'task.completed', result: { n: 1 } });
    expect((await settle(failing, 'the failing follow')).events.at(-1)).toEqual({
      type: 'task.failed',
      result: { status: 'error', statusCode: 500, reason: 'GAVE_UP', message: 'Task 2 gave up.' },
    });
    await settle(holder, 'the first stream');
    expect(answered('stream')).toBe(1);
    expect(answered('submit')).toBe(2);
  });

  it('sends nothing for a stream aborted while it waited for the slot answer, over budget or not', async () => {
    const { open, clientOf, answered, served } = setUp();
    const client = clientOf({ maxOpenStreams: 1 });
    const aborted = async (n: number) => {
      const controller = new AbortController();
      const stream = client.stream('gated', { n }, { signal: controller.signal });
      const next = stream[Symbol.asyncIterator]().next();
      controller.abort();
      await expect(next).rejects.toMatchObject({ code: 'aborted' });
    };
    // Within budget: the free slot is taken, then given back.
    await aborted(1);
    expect(served.requests).toEqual([]);
    // Over budget: while another stream holds the one slot.
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const holder = collect(client.stream('gated', { n: 2 }, { onOpen: () => holding() }));
    await held;
    await aborted(3);
    expect(answered('submit')).toBe(0);
    open();
    await holder;
    // And the slot is free again: the next stream streams.
    const last = await collect(client.stream('gated', { n: 4 }));
    expect(last.events.at(-1)).toEqual({ type: 'task.completed', result: { n: 4 } });
    expect(answered('stream')).toBe(2);
    expect(answered('submit')).toBe(0);
  });

  it('refuses a maxOpenStreams that is not a whole number of at least 1', () => {
    const { clientOf } = setUp();
    for (const maxOpenStreams of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => clientOf({ maxOpenStreams })).toThrow(TypeError);
    }
    expect(() => clientOf({ maxOpenStreams: 6 })).not.toThrow();
  });
});
