import { act } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTaskOptions } from '../../src/react/index.js';
import { renderHookWithTaskwire } from '../../src/testing/index.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';
import { fakeTimersAndClock } from '../support/fake-clock.js';

let setUp: ReturnType<typeof hookTestService>;
beforeEach(() => {
  fakeTimersAndClock();
});
afterEach(async () => {
  await closeHookTestServices();
  vi.useRealTimers();
});

const optionsCalls = () => setUp.count('options');
const settle = () => act(() => vi.advanceTimersByTimeAsync(50));

describe('useTaskOptions', () => {
  it('prices the first params at once', async () => {
    setUp = hookTestService();
    const { result } = renderHookWithTaskwire(
      () => useTaskOptions('generate-images', { prompt: 'a cat', count: 3 }),
      {
        ...setUp.options,
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
    setUp = hookTestService();
    const { result } = renderHookWithTaskwire(() => useTaskOptions('echo', { message: 'hi' }), {
      ...setUp.options,
    });
    await settle();
    expect(result.current.data).toEqual({});
  });

  it('debounces while params change and asks once for the params that held still', async () => {
    setUp = hookTestService();
    const view = renderHookWithTaskwire(
      ({ text }) => useTaskOptions('translate-text', { text, targetLanguage: 'fr' }),
      { ...setUp.options, initialProps: { text: 'H' } },
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
    const sent = setUp.service.requests.map(
      (request) => (request.body as { params: unknown }).params,
    );
    expect(sent).toEqual([
      { text: 'H', targetLanguage: 'fr' },
      { text: 'Hello', targetLanguage: 'fr' },
    ]);
    expect(view.result.current.data?.credits).toBeGreaterThan(0);
  });

  it('asks at once with debounceMs: 0, with no timer between the change and the request', async () => {
    setUp = hookTestService();
    const view = renderHookWithTaskwire(
      ({ text }) =>
        useTaskOptions('translate-text', { text, targetLanguage: 'fr' }, { debounceMs: 0 }),
      { ...setUp.options, initialProps: { text: 'Hello.' } },
    );
    await settle();
    expect(optionsCalls()).toBe(1);
    // The fake clock stands still: only what runs without a timer can send the request.
    await act(async () => view.rerender({ text: 'x'.repeat(150) }));
    expect(optionsCalls()).toBe(2);
    expect(view.result.current.isQuoteStale).toBe(true);
    await settle();
    expect(view.result.current.data?.credits).toBe(2);
    expect(view.result.current.isQuoteStale).toBe(false);
  });

  it('keeps the previous quote while the next one loads', async () => {
    // The second quote's answer is held back half a second (on the fake clock), so the loading state
    // is certain to be seen.
    setUp = hookTestService({ faults: [{ endpoint: 'options', request: 2, delayMs: 500 }] });
    const view = renderHookWithTaskwire(
      ({ count }) => useTaskOptions('generate-images', { prompt: 'a cat', count }),
      {
        ...setUp.options,
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
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(view.result.current.isPlaceholderData).toBe(false);
    expect(view.result.current.data).toEqual(
      expect.objectContaining({ credits: expect.any(Number) }),
    );
    expect(optionsCalls()).toBe(2);
  });

  it('asks once per distinct params, by content', async () => {
    setUp = hookTestService();
    const view = renderHookWithTaskwire(({ params }) => useTaskOptions('translate-text', params), {
      ...setUp.options,
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
    setUp = hookTestService();
    const view = renderHookWithTaskwire(
      ({ params }) =>
        useTaskOptions('translate-text', params as { text: string; targetLanguage: string }),
      { ...setUp.options, initialProps: { params: undefined as unknown } },
    );
    await act(() => vi.advanceTimersByTimeAsync(600));
    view.rerender({ params: { text: 42 } });
    await act(() => vi.advanceTimersByTimeAsync(600));
    expect(optionsCalls()).toBe(0);
    expect(view.result.current.fetchStatus).toBe('idle');
  });

  it('is in error with INVALID_PARAMS for params that fail the schema, never pending', async () => {
    setUp = hookTestService();
    const view = renderHookWithTaskwire(
      ({ count }) => useTaskOptions('generate-images', { prompt: 'a cat', count }),
      { ...setUp.options, initialProps: { count: 80 } },
    );
    await settle();
    expect(view.result.current.status).toBe('error');
    expect(view.result.current.error).toMatchObject({ code: 'protocol', reason: 'INVALID_PARAMS' });
    expect(view.result.current.error?.message).toContain('count: must be at most 8');
    expect(optionsCalls()).toBe(0);
  });

  it('shows no earlier quote as current once the params become invalid', async () => {
    setUp = hookTestService();
    const view = renderHookWithTaskwire(
      ({ count }) => useTaskOptions('generate-images', { prompt: 'a cat', count }),
      { ...setUp.options, initialProps: { count: 2 } },
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

describe('useTaskOptions, which params its quote is for', () => {
  it('is stale from a change of params until the quote for the new params arrives', async () => {
    // The second quote's answer is held back half a second (on the fake clock), so the window
    // between the debounce and the answer is certain to be seen.
    setUp = hookTestService({ faults: [{ endpoint: 'options', request: 2, delayMs: 500 }] });
    const view = renderHookWithTaskwire(
      ({ count }) => useTaskOptions('generate-images', { prompt: 'a cat', count }),
      { ...setUp.options, initialProps: { count: 1 } },
    );
    await settle();
    expect(view.result.current.quotedParams).toEqual({ prompt: 'a cat', count: 1 });
    expect(view.result.current.isQuoteStale).toBe(false);
    const first = view.result.current.data;

    // Within the debounce: nothing asked yet, and the quote on screen is for the old params.
    view.rerender({ count: 2 });
    expect(view.result.current.isQuoteStale).toBe(true);
    expect(view.result.current.quotedParams).toEqual({ prompt: 'a cat', count: 1 });
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(optionsCalls()).toBe(1);
    expect(view.result.current.isQuoteStale).toBe(true);

    // The request for the new params is on its way; the old quote is kept (keepPreviousData).
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(optionsCalls()).toBe(2);
    expect(view.result.current.isPlaceholderData).toBe(true);
    expect(view.result.current.data).toBe(first);
    expect(view.result.current.isQuoteStale).toBe(true);
    expect(view.result.current.quotedParams).toEqual({ prompt: 'a cat', count: 1 });

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(view.result.current.data?.credits).toBe(5);
    expect(view.result.current.quotedParams).toEqual({ prompt: 'a cat', count: 2 });
    expect(view.result.current.isQuoteStale).toBe(false);
  });

  it('compares params by content, so the same params in another order are never stale', async () => {
    setUp = hookTestService();
    const view = renderHookWithTaskwire(({ params }) => useTaskOptions('translate-text', params), {
      ...setUp.options,
      initialProps: { params: { text: 'Hi', targetLanguage: 'de' } },
    });
    await settle();
    expect(view.result.current.isQuoteStale).toBe(false);
    view.rerender({ params: { targetLanguage: 'de', text: 'Hi' } });
    expect(view.result.current.isQuoteStale).toBe(false);
    expect(view.result.current.quotedParams).toEqual({ text: 'Hi', targetLanguage: 'de' });
  });

  it('is stale when a quote for earlier params is on screen and the params become undefined', async () => {
    setUp = hookTestService();
    const view = renderHookWithTaskwire(
      ({ params }: { params: { message: string } | undefined }) => useTaskOptions('echo', params),
      {
        ...setUp.options,
        initialProps: { params: { message: 'hi' } as { message: string } | undefined },
      },
    );
    await settle();
    expect(view.result.current.data).toEqual({});
    expect(view.result.current.isQuoteStale).toBe(false);
    view.rerender({ params: undefined });
    expect(view.result.current.isQuoteStale).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(600));
    expect(view.result.current.isQuoteStale).toBe(true);
    expect(view.result.current.quotedParams).toEqual({ message: 'hi' });
    expect(optionsCalls()).toBe(1);
  });

  it('names no params and is not stale while there is no quote', async () => {
    setUp = hookTestService();
    const view = renderHookWithTaskwire(
      ({ count }) => useTaskOptions('generate-images', { prompt: 'a cat', count }),
      { ...setUp.options, initialProps: { count: 80 } },
    );
    expect(view.result.current.quotedParams).toBeUndefined();
    expect(view.result.current.isQuoteStale).toBe(false);
    await settle();
    expect(view.result.current.status).toBe('error');
    expect(view.result.current.quotedParams).toBeUndefined();
    expect(view.result.current.isQuoteStale).toBe(false);
  });
});
