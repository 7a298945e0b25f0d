/**
 * useTaskStream under the stream budget (docs/protocol.md, "The stream budget"): the budget is kept
 * by the hook's controller, which takes a slot before it streams and, with none free, starts the
 * task with Submit and follows it through the shared poll. The real client against the in-process
 * reference service, behind a browser's six connections per host (test/support/browser-connections.ts),
 * with the in-memory Web Locks of test/support for two tabs. Tasks wait on a gate the test opens, so
 * "while they all run" is an event, not a time window; fake timers drive the polls and retries.
 */
import { act } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTaskResult, useTaskStream } from '../../src/react/index.js';
import { createReferenceService } from '../../src/reference/index.js';
import { streamBudgetKey, streamSlotName } from '../../src/state/stream-slots.js';
import type { TaskStreamState } from '../../src/state/task-stream-state.js';
import {
  recordRequests,
  renderHookWithTaskwire,
  withFaults,
  type Endpoint,
  type Fault,
  type FetchService,
  type RenderHookWithTaskwireOptions,
} from '../../src/testing/index.js';
import { browserConnections } from '../support/browser-connections.js';
import { advanceUntil, settleOnFakeClock, trackRequests } from '../support/fake-clock.js';
import { gatedTask } from '../support/gated-task.js';
import { createInMemoryWebLocks } from '../support/in-memory-web-locks.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.useRealTimers();
});

it('shows a stream over budget as any stream: its task id, progress, events by reference, then its outcome', async () => {
  vi.useFakeTimers();
  const { task, open } = gatedTask();
  const reference = createReferenceService({ tasks: [task], events: false });
  cleanups.push(() => reference.close(), open);
  const served = recordRequests(reference);
  const service = trackRequests(served);
  const answered = (endpoint: 'stream' | 'submit' | 'result') =>
    served.requests.filter((request) => request.endpoint === endpoint).length;
  /** Moves the fake clock, a step per `act`, until `done()` holds; never past an unanswered request. */
  const until = (done: () => boolean, what: string) =>
    advanceUntil(done, service, what, { maxMs: 100_000, around: act });

  const view = renderHookWithTaskwire(
    () => ({ first: useTaskStream('gated'), second: useTaskStream('gated') }),
    { service, clientConfig: { maxOpenStreams: 1 } },
  );
  const first = () => view.result.current.first;
  const second = () => view.result.current.second;
  act(() => first().start({ n: 1 }));
  await until(() => first().progress?.percent === 10, 'the first stream');

  act(() => second().start({ n: 2 }));
  await until(() => second().progress?.percent === 10, 'the second task to be followed');
  expect(second().status).toBe('streaming');
  expect(second().taskId).toEqual(expect.any(String));
  expect(second().events).toEqual([{ type: 'event.started', eventId: expect.any(String) }]);
  expect(answered('stream')).toBe(1);
  expect(answered('submit')).toBe(1);

  act(open);
  await until(
    () => first().status === 'completed' && second().status === 'completed',
    'both to complete',
  );
  expect(first().result).toEqual({ n: 1 });
  expect(second().result).toEqual({ n: 2 });
  expect(second().progress).toEqual({ percent: 100, estimatedSecondsLeft: 0 });

  // Its record went into the cache useTaskResult reads, as a stream's does: no read of its own.
  const polls = answered('result');
  const watcher = renderHookWithTaskwire(() => useTaskResult('gated', second().taskId), view);
  expect(watcher.result.current.data).toMatchObject({ status: 'COMPLETED', result: { n: 2 } });
  expect(answered('result')).toBe(polls);
  expect(answered('stream') + answered('submit')).toBe(2);
});

/** Each test's own service origin, so no test inherits another's in-page slot count. */
let origins = 0;

/**
 * The reference service with a fresh gated task, behind a browser's six connections per host and
 * `faults`: what it served (inside the faults, so a lost answer was still served), the client
 * configuration for it, and fake-clock steps that never move past a request it has not answered.
 */
