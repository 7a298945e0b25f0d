import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useExecuteTask, useTaskResult } from '../../src/react/index.js';
import { renderHookWithTaskwire } from '../../src/testing/index.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';

afterEach(closeHookTestServices);

describe('useExecuteTask', () => {
  it('returns the outcome of a task', async () => {
    const { options } = hookTestService();
    const { result } = renderHookWithTaskwire(() => useExecuteTask('echo'), options);
    act(() => result.current.mutate({ params: { message: 'now' } }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toMatchObject({ status: 'COMPLETED', result: { echo: 'now' } });
  });

  it('reports a failed task as data, not as an error', async () => {
    const { options } = hookTestService();
    const { result } = renderHookWithTaskwire(() => useExecuteTask('failing-task'), options);
    act(() => result.current.mutate({ params: {} }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data?.status).toBe('FAILED');
    expect(result.current.data?.result).toMatchObject({
      status: 'error',
      statusCode: expect.any(Number),
    });
  });

  it('surfaces the time limit as a timeout with the task id, which useTaskResult can follow', async () => {
    const { options, count } = hookTestService({
      timeScale: 0.001,
      limits: { executeTimeoutMs: 30 },
    });
    const view = renderHookWithTaskwire(() => useExecuteTask('slow-report'), options);
    const { result } = view;
    act(() => result.current.mutate({ params: { seconds: 60 } }));
    await waitFor(() => expect(result.current.isError).toBe(true));
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
    await waitFor(() => expect(follow.result.current.data?.status).toBe('COMPLETED'), {
      timeout: 5000,
    });
  });
});
