import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useExecuteTask, useTaskResult } from '../../src/react/index.js';
import { createHarness } from './harness.js';

let harness: ReturnType<typeof createHarness>;
afterEach(() => harness.close());

describe('useExecuteTask', () => {
  it('returns the outcome of a task', async () => {
    harness = createHarness();
    const { result } = renderHook(() => useExecuteTask('echo'), { wrapper: harness.wrapper });
    act(() => result.current.mutate({ params: { message: 'now' } }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toMatchObject({ status: 'COMPLETED', result: { echo: 'now' } });
  });

  it('reports a failed task as data, not as an error', async () => {
    harness = createHarness();
    const { result } = renderHook(() => useExecuteTask('failing-task'), {
      wrapper: harness.wrapper,
    });
    act(() => result.current.mutate({ params: {} }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data?.status).toBe('FAILED');
    expect(result.current.data?.result).toMatchObject({
      status: 'error',
      statusCode: expect.any(Number),
    });
  });

  it('surfaces the time limit as a timeout with the task id, which useTaskResult can follow', async () => {
    harness = createHarness({ timeScale: 0.001, limits: { executeTimeoutMs: 30 } });
    const { result } = renderHook(() => useExecuteTask('slow-report'), {
      wrapper: harness.wrapper,
    });
    act(() => result.current.mutate({ params: { seconds: 60 } }));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toMatchObject({
      code: 'timeout',
      status: 504,
      reason: 'EXECUTE_TIMEOUT',
    });
    const taskId = result.current.error?.taskId;
    expect(taskId).toEqual(expect.any(String));
    expect(harness.count(/execute$/)).toBe(1);
    const follow = renderHook(
      () => useTaskResult('slow-report', taskId, { polling: { minIntervalMs: 10 } }),
      { wrapper: harness.wrapper },
    );
    await waitFor(() => expect(follow.result.current.data?.status).toBe('COMPLETED'), {
      timeout: 5000,
    });
  });
});