function setUp(faults: Fault[] = []) {
  const { task, open } = gatedTask();
  const reference = createReferenceService({ tasks: [task], events: false });
  cleanups.push(() => reference.close(), open);
  const served = recordRequests(reference);
  const service = trackRequests(withFaults(served, faults));
  const browser = browserConnections(service);
  const baseUrl = `http://budget-${String(++origins)}.test`;
  /** The options of the first hook of a page: a client of its own on this service. */
  const page = (
    maxOpenStreams?: number,
  ): RenderHookWithTaskwireOptions<undefined, FetchService> => ({
    service: browser,
    clientConfig: { baseUrl, ...(maxOpenStreams === undefined ? {} : { maxOpenStreams }) },
  });
  const succeeded = (endpoint: Endpoint) =>
    served.requests.filter(
      (request) =>
        request.endpoint === endpoint &&
        request.answer !== undefined &&
        request.answer.status < 300,
    );
  /** How many requests of `endpoint` the service answered with success. */
  const answered = (endpoint: Endpoint) => succeeded(endpoint).length;
  /** Tasks the service started: one per stream it answered, one per distinct task a Submit answered. */
  const tasksStarted = () =>
    answered('stream') +
    new Set(
      succeeded('submit').map(
        (request) => (request.answer?.body as { response: { id: string } }).response.id,
      ),
    ).size;
  /** The requests that named task `taskId` (its Get Results). */
  const requestsFor = (taskId: string) =>
    served.requests.filter((request) => request.path.includes(taskId)).length;
  const advancing = { maxMs: 200_000, around: act };
  /** Moves the fake clock, a step per `act`, until `done()` holds; never past an unanswered request. */
  const until = (done: () => boolean, what: string) => advanceUntil(done, service, what, advancing);
  /** Lets `ms` of simulated time pass the same way. */
  const pass = (ms: number) => {
    const end = Date.now() + ms;
    return until(() => Date.now() >= end, `${String(ms)} ms to pass`);
  };
  /** Settles `promise` the same way: its value, and how much simulated time that took. */
  const settle = async <Value,>(promise: Promise<Value>, what: string) => {
    const since = Date.now();
    const value = await settleOnFakeClock(promise, service, what, advancing);
    return { value, tookMs: Date.now() - since };
  };
  return {
    open,
    baseUrl,
    served,
    browser,
    page,
    answered,
    tasksStarted,
    requestsFor,
    until,
    pass,
    settle,
  };
}

/**
 * Renders one `useTaskStream('gated')`, as the first hook of a page (`setUp().page()`) or beside
 * another on its client and QueryClient (that one's view), and unmounts it when the test ends.
 */
function renderStream(options: RenderHookWithTaskwireOptions<undefined, FetchService>) {
  const view = renderHookWithTaskwire(() => useTaskStream('gated'), options);
  cleanups.push(() => view.unmount());
  return Object.assign(view, { state: () => view.result.current });
}

/** Sets `navigator.locks` to `locks`, the Web Locks of the page, until the test ends. */
function withPageLocks(locks: LockManager) {
  Object.defineProperty(globalThis.navigator, 'locks', { value: locks, configurable: true });
  cleanups.push(() => {
    delete (globalThis.navigator as { locks?: unknown }).locks;
  });
}

/** Whether a run shows a task it streams or follows. */
const isRunning = (state: TaskStreamState<unknown, unknown>) =>
  state.status === 'streaming' && state.taskId !== undefined;

