/**
 * useTaskOptions of taskwire/vue on fake timers (timers and the clock only), as test/react's are:
 * the first params priced at once, a reactive form's edits debounced into one request for the
 * params that held still, and which params the quote on screen is for.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reactive, ref } from 'vue';
import { useTaskOptions } from '../../src/vue/index.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';
import { holdAnswers } from '../support/hold-answers.js';
import { advanceClock, fakeTimersAndClock } from '../support/fake-clock.js';
import { mountComposable } from '../support/vue-page.js';

let setUp: ReturnType<typeof hookTestService>;
beforeEach(() => {
  fakeTimersAndClock();
});
afterEach(async () => {
  await closeHookTestServices();
  vi.useRealTimers();
});

const sentParams = () =>
  setUp.service.requests.map((request) => (request.body as { params: unknown }).params);

describe('useTaskOptions (Vue)', () => {
  it('prices the first params at once', async () => {
    setUp = hookTestService();
    const { result } = mountComposable(
      () => useTaskOptions('generate-images', { prompt: 'a cat', count: 3 }),
      setUp.options,
    );
    await advanceClock(50);
    expect(result.data.value).toEqual({
      monetization: { toolId: 'image-gen' },
      usageAmount: 3,
      credits: 7.5,
    });
    expect(result.quotedParams.value).toEqual({ prompt: 'a cat', count: 3 });
    expect(result.isQuoteStale.value).toBe(false);
  });

  it('debounces the edits of a reactive form and asks once for the params that held still', async () => {
    setUp = hookTestService();
    const form = reactive({ text: 'H', targetLanguage: 'fr' });
    const { result } = mountComposable(() => useTaskOptions('translate-text', form), setUp.options);
    await advanceClock(50);
    for (const text of ['He', 'Hel', 'Hell', 'Hello']) {
      form.text = text;
      await advanceClock(100);
      // Typing: the quote on screen is for other params than the form's.
      expect(result.isQuoteStale.value).toBe(true);
    }
    await advanceClock(300);
    expect(sentParams()).toEqual([
      { text: 'H', targetLanguage: 'fr' },
      { text: 'Hello', targetLanguage: 'fr' },
    ]);
    expect(result.quotedParams.value).toEqual({ text: 'Hello', targetLanguage: 'fr' });
    expect(result.isQuoteStale.value).toBe(false);
  });

  it('asks at once with debounceMs: 0, with no timer between the change and the request', async () => {
    setUp = hookTestService();
    const text = ref('Hello.');
    const { result } = mountComposable(
      () =>
        useTaskOptions('translate-text', () => ({ text: text.value, targetLanguage: 'fr' }), {
          debounceMs: 0,
        }),
      setUp.options,
    );
    await advanceClock(50);
    expect(sentParams()).toHaveLength(1);
    text.value = 'x'.repeat(150);
    // The fake clock stands still: only what runs without a timer (microtasks) can send it.
    for (let turn = 0; turn < 50; turn += 1) await Promise.resolve();
    expect(sentParams()).toEqual([
      { text: 'Hello.', targetLanguage: 'fr' },
      { text: 'x'.repeat(150), targetLanguage: 'fr' },
    ]);
    await advanceClock(50);
    expect(result.data.value?.credits).toBe(2);
    expect(result.isQuoteStale.value).toBe(false);
  });

  it('keeps the previous quote while the next one loads, saying whose it is', async () => {
    setUp = hookTestService();
    const held = holdAnswers(setUp.service, 'options');
    const count = ref(1);
    const { result } = mountComposable(
      () => useTaskOptions('generate-images', () => ({ prompt: 'a cat', count: count.value })),
      { service: held.service },
    );
    await advanceClock(50);
    expect(result.data.value?.credits).toBe(2.5);
    held.hold();
    count.value = 2;
    await advanceClock(300);
    expect(result.isPlaceholderData.value).toBe(true);
    expect(result.data.value?.credits).toBe(2.5);
    expect(result.quotedParams.value).toEqual({ prompt: 'a cat', count: 1 });
    expect(result.isQuoteStale.value).toBe(true);
    held.release();
    await advanceClock(50);
    expect(result.data.value?.credits).toBe(5);
    expect(result.quotedParams.value).toEqual({ prompt: 'a cat', count: 2 });
    expect(result.isQuoteStale.value).toBe(false);
  });

  it('asks nothing while the params are undefined', async () => {
    setUp = hookTestService();
    const params = ref<{ message: string } | undefined>();
    const { result } = mountComposable(() => useTaskOptions('echo', params), setUp.options);
    await advanceClock(1000);
    expect(setUp.count('options')).toBe(0);
    expect(result.fetchStatus.value).toBe('idle');
    params.value = { message: 'hi' };
    await advanceClock(50);
    expect(result.data.value).toEqual({});
    expect(setUp.count('options')).toBe(1);
  });
});
