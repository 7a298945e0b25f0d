/**
 * Polling and the browser's connectivity: TanStack Query's onlineManager pauses a query's fetches
 * while the browser is offline and resumes them when it is back; the polling of useTaskResult
 * relies on it (docs/protocol.md, "The hooks").
 */
import { onlineManager } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useTaskResult } from '../../src/react/index.js';
import { createHarness } from './harness.js';

let harness: ReturnType<typeof createHarness>;
afterEach(async () => {
  onlineManager.setOnline(true);
  await harness.close();
});

const gets = () => harness.count(/^GET .*\/result$/);

describe('useTaskResult offline', () => {
  it('polls nothing while the browser is offline, and at once when it is back', async () => {
    harness = createHarness({ timeScale: 1 });
    const { id } = await harness.client.submit('render-video', { frames: 40, frameMs: 100 });
    const { result } = renderHook(
      () => useTaskResult('render-video', id, { polling: { minIntervalMs: 20 } }),
      { wrapper: harness.wrapper },
    );
    await waitFor(() => expect(result.current.data?.status).toBe('IN_PROGRESS'));
    act(() => onlineManager.setOnline(false));
    const before = gets();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    // A poll already in flight when the browser went offline may still land; no new one starts.
    expect(gets() - before).toBeLessThanOrEqual(1);
    const offline = gets();
    const backAt = Date.now();
    act(() => onlineManager.setOnline(true));
    await waitFor(() => expect(gets()).toBeGreaterThan(offline));
    expect(Date.now() - backAt).toBeLessThan(500);
  });
});
