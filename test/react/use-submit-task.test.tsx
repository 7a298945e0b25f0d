import { act, waitFor } from '@testing-library/react';
import { StrictMode, useEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useSubmitTask } from '../../src/react/index.js';
import { createTaskJournal, MAX_JOURNAL_BODY_LENGTH } from '../../src/state/task-journal.js';
import { mapStorage } from '../support/map-storage.js';
import { renderHookWithTaskwire, renderWithTaskwire, type Fault } from '../../src/testing/index.js';
import type { TaskClientConfig } from '../../src/client/index.js';
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

describe('useSubmitTask with a resumeKey, when the page shows the Submit failing', () => {
  /** What the user typed, to look for in the storage and in the Submits sent. */
  const MARKER = 'Bonjour, personal text';
  const failures: Array<{
    shown: string;
    faults?: Fault[];
    clientConfig?: Partial<TaskClientConfig>;
    params?: { text: string; targetLanguage: string };
  }> = [
    { shown: 'a 429', faults: [{ endpoint: 'submit', request: 1, status: 429 }] },
    { shown: 'a 503', faults: [{ endpoint: 'submit', request: 1, status: 503 }] },
    { shown: 'a 401', faults: [{ endpoint: 'submit', request: 1, status: 401 }] },
    {
      shown: 'a network error after the service made the task',
      faults: [{ endpoint: 'submit', request: 1, lostAnswer: true }],
    },
    {
      shown: 'a timeout',
      faults: [{ endpoint: 'submit', request: 1, hang: true }],
      clientConfig: { requestTimeoutMs: 50 },
    },
    {
      shown: 'a refusal by the client’s own checks',
      params: { text: MARKER, targetLanguage: 'not a language' },
    },
    {
      shown: 'a token getter that threw',
      clientConfig: {
        userToken: () => {
          throw new Error('signed out');
        },
      },
    },
  ];

  it.each(failures)(
    'forgets the start after $shown, body and all, and never sends it again on the next mount',
    async ({ faults, clientConfig, params = { text: MARKER, targetLanguage: 'en' } }) => {
      const { options, service } = hookTestService(faults ? { faults } : {});
      const storage = mapStorage();
      const first = renderHookWithTaskwire(
        () => useSubmitTask('translate-text', { resumeKey: 'translation', retry: 0 }),
        {
          ...options,
          clientConfig: { ...options.clientConfig, ...clientConfig },
          journal: createTaskJournal({ storage }),
          scope: 'user-1',
        },
      );
      act(() => first.result.current.mutate({ params }));
      await waitFor(() => expect(first.result.current.error?.name).toBe('TaskwireError'));
      // The error is on screen: nothing of the start is left to send, or to show as unknown.
      expect(createTaskJournal({ storage }).starts('user-1')).toEqual([]);
      for (const value of storage.values.values()) expect(value).not.toContain(MARKER);
      first.unmount();
      const sentBefore = service.requests.length;

      // The next mount (a reload) sends only what the user asks for now.
      const second = renderHookWithTaskwire(
        () => useSubmitTask('translate-text', { resumeKey: 'translation', retry: 0 }),
        { ...options, journal: createTaskJournal({ storage }), scope: 'user-1' },
      );
      const now = { text: 'Guten Tag', targetLanguage: 'en' };
      await act(() => second.result.current.mutateAsync({ params: now }));
      const sentAfter = service.requests.slice(sentBefore);
      expect(sentAfter.map((request) => request.body)).toEqual([{ params: now }]);
    },
  );

  it('stores the body only once the client’s own checks have passed', async () => {
    const { options, count } = hookTestService();
    const storage = mapStorage();
    const { result } = renderHookWithTaskwire(
      () => useSubmitTask('translate-text', { resumeKey: 'translation', retry: 0 }),
      { ...options, journal: createTaskJournal({ storage }), scope: 'user-1' },
    );
    act(() =>
      result.current.mutate({ params: { text: MARKER, targetLanguage: 'not a language' } }),
    );
    await waitFor(() => expect(result.current.error?.reason).toBe('INVALID_PARAMS'));
    expect(count('submit')).toBe(0);
    expect(storage.writes.filter((value) => value.includes(MARKER))).toEqual([]);
  });

  it('removes the body from the storage as soon as the request ends', async () => {
    const { options, service } = hookTestService({
      faults: [{ endpoint: 'submit', request: 1, status: 503 }],
    });
    const storage = mapStorage();
    const { result } = renderHookWithTaskwire(
      () => useSubmitTask('translate-text', { resumeKey: 'translation', retry: 0 }),
      { ...options, journal: createTaskJournal({ storage }), scope: 'user-1' },
    );
    const stored = () => storage.values.get('taskwire:journal:user-1') ?? '';
    // Written ahead while the request is out, gone when it ends: after an error and after a task.
    act(() => result.current.mutate({ params: { text: MARKER, targetLanguage: 'en' } }));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(storage.writes.some((value) => value.includes(MARKER))).toBe(true);
    expect(stored()).not.toContain(MARKER);
    act(() => result.current.mutate({ params: { text: `${MARKER} again`, targetLanguage: 'en' } }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(stored()).not.toContain(MARKER);
    expect(service.requests).toHaveLength(2);
  });

  it('sends a body too large to store without writing it ahead, and never refuses it', async () => {
    const { options, served } = hookTestService();
    const storage = mapStorage();
    const journal = createTaskJournal({ storage });
    const { result } = renderHookWithTaskwire(
      () => useSubmitTask('translate-text', { resumeKey: 'translation', retry: 0 }),
      { ...options, journal, scope: 'user-1' },
    );
    const text = `${MARKER} ${'x'.repeat(MAX_JOURNAL_BODY_LENGTH)}`;
    act(() => result.current.mutate({ params: { text, targetLanguage: 'en' } }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(served.requests.map((request) => request.body)).toEqual([
      { params: { text, targetLanguage: 'en' } },
    ]);
    expect(storage.writes.filter((value) => value.includes(MARKER))).toEqual([]);
    expect(journal.entries('user-1')).toEqual([
      expect.objectContaining({ key: 'translation', id: result.current.data?.id }),
    ]);
  });
});
