import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTaskOptions } from '../../src/react/index.js';
import { createHarness } from './harness.js';

let harness: ReturnType<typeof createHarness>;
beforeEach(() => {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
});
afterEach(async () => {
  await harness.close();
  vi.useRealTimers();
});

const optionsCalls = () => harness.count(/^POST .*\/options$/);
const settle = () => act(() => vi.advanceTimersByTimeAsync(50));

describe('useTaskOptions', () => {
  it('prices the first params at once', async () => {
    harness = createHarness();
    const { result } = renderHook(
      () => useTaskOptions('generate-images', { prompt: 'a cat', count: 3 }),
      {
        wrapper: harness.wrapper,
      },
    );
    await settle();
    expect(result.current.data).toEqual({
      monetization: { toolId: 'image-gen' },
      usageAmount: 3,
      credits: 7.5,
    });
    expect(optionsCalls()).toBe(1);
  });

  it('answers {} for a task without monetization', async () => {
    harness = createHarness();
    const { result } = renderHook(() => useTaskOptions('echo', { message: 'hi' }), {
      wrapper: harness.wrapper,
    });
    await settle();
    expect(result.current.data).toEqual({});
  });

  it('debounces while params change and asks once for the params that held still', async () => {
    harness = createHarness();
    const sent: unknown[] = [];
    const inner = harness.transport;
    harness.transport = async (request) => {
      sent.push((await request.clone().json()).params);
      return inner(request);
    };
    const view = renderHook(
      ({ text }) => useTaskOptions('translate-text', { text, targetLanguage: 'fr' }),
      { wrapper: harness.wrapper, initialProps: { text: 'H' } },
    );
    await settle();
    for (const text of ['He', 'Hel', 'Hell', 'Hello']) {
      view.rerender({ text });
      await act(() => vi.advanceTimersByTimeAsync(100));
    }
    expect(view.result.current.isPlaceholderData || view.result.current.data !== undefined).toBe(
      true,
    );
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(sent).toEqual([
      { text: 'H', targetLanguage: 'fr' },
      { text: 'Hello', targetLanguage: 'fr' },
    ]);
    expect(view.result.current.data?.credits).toBeGreaterThan(0);
  });

  it('keeps the previous quote while the next one loads', async () => {
    harness = createHarness();
    // The second quote is held at the transport until the test lets it through, so the loading
    // state is certain to be seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const inner = harness.transport;
    harness.transport = async (request) => {
      const body = request.url.endsWith('/options') ? await request.clone().json() : undefined;
      if (body?.params.count === 2) await held;
      return inner(request);
    };
    const view = renderHook(
      ({ count }) => useTaskOptions('generate-images', { prompt: 'a cat', count }),
      {
        wrapper: harness.wrapper,
        initialProps: { count: 1 },
      },
    );
    await settle();
    const first = view.result.current.data;
    expect(first?.credits).toEqual(expect.any(Number));
    view.rerender({ count: 2 });
    await act(() => vi.advanceTimersByTimeAsync(260));
    expect(view.result.current.isFetching).toBe(true);
    expect(view.result.current.isPlaceholderData).toBe(true);
    expect(view.result.current.data).toBe(first);
    release();
    await settle();
    expect(view.result.current.isPlaceholderData).toBe(false);
    expect(view.result.current.data).toEqual(
      expect.objectContaining({ credits: expect.any(Number) }),
    );
    expect(optionsCalls()).toBe(2);
  });

  it('asks once per distinct params, by content', async () => {
    harness = createHarness();
    const view = renderHook(({ params }) => useTaskOptions('translate-text', params), {
      wrapper: harness.wrapper,
      initialProps: { params: { text: 'Hi', targetLanguage: 'de' } },
    });
    await settle();
    view.rerender({ params: { targetLanguage: 'de', text: 'Hi' } });
    await act(() => vi.advanceTimersByTimeAsync(600));
    view.rerender({ params: { text: 'Hi there', targetLanguage: 'de' } });
    await act(() => vi.advanceTimersByTimeAsync(600));
    view.rerender({ params: { text: 'Hi', targetLanguage: 'de' } });
    await act(() => vi.advanceTimersByTimeAsync(600));
    expect(optionsCalls()).toBe(2);
  });

  it('sends nothing while params are undefined or fail the task’s schema', async () => {
    harness = createHarness();
    const view = renderHook(
      ({ params }) =>
        useTaskOptions('translate-text', params as { text: string; targetLanguage: string }),
      { wrapper: harness.wrapper, initialProps: { params: undefined as unknown } },
    );
    await act(() => vi.advanceTimersByTimeAsync(600));
    view.rerender({ params: { text: 42 } });
    await act(() => vi.advanceTimersByTimeAsync(600));
    expect(optionsCalls()).toBe(0);
    expect(view.result.current.fetchStatus).toBe('idle');
  });

  it('is in error with INVALID_PARAMS for params that fail the schema, never pending', async () => {
    harness = createHarness();
    const view = renderHook(
      ({ count }) => useTaskOptions('generate-images', { prompt: 'a cat', count }),
      { wrapper: harness.wrapper, initialProps: { count: 80 } },
    );
    await settle();
    expect(view.result.current.status).toBe('error');
    expect(view.result.current.error).toMatchObject({ code: 'protocol', reason: 'INVALID_PARAMS' });
    expect(view.result.current.error?.message).toContain('count: must be at most 8');
    expect(optionsCalls()).toBe(0);
  });

  it('shows no earlier quote as current once the params become invalid', async () => {
    harness = createHarness();
    const view = renderHook(
      ({ count }) => useTaskOptions('generate-images', { prompt: 'a cat', count }),
      { wrapper: harness.wrapper, initialProps: { count: 2 } },
    );
    await settle();
    expect(view.result.current.data?.credits).toEqual(expect.any(Number));
    view.rerender({ count: 80 });
    await act(() => vi.advanceTimersByTimeAsync(300));
    await settle();
    expect(view.result.current.status).toBe('error');
    expect(view.result.current.data).toBeUndefined();
    expect(view.result.current.isPlaceholderData).toBe(false);
    expect(optionsCalls()).toBe(1);
  });
});