describe('the stream budget, kept by useTaskStream', () => {
  it('keeps 8 streams to at most 4 connections, so a quote, a submit and a Get Result answer within a second while all 8 run, and runs each task once', async () => {
    vi.useFakeTimers();
    const { open, browser, page, answered, tasksStarted, until, settle } = setUp();
    const first = renderStream(page());
    const views = [first, ...Array.from({ length: 7 }, () => renderStream(first))];
    act(() => views.forEach((view, n) => view.state().start({ n })));
    await until(() => views.every((view) => isRunning(view.state())), 'the 8 runs');
    expect(new Set(views.map((view) => view.state().taskId)).size).toBe(8);
    expect(answered('stream')).toBe(4);
    expect(answered('submit')).toBe(4);
    expect(browser.openStreams).toBe(4);

    // Every task still waits at its gate: the other requests must find a connection now.
    const { client } = first;
    const { value, tookMs } = await settle(
      Promise.all([
        client.options('gated', { n: 0 }),
        client.submit('gated', { n: 100 }),
        client.getResult('gated', views[7]!.state().taskId!),
      ]),
      'the quote, the submit and the Get Result',
    );
    const [quote, submitted, record] = value;
    expect(quote).toEqual({});
    expect(submitted.status).toBe('ACCEPTED');
    expect(record.status).toBe('IN_PROGRESS');
    expect(tookMs).toBeLessThan(1000);

    act(open);
    await until(
      () => views.every((view) => view.state().status === 'completed'),
      'the 8 runs to complete',
    );
    views.forEach((view, n) => expect(view.state().result).toEqual({ n }));
    expect(tasksStarted()).toBe(9);
    expect(browser.maxOpenStreams).toBe(4);
  });

  it('shares the budget between two tabs through Web Locks: 4 streams across both, every task once, every lock given back', async () => {
    vi.useFakeTimers();
    const { open, browser, page, answered, tasksStarted, until } = setUp();
    const space = createInMemoryWebLocks();
    // Each tab has a client and a QueryClient of its own; only the lock space is shared, as a
    // browser shares its Web Locks between the tabs of an origin.
    withPageLocks(space.tab('page'));
    const tabs = [renderStream(page()), renderStream(page())];
    const views = tabs.flatMap((tab) => [
      tab,
      ...Array.from({ length: 3 }, () => renderStream(tab)),
    ]);
    expect(tabs[0]!.client).not.toBe(tabs[1]!.client);
    act(() => views.forEach((view, n) => view.state().start({ n })));
    await until(() => views.every((view) => isRunning(view.state())), 'the 8 runs');
    expect(answered('stream')).toBe(4);
    expect(answered('submit')).toBe(4);
    expect(space.heldNames()).toHaveLength(4);
    expect(space.heldNames().every((name) => name.startsWith('taskwire:stream-slot:'))).toBe(true);

    act(open);
    await until(
      () => views.every((view) => view.state().status === 'completed'),
      'the 8 runs to complete',
    );
    views.forEach((view, n) => expect(view.state().result).toEqual({ n }));
    expect(tasksStarted()).toBe(8);
    expect(browser.maxOpenStreams).toBe(4);
    await until(() => space.heldNames().length === 0, 'every lock to be given back');
  });

  it('counts the slots another tab holds, and has them back when that tab closes', async () => {
    vi.useFakeTimers();
    const { open, baseUrl, page, answered, until } = setUp();
    const space = createInMemoryWebLocks();
    withPageLocks(space.tab('page'));
    // Another tab of the origin streams with 3 of the 4 slots, holding their locks until it closes.
    const elsewhere = space.tab('other');
    for (const index of [0, 1, 2]) {
      void elsewhere.request(
        streamSlotName(streamBudgetKey(baseUrl), index),
        () => new Promise(() => {}),
      );
    }
    const a = renderStream(page());
    const b = renderStream(a);
    act(() => {
      a.state().start({ n: 1 });
      b.state().start({ n: 2 });
    });
    await until(() => isRunning(a.state()) && isRunning(b.state()), 'both runs');
    expect(answered('stream')).toBe(1);
    expect(answered('submit')).toBe(1);

    // The browser frees a closed tab's locks: the next start streams.
    space.closeTab('other');
    const c = renderStream(a);
    act(() => c.state().start({ n: 3 }));
    await until(() => isRunning(c.state()), 'the third run');
    expect(answered('stream')).toBe(2);
    expect(answered('submit')).toBe(1);
    act(open);
    await until(
      () => [a, b, c].every((view) => view.state().status === 'completed'),
      'the 3 runs to complete',
    );
    await until(() => space.heldNames().length === 0, 'every lock to be given back');
  });

  it('ends a followed task that fails in failed, with its failure', async () => {
    vi.useFakeTimers();
    const { open, page, answered, until } = setUp();
    const holder = renderStream(page(1));
    act(() => holder.state().start({ n: 1 }));
    await until(() => isRunning(holder.state()), 'the holder');
    const follower = renderStream(holder);
    act(() => follower.state().start({ n: 2, fail: true }));
    await until(() => isRunning(follower.state()), 'the follower');
    act(open);
    await until(() => follower.state().status === 'failed', 'the follower to fail');
    expect(follower.state().failure).toMatchObject({
      reason: 'GAVE_UP',
      message: 'Task 2 gave up.',
    });
    expect(follower.state().error).toBeUndefined();
    expect(answered('submit')).toBe(1);
    expect(answered('stream')).toBe(1);
  });

  it('gives the slot back on stop, on unmount, on an error, when the stream breaks and after the final event', async () => {
    vi.useFakeTimers();
    const { open, page, answered, until } = setUp([
      { endpoint: 'stream', request: 3, status: 503 },
      { endpoint: 'stream', request: 4, cutAfterEvents: 1 },
    ]);
    // Slots as Web Locks, so the test sees the moment one is given back.
    const space = createInMemoryWebLocks();
    withPageLocks(space.locks);
    const freed = (what: string) => until(() => space.heldNames().length === 0, what);
    const a = renderStream(page(1));
    /** Starts `n` on `view` and waits until it streams: with the slot, never by Submit. */
    const streams = async (view: typeof a, n: number) => {
      const before = answered('stream');
      act(() => view.state().start({ n }));
      await until(() => answered('stream') > before || answered('submit') > 0, `run ${n}`);
      expect(answered('submit')).toBe(0);
      await until(() => isRunning(view.state()), `run ${n} to stream`);
      expect(space.heldNames()).toHaveLength(1);
    };

    await streams(a, 1);
    act(() => a.state().stop());
    expect(a.state().status).toBe('stopped');
    await freed('the slot after stop');

    const b = renderStream(a);
    await streams(b, 2);
    b.unmount();
    await freed('the slot after unmount');

    // Refused before it started (the third stream POST): `error`.
    act(() => a.state().start({ n: 3 }));
    await until(() => a.state().status === 'error', 'the refused stream');
    expect(a.state().error).toMatchObject({ code: 'http', status: 503 });
    await freed('the slot after an error');

    // Broken after its first event (the fourth): `recovering`, its slot free while it reads.
    act(() => a.state().start({ n: 4 }));
    await until(() => a.state().status === 'recovering', 'the broken stream');
    await freed('the slot after the stream broke');
    const c = renderStream(a);
    await streams(c, 5);

    act(open);
    await until(
      () => a.state().status === 'completed' && c.state().status === 'completed',
      'the recovered run and the stream to complete',
    );
    expect(a.state().result).toEqual({ n: 4 });
    await freed('the slot after the final event');
    // And the next start streams again (straight to its end: the gate is open now).
    act(() => c.state().start({ n: 6 }));
    await until(() => c.state().status === 'completed', 'the last stream');
    expect(c.state().result).toEqual({ n: 6 });
    expect(answered('stream')).toBe(5);
    expect(answered('submit')).toBe(0);
    await freed('the last slot');
  });

  it.each([
    ['Web Locks', true],
    ["the page's count", false],
  ])(
    'streams a start that replaces a streaming run at the edge of the budget (%s): the slot is handed over',
    async (_, pageLocks) => {
      vi.useFakeTimers();
      const { open, page, answered, until } = setUp();
      if (pageLocks) withPageLocks(createInMemoryWebLocks().locks);
      const a = renderStream(page(1));
      act(() => a.state().start({ n: 1 }));
      await until(() => isRunning(a.state()), 'the first run to stream');
      // Other params replace the run at once: no slot may be lost between the two.
      act(() => a.state().start({ n: 2 }));
      await until(() => answered('stream') + answered('submit') === 2, 'the second start');
      expect(answered('stream')).toBe(2);
      expect(answered('submit')).toBe(0);
      act(open);
      await until(() => a.state().status === 'completed', 'the second run');
      expect(a.state().result).toEqual({ n: 2 });
    },
  );

  it('sends nothing for a start stopped while it waits for its slot, within budget or over it', async () => {
    vi.useFakeTimers();
    const { open, served, page, answered, until, pass } = setUp();
    const a = renderStream(page(1));
    // Within budget: the free slot is taken, then given back.
    act(() => {
      a.state().start({ n: 1 });
      a.state().stop();
    });
    await pass(5000);
    expect(served.requests).toEqual([]);
    expect(a.state().status).toBe('stopped');

    // Over budget: while another run holds the one slot.
    const holder = renderStream(a);
    act(() => holder.state().start({ n: 2 }));
    await until(() => isRunning(holder.state()), 'the holder');
    act(() => {
      a.state().start({ n: 3 });
      a.state().stop();
    });
    await pass(5000);
    expect(served.requests).toHaveLength(1);
    expect(a.state().status).toBe('stopped');

    act(open);
    await until(() => holder.state().status === 'completed', 'the holder to complete');
    // Neither took the slot for good: the next start streams.
    act(() => a.state().start({ n: 4 }));
    await until(() => a.state().status === 'completed', 'the last stream');
    expect(answered('stream')).toBe(2);
    expect(answered('submit')).toBe(0);
  });

  it('sends a Submit whose answer was lost again with the same idempotency key: one task', async () => {
    vi.useFakeTimers();
    const { open, served, page, tasksStarted, until } = setUp([
      { endpoint: 'submit', request: 1, lostAnswer: true },
    ]);
    const holder = renderStream(page(1));
    act(() => holder.state().start({ n: 1 }));
    await until(() => isRunning(holder.state()), 'the holder');
    const follower = renderStream(holder);
    act(() => follower.state().start({ n: 2 }));
    await until(() => isRunning(follower.state()), 'the follower');

    const submits = served.requests.filter((request) => request.endpoint === 'submit');
    expect(submits).toHaveLength(2);
    expect(submits[0]!.idempotencyKey).toEqual(expect.any(String));
    expect(submits[1]!.idempotencyKey).toBe(submits[0]!.idempotencyKey);
    const ids = submits.map(
      (request) => (request.answer?.body as { response: { id: string } }).response.id,
    );
    expect(ids).toEqual([follower.state().taskId, follower.state().taskId]);

    act(open);
    await until(() => follower.state().status === 'completed', 'the follower to complete');
    expect(follower.state().result).toEqual({ n: 2 });
    expect(tasksStarted()).toBe(2);
  });

  it('ends a run whose Submit is refused (invalid params) in error at once, without sending it again', async () => {
    vi.useFakeTimers();
    const { served, page, until, pass } = setUp();
    const holder = renderStream(page(1));
    act(() => holder.state().start({ n: 1 }));
    await until(() => isRunning(holder.state()), 'the holder');
    const follower = renderStream(holder);
    act(() => follower.state().start({ n: 'two' }));
    await until(() => follower.state().status === 'error', 'the refusal');
    expect(follower.state().error).toMatchObject({
      code: 'http',
      status: 422,
      reason: 'INVALID_PARAMS',
      retryable: false,
    });
    expect(follower.state().taskId).toBeUndefined();
    // Longer than every retry delay would have been.
    await pass(30_000);
    expect(served.requests.filter((request) => request.endpoint === 'submit')).toHaveLength(1);
    expect(follower.state().status).toBe('error');
  });

  it('sends no request for a followed task once it is stopped', async () => {
    vi.useFakeTimers();
    const { open, page, requestsFor, until, pass } = setUp();
    const holder = renderStream(page(1));
    act(() => holder.state().start({ n: 1 }));
    await until(() => isRunning(holder.state()), 'the holder');
    const follower = renderStream(holder);
    act(() => follower.state().start({ n: 2 }));
    await until(() => isRunning(follower.state()), 'the follower');
    const taskId = follower.state().taskId!;
    await until(() => requestsFor(taskId) >= 2, 'two reads of the followed task');

    act(() => follower.state().stop());
    expect(follower.state().status).toBe('stopped');
    const reads = requestsFor(taskId);
    await pass(60_000);
    act(open);
    await until(() => holder.state().status === 'completed', 'the holder to complete');
    await pass(60_000);
    expect(requestsFor(taskId)).toBe(reads);
    expect(follower.state().status).toBe('stopped');
  });

  it('shows a followed run whose Get Result fails (503) as recovering, with the error, and then completes it', async () => {
    vi.useFakeTimers();
    const { open, page, answered, until } = setUp([
      // The second read: the first shows the task `streaming` before the failure.
      { endpoint: 'result', request: 2, status: 503 },
    ]);
    const holder = renderStream(page(1));
    act(() => holder.state().start({ n: 1 }));
    await until(() => isRunning(holder.state()), 'the holder');

    const seen: TaskStreamState<unknown, unknown>[] = [];
    const follower = renderHookWithTaskwire(() => {
      const state = useTaskStream('gated');
      seen.push(state);
      return state;
    }, holder);
    cleanups.push(() => follower.unmount());
    act(() => follower.result.current.start({ n: 2 }));
    await until(
      () =>
        follower.result.current.status === 'recovering' &&
        follower.result.current.error !== undefined,
      'the failed read to show',
    );
    expect(follower.result.current.error).toMatchObject({
      code: 'http',
      status: 503,
      retryable: true,
    });
    expect(follower.result.current.taskId).toEqual(expect.any(String));

    act(open);
    await until(() => follower.result.current.status === 'completed', 'the follower to complete');
    expect(follower.result.current).toMatchObject({ result: { n: 2 }, error: undefined });
    // Shown `streaming` with its task id once Submit answered, `recovering` only after the failure,
    // and with it from its first render.
    expect(seen.find((state) => state.status === 'recovering')?.error).toMatchObject({
      status: 503,
    });
    const statuses = seen.map((state) => state.status).filter((s, i, all) => s !== all[i - 1]);
    expect(statuses).toEqual(['idle', 'connecting', 'streaming', 'recovering', 'completed']);
    expect(answered('submit')).toBe(1);
    expect(answered('stream')).toBe(1);
  });
});
