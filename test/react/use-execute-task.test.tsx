import { act } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useExecuteTask, useTaskResult } from '../../src/react/index.js';
import { renderHookWithTaskwire } from '../../src/testing/index.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';
import { fakeTimersAndClock, until } from '../support/fake-clock.js';

// On the fake clock: the service's task sleeps and Execute limit, and the hooks' polling, move only
// when the test moves them, so each test says what happened by which simulated instant.
beforeEach(() => {
  fakeTimersAndClock();
});
afterEach(async () => {
  await closeHookTestServices();
  vi.useRealTimers();
});

describe('useExecuteTask', () => {
  it('returns the outcome of a task', async () => {
    const { options } = hookTestService();
    const { result } = renderHookWithTaskwire(() => useExecuteTask('echo'), options);
    act(() => result.current.mutate({ params: { message: 'now' } }));
    await until(() => result.current.isSuccess, { stepMs: 10, limitMs: 1000 });
    expect(result.current.data).toMatchObject({ status: 'COMPLETED', result: { echo: 'now' } });
  });

  it('reports a failed task as data, not as an error', async () => {
    // At its nominal length: failing-task fails after 100 ms.
    const { options } = hookTestService({ timeScale: 1 });
    const { result } = renderHookWithTaskwire(() => useExecuteTask('failing-task'), options);
    act(() => result.current.mutate({ params: {} }));
    // Not before the task has run its 100 ms.
    expect(
      await until(() => result.current.isSuccess, { stepMs: 10, limitMs: 1000 }),
    ).toBeGreaterThanOrEqual(100);
    expect(result.current.data?.status).toBe('FAILED');
    expect(result.current.data?.result).toMatchObject({
      status: 'error',
      statusCode: expect.any(Number),
    });
  });

  it('surfaces the time limit as a timeout with the task id, which useTaskResult can follow', async () => {
    // At nominal length and the default limit: slow-report runs 60 s, Execute waits 20 s.
    const { options, count } = hookTestService({ timeScale: 1 });
    const view = renderHookWithTaskwire(() => useExecuteTask('slow-report'), options);
    const { result } = view;
    act(() => result.current.mutate({ params: { seconds: 60 } }));
    // At the 20 s limit, long before the task's 60 s end.
    const waited = await until(() => result.current.isError, { stepMs: 100, limitMs: 30_000 });
    expect(waited).toBeGreaterThanOrEqual(20_000);
    expect(result.current.error).toMatchObject({
      code: 'timeout',
      status: 504,
      reason: 'EXECUTE_TIMEOUT',
    });
    const taskId = result.current.error?.taskId;
    expect(taskId).toEqual(expect.any(String));
    expect(count('execute')).toBe(1);
    // Beside the first hook: the same client and QueryClient.
    const follow = renderHookWithTaskwire(
      () => useTaskResult('slow-report', taskId, { polling: { minIntervalMs: 10 } }),
      { ...options, client: view.client, queryClient: view.queryClient },
    );
    // The task's other 40 s, followed by polls to its end.
    await until(() => follow.result.current.data?.status === 'COMPLETED', {
      stepMs: 1000,
      limitMs: 60_000,
    });
    expect(follow.result.current.data?.status).toBe('COMPLETED');
  });
});
