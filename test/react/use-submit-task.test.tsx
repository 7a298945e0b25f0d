import { act, waitFor } from '@testing-library/react';
import { StrictMode, useEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useSubmitTask } from '../../src/react/index.js';
import { createTaskJournal } from '../../src/state/task-journal.js';
import { mapStorage } from '../support/map-storage.js';
import { renderHookWithTaskwire, renderWithTaskwire } from '../../src/testing/index.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';

afterEach(closeHookTestServices);

describe('useSubmitTask', () => {
  it('submits a task and returns its id', async () => {
    const { options } = hookTestService();
    const { result, client } = renderHookWithTaskwire(() => useSubmitTask('echo'), options);
    act(() => result.current.mutate({ params: { message: 'hi' } }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toEqual({ id: expect.any(String), status: 'ACCEPTED' });
    const record = await client.getResult('echo', result.current.data?.id ?? '');
    expect(record.id).toBe(result.current.data?.id);
  });

  it('makes one task of a double click with the same params', async () => {
    const { options, count } = hookTestService();
    const { result } = renderHookWithTaskwire(() => useSubmitTask('echo'), options);
    let first: Promise<{ id: string }> | undefined;
    let second: Promise<{ id: string }> | undefined;
    act(() => {
      first = result.current.mutateAsync({ params: { message: 'once' } });
      second = result.current.mutateAsync({ params: { message: 'once' } });
    });
    const [a, b] = await Promise.all([first, second]);
    expect(a?.id).toBe(b?.id);
    expect(count('submit')).toBe(1);
  });

  it('makes one task of a StrictMode double effect', async () => {
    const { options, count } = hookTestService();
    const ids: string[] = [];
    function SubmitOnMount() {
      const { mutate } = useSubmitTask('echo');
      useEffect(() => {
        mutate({ params: { message: 'mount' } }, { onSuccess: (answer) => ids.push(answer.id) });
      }, [mutate]);
      return null;
    }
    renderWithTaskwire(
      <StrictMode>
        <SubmitOnMount />
      </StrictMode>,
      options,
    );
    await waitFor(() => expect(ids.length).toBeGreaterThan(0));
    expect(new Set(ids).size).toBe(1);
    expect(count('submit')).toBe(1);
  });

  it('retries a lost answer with the same key, so the service keeps one task', async () => {
    const { options, served } = hookTestService({
      faults: [{ endpoint: 'submit', request: 1, lostAnswer: true }],
    });
    const { result } = renderHookWithTaskwire(() => useSubmitTask('echo', { retry: 3 }), options);
    act(() => result.current.mutate({ params: { message: 'flaky' } }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true), { timeout: 5000 });
    const keys = served.requests.map((request) => request.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    // The service had created the task before the answer was lost, and answered the retry with it.
    expect(served.requests[0]?.answer?.body).toEqual({
      status: 'success',
      response: { id: result.current.data?.id, status: 'ACCEPTED' },
    });
  });

  it('gives separate calls separate keys and tasks', async () => {
    const { options } = hookTestService();
    const { result } = renderHookWithTaskwire(() => useSubmitTask('echo'), options);
    const a = await act(() => result.current.mutateAsync({ params: { message: 'a' } }));
    const b = await act(() => result.current.mutateAsync({ params: { message: 'a' } }));
    expect(a.id).not.toBe(b.id);
  });

  it('reports a refused submit as a typed error and does not retry it', async () => {
    const { options, count } = hookTestService();
    const { result } = renderHookWithTaskwire(() => useSubmitTask('echo'), options);
    act(() => result.current.mutate({ params: { message: 42 as unknown as string } }));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error?.name).toBe('TaskwireError');
    expect(result.current.failureCount).toBe(1);
    // The typed client checks params against the task's schema before sending anything.
    expect(count('submit')).toBe(0);
  });
});

describe('useSubmitTask with a resumeKey, across a reload', () => {
  it('sends the same Submit again after a reload mid-request and follows it: one task, one charge', async () => {
    const { options, served } = hookTestService();
    const storage = mapStorage();
    // The first page's Submit reaches the service, which makes the task; then the page reloads
    // before the answer arrives (the answer never reaches it).
    let reloaded = false;
    const cutBeforeAnswer = {
      ...options.service,
      fetch: async (request: Request) => {
        const response = await options.service.fetch(request);
        return reloaded ? response : new Promise<Response>(() => undefined);
      },
    };
    const params = { text: 'Bonjour', targetLanguage: 'en' };
    const first = renderHookWithTaskwire(
      () => useSubmitTask('translate-text', { resumeKey: 'translation' }),
      {
        ...options,
        service: cutBeforeAnswer,
        journal: createTaskJournal({ storage }),
        scope: 'user-1',
      },
    );
    act(() => first.result.current.mutate({ params }));
    await waitFor(() => expect(served.requests.filter((r) => r.answer)).toHaveLength(1));
    // Written ahead: the start, its key and its body were stored before the request left.
    expect(storage.values.get('taskwire:journal:user-1')).toContain('Bonjour');
    first.unmount();
    reloaded = true;

    const journal = createTaskJournal({ storage });
    const second = renderHookWithTaskwire(
      () => useSubmitTask('translate-text', { resumeKey: 'translation' }),
      { ...options, journal, scope: 'user-1' },
    );
    await waitFor(() => expect(second.result.current.isSuccess).toBe(true));
    const submits = served.requests.filter((request) => request.endpoint === 'submit');
    expect(submits).toHaveLength(2);
    expect(submits[1]?.idempotencyKey).toBe(submits[0]?.idempotencyKey);
    expect(submits[1]?.body).toEqual(submits[0]?.body);
    // The service answered both with its one task: one task, charged once.
    const ids = submits.map(
      (request) => (request.answer?.body as { response?: { id?: string } }).response?.id,
    );
    expect(new Set(ids).size).toBe(1);
    expect(second.result.current.data?.id).toBe(ids[0]);
    expect(journal.entries('user-1')).toEqual([
      expect.objectContaining({ key: 'translation', id: ids[0], mode: 'submit' }),
    ]);
    // The body left the storage once the answer arrived.
    expect(journal.starts('user-1')).toEqual([]);
    expect(storage.values.get('taskwire:journal:user-1')).not.toContain('Bonjour');
    const record = await second.client.getResult('translate-text', ids[0] ?? '');
    await waitFor(async () =>
      expect((await second.client.getResult('translate-text', ids[0] ?? '')).status).toBe(
        'COMPLETED',
      ),
    );
    expect(record.id).toBe(ids[0]);
  });

  it('refuses a resumeKey too long to store before anything is sent', async () => {
    const { options, count } = hookTestService();
    const { result } = renderHookWithTaskwire(
      () => useSubmitTask('echo', { resumeKey: 'k'.repeat(300) }),
      { ...options, journal: createTaskJournal({ storage: 'memory' }), scope: 'user-1' },
    );
    act(() => result.current.mutate({ params: { message: 'hi' } }));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error?.reason).toBe('JOURNAL_ENTRY_REFUSED');
    expect(count('submit')).toBe(0);
  });
});
