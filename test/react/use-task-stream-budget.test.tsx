/**
 * useTaskStream under the stream budget (docs/protocol.md, "The stream budget"): a stream started
 * while the budget is spent shows what any stream shows, from one Submit and its polls.
 */
import { act } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { useTaskResult, useTaskStream } from '../../src/react/index.js';
import { createReferenceService } from '../../src/reference/index.js';
import { recordRequests, renderHookWithTaskwire } from '../../src/testing/index.js';
import { trackRequests } from '../support/fake-clock.js';
import { gatedTask } from '../support/gated-task.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.useRealTimers();
});

it('shows a stream over budget as any stream: its task id, progress, events by reference, then its outcome', async () => {
  vi.useFakeTimers();
  const { task, open } = gatedTask();
  const reference = createReferenceService({ tasks: [task] });
  cleanups.push(() => reference.close(), open);
  const served = recordRequests(reference);
  const service = trackRequests(served);
  const answered = (endpoint: 'stream' | 'submit' | 'result') =>
    served.requests.filter((request) => request.endpoint === endpoint).length;
  /** Moves the fake clock, a step per `act`, until `done()` holds; never past an unanswered request. */
  const until = async (done: () => boolean, what: string) => {
    for (let step = 0; !done(); step++) {
      if (step > 2000) throw new Error(`Still waiting for ${what}.`);
      await act(async () => {
        const busy = service.inFlight();
        if (busy !== undefined) await busy;
        await vi.advanceTimersByTimeAsync(busy === undefined ? 50 : 0);
      });
    }
  };

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
