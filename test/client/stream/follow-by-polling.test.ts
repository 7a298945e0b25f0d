/**
 * A stream over budget followed with Submit and Get Result (docs/protocol.md, "The stream budget"):
 * the real client against the in-process reference service, scripted tasks on fake timers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TaskwireError, type StreamEvent } from '../../../src/client/index.js';
import { createInMemoryService, followAll } from './follow-harness.js';
import { advanceUntil, settleOnFakeClock } from '../../support/fake-clock.js';
import {
  createRecordEvents,
  followBackoff,
  nextFollowDelay,
  FOLLOW_MIN_INTERVAL_MS,
  type FollowedRecord,
} from '../../../src/client/stream/follow-by-polling.js';
import { scriptTask } from '../../../src/testing/index.js';

afterEach(() => {
  vi.useRealTimers();
});

const story = scriptTask('story', [
  { progress: [10, 4] },
  { emit: ['frame', { index: 1 }] },
  { partial: { frames: 1 } },
  { wait: 2000 },
  { progress: [60, 2] },
  { partial: { frames: 2 } },
  { charge: { toolId: 'render', price: 2, amount: 1 } },
  { wait: 2000 },
  { complete: { frames: 3 } },
]);

describe('following a task by polling', () => {
  it('yields the events its stream would have sent, custom events as references, from one Submit', async () => {
    vi.useFakeTimers();
    const harness = createInMemoryService([story]);
    const { events, error, taskIds } = await settleOnFakeClock(
      followAll(harness, 'story'),
      harness,
      'the follow of story',
    );
    expect(error).toBeUndefined();
    expect(taskIds).toHaveLength(1);
    const eventIds = (await harness.client.getResult('story', taskIds[0]!)).events;
    expect(eventIds).toHaveLength(1);
    expect(events[0]).toEqual({ type: 'event.frame', eventId: eventIds[0]!.id });
    expect(events).toContainEqual({ type: 'task.progress', percent: 10, estimatedSecondsLeft: 4 });
    expect(events).toContainEqual({ type: 'task.partial-result', result: { frames: 1 } });
    expect(events).toContainEqual({ type: 'task.progress', percent: 60, estimatedSecondsLeft: 2 });
    expect(events).toContainEqual({ type: 'task.partial-result', result: { frames: 2 } });
    expect(events.at(-1)).toMatchObject({
      type: 'task.completed',
      result: { frames: 3 },
      usage: { credits: 2 },
    });
    expect(harness.count('submit')).toBe(1);
    expect(harness.count('stream')).toBe(0);
  });

  it('ends a failed task with task.failed and its failure, without usage', async () => {
    vi.useFakeTimers();
    const harness = createInMemoryService([
      scriptTask('doomed', [
        { charge: { toolId: 'x', price: 1, amount: 1 } },
        { fail: { reason: 'BROKE', message: 'It broke.', statusCode: 502 } },
      ]),
    ]);
    const { events } = await settleOnFakeClock(
      followAll(harness, 'doomed'),
      harness,
      'the follow of doomed',
    );
    expect(events.at(-1)).toEqual({
      type: 'task.failed',
      result: { status: 'error', statusCode: 502, reason: 'BROKE', message: 'It broke.' },
    });
  });

  it('sends Submit again with the same idempotency key after a lost answer: one task', async () => {
    vi.useFakeTimers();
    const harness = createInMemoryService(
      [scriptTask('quick', [{ complete: { ok: true } }])],
      [{ endpoint: 'submit', request: 1, lostAnswer: true }],
    );
    const { events, error } = await settleOnFakeClock(
      followAll(harness, 'quick'),
      harness,
      'the follow of quick',
    );
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'task.completed', result: { ok: true } });
    const submits = harness.served.requests.filter((request) => request.endpoint === 'submit');
    expect(submits).toHaveLength(2);
    expect(submits[1]!.idempotencyKey).toBe(submits[0]!.idempotencyKey);
    expect(new Set(submits.map((request) => JSON.stringify(request.answer?.body))).size).toBe(1);
  });

  it('ends at once when Submit is refused, as a stream whose POST is refused does', async () => {
    vi.useFakeTimers();
    const harness = createInMemoryService(
      [scriptTask('busy', [{ complete: null }])],
      [{ endpoint: 'submit', status: 503, reason: 'INTERNAL' }],
    );
    const { error, taskIds } = await settleOnFakeClock(
      followAll(harness, 'busy'),
      harness,
      'the refused follow',
    );
    expect(error).toMatchObject({ code: 'http', status: 503 });
    expect(taskIds).toEqual([]);
    expect(harness.count('submit')).toBe(1);
  });

  it('never polls closer than the floor, and waits out failures with a backoff', async () => {
    vi.useFakeTimers();
    const harness = createInMemoryService(
      [scriptTask('slowly', [{ progress: [1, 0.1] }, { wait: 6000 }, { complete: null }])],
      [
        { endpoint: 'result', request: 2, status: 503, reason: 'INTERNAL' },
        { endpoint: 'result', request: 3, status: 503, reason: 'INTERNAL' },
      ],
    );
    const times: number[] = [];
    harness.onRequest = (endpoint) => {
      if (endpoint === 'result') times.push(Date.now());
    };
    const { events, error } = await settleOnFakeClock(
      followAll(harness, 'slowly'),
      harness,
      'the follow of slowly',
    );
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'task.completed' });
    const gaps = times.slice(1).map((time, index) => time - times[index]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(FOLLOW_MIN_INTERVAL_MS);
    // After each of the two failures, a backoff of 1-2 s, then 2-4 s.
    expect(gaps[1]!).toBeGreaterThanOrEqual(1000);
    expect(gaps[2]!).toBeGreaterThanOrEqual(2000);
    expect(harness.count('submit')).toBe(1);
  });

  it('ends as a broken stream (network, with the task id) when nothing is read for the idle time', async () => {
    vi.useFakeTimers();
    const harness = createInMemoryService(
      [scriptTask('hung', [{ wait: 600_000 }, { complete: null }])],
      [{ endpoint: 'result', status: 503, reason: 'INTERNAL' }],
      { streamIdleTimeoutMs: 10_000 },
    );
    const { error, taskIds } = await settleOnFakeClock(
      followAll(harness, 'hung'),
      harness,
      'the follow of hung',
    );
    expect(error).toBeInstanceOf(TaskwireError);
    expect(error).toMatchObject({ code: 'network', taskId: taskIds[0] });
    expect(harness.count('submit')).toBe(1);
  });

  it('ends at once on a failure that will not heal (404), with its own error', async () => {
    vi.useFakeTimers();
    const harness = createInMemoryService(
      [scriptTask('gone', [{ wait: 1000 }, { complete: null }])],
      [{ endpoint: 'result', status: 404, reason: 'RESULT_NOT_FOUND' }],
    );
    const { error } = await settleOnFakeClock(
      followAll(harness, 'gone'),
      harness,
      'the follow of gone',
    );
    expect(error).toMatchObject({ code: 'http', status: 404, reason: 'RESULT_NOT_FOUND' });
    expect(harness.count('result')).toBe(1);
  });

  it('stops at once when its signal aborts, with no request after', async () => {
    vi.useFakeTimers();
    const harness = createInMemoryService([
      scriptTask('long', [{ wait: 60_000 }, { complete: null }]),
    ]);
    const controller = new AbortController();
    const run = followAll(harness, 'long', controller.signal);
    await advanceUntil(() => harness.count('result') === 2, harness, 'two polls');
    const polls = harness.count('result');
    controller.abort();
    const { error } = await run;
    expect(error).toBeDefined();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(harness.inFlight()).toBeUndefined();
    expect(harness.count('result')).toBe(polls);
  });
});

describe('the follow schedule', () => {
  const record = (estimatedSecondsLeft: number): FollowedRecord => ({
    status: 'IN_PROGRESS',
    result: null,
    progress: { percent: 5, estimatedSecondsLeft },
    events: [],
  });

  it('polls at a quarter of the time left, from 1 s to 10 s, no sooner than Retry-After (at most 5 min)', () => {
    expect(nextFollowDelay(record(0), undefined)).toBe(1000);
    expect(nextFollowDelay(record(20), undefined)).toBe(5000);
    expect(nextFollowDelay(record(3600), undefined)).toBe(10_000);
    expect(nextFollowDelay(record(0), 4000)).toBe(4000);
    expect(nextFollowDelay(record(0), 3_000_000_000)).toBe(300_000);
  });

  it('backs off exponentially up to 30 s, half of it random, and respects Retry-After', () => {
    const error = new TaskwireError('network', 'down');
    expect(followBackoff(1, error, () => 0)).toBe(1000);
    expect(followBackoff(1, error, () => 1)).toBe(2000);
    expect(followBackoff(10, error, () => 1)).toBe(30_000);
    const limited = new TaskwireError('http', 'slow down', { status: 429, retryAfterMs: 7000 });
    expect(followBackoff(1, limited, () => 0)).toBe(7000);
  });

  it('tells each custom event, progress and partial result once, however often a record repeats it', () => {
    const eventsOf = createRecordEvents();
    const running = {
      id: 't',
      status: 'IN_PROGRESS' as const,
      result: { a: 1 },
      progress: { percent: 5, estimatedSecondsLeft: 3 },
      events: [{ type: 'event.x', id: 'e1' }],
    };
    expect(
      eventsOf({
        ...running,
        result: null,
        progress: { percent: 0, estimatedSecondsLeft: 0 },
        events: [],
      }),
    ).toEqual([]);
    expect(eventsOf(running)).toHaveLength(3);
    expect(eventsOf({ ...running, result: { a: 1 } })).toEqual([]);
    expect(
      eventsOf({ ...running, events: [...running.events, { type: 'event.y', id: 'e2' }] }),
    ).toEqual([{ type: 'event.y', eventId: 'e2' }] satisfies StreamEvent[]);
  });
});
