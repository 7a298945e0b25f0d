/**
 * useSubmitTask of taskwire/vue against the reference service in-process, as test/react's are: one
 * task for a double invocation, and with a `resumeKey` a Submit cut by a reload sent again under
 * its key by the next page (a "reload" unmounts the page and mounts a new one, with a new journal
 * object on the same storage, against the same service).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTaskJournal, useSubmitTask } from '../../src/vue/index.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';
import { mapStorage } from '../support/map-storage.js';
import { mountComposable } from '../support/vue-page.js';

afterEach(closeHookTestServices);

describe('useSubmitTask (Vue)', () => {
  it('makes one task of a double invocation with the same params', async () => {
    const { options, count } = hookTestService();
    const { result } = mountComposable(() => useSubmitTask('echo'), options);
    const first = result.mutateAsync({ params: { message: 'once' } });
    const second = result.mutateAsync({ params: { message: 'once' } });
    const [a, b] = await Promise.all([first, second]);
    expect(a.id).toBe(b.id);
    expect(count('submit')).toBe(1);
    expect(result.data.value).toEqual({ id: a.id, status: 'ACCEPTED' });
  });

  it('gives separate calls separate keys and tasks', async () => {
    const { options, count } = hookTestService();
    const { result } = mountComposable(() => useSubmitTask('echo'), options);
    const a = await result.mutateAsync({ params: { message: 'one' } });
    const b = await result.mutateAsync({ params: { message: 'two' } });
    expect(a.id).not.toBe(b.id);
    expect(count('submit')).toBe(2);
  });

  it('sends the same Submit again after a reload mid-request: one task, one charge', async () => {
    const { options, served } = hookTestService();
    const storage = mapStorage();
    // The first page's Submit reaches the service, which makes the task; the page reloads before
    // the answer arrives.
    let reloaded = false;
    const cutBeforeAnswer = {
      fetch: async (request: Request) => {
        const response = await options.service.fetch(request);
        return reloaded ? response : new Promise<Response>(() => undefined);
      },
    };
    const params = { text: 'Bonjour', targetLanguage: 'en' };
    const user = { clientConfig: { scope: 'user-1' } };
    const first = mountComposable(
      () => useSubmitTask('translate-text', { resumeKey: 'translation' }),
      { service: cutBeforeAnswer, journal: createTaskJournal({ storage }), ...user },
    );
    first.result.mutate({ params });
    await vi.waitFor(() => expect(served.requests.filter((r) => r.answer)).toHaveLength(1), {
      timeout: 5000,
    });
    expect(storage.values.get('taskwire:journal:user-1')).toContain('Bonjour');
    first.wrapper.unmount();
    reloaded = true;

    const journal = createTaskJournal({ storage });
    const second = mountComposable(
      () => useSubmitTask('translate-text', { resumeKey: 'translation' }),
      { service: options.service, journal, ...user },
    );
    await vi.waitFor(() => expect(second.result.isSuccess.value).toBe(true), { timeout: 5000 });
    const submits = served.requests.filter((request) => request.endpoint === 'submit');
    expect(submits).toHaveLength(2);
    expect(submits[1]?.idempotencyKey).toBe(submits[0]?.idempotencyKey);
    const ids = submits.map(
      (request) => (request.answer?.body as { response?: { id?: string } }).response?.id,
    );
    expect(new Set(ids).size).toBe(1);
    expect(second.result.data.value?.id).toBe(ids[0]);
    expect(journal.entries('user-1')).toEqual([
      expect.objectContaining({ key: 'translation', id: ids[0], mode: 'submit' }),
    ]);
    expect(storage.values.get('taskwire:journal:user-1')).not.toContain('Bonjour');
  });
});
