/**
 * `renderWithTaskwire`: both providers around the UI, a fresh QueryClient without retries, and a
 * real client on the given service or a new reference service, all handed back to the test.
 */
import { QueryClient, useMutation, useQuery } from '@tanstack/react-query';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import { createContext, useContext } from 'react';
import { waitFor } from '@testing-library/react';
import {
  useSubmitTask,
  useTaskClient,
  useTaskList,
  useTaskOptions,
} from '../../src/react/index.js';
import { CreditCostPreview, createTaskJournal, TaskList } from '../../src/index.js';
import { de } from '../../src/locales/de.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKENS,
  demoTaskSchemas,
  OTHER_USER_TOKEN,
  type ReferenceService,
} from '../../src/reference/index.js';
import {
  recordRequests,
  renderHookWithTaskwire,
  renderWithTaskwire,
  scriptTask,
  withFaults,
} from '../../src/testing/index.js';

const services: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});

/** Runs `echo` with Execute through the provider's client and shows what came back. */
function Echo({ message }: { message: string }) {
  const client = useTaskClient();
  const echo = useQuery({
    queryKey: ['echo', message],
    queryFn: () => client.execute('echo', { message }),
  });
  const record = echo.data;
  return (
    <p>{record?.status === 'COMPLETED' ? `Echo: ${String(record.result?.echo)}` : 'Waiting'}</p>
  );
}

describe('renderWithTaskwire', () => {
  it('renders inside both providers, on a new reference service with the demo tasks', async () => {
    const view = renderWithTaskwire(<Echo message="hello" />);
    services.push(view.service);
    expect(await screen.findByText('Echo: hello')).toBeInTheDocument();
    expect(view.client.scope).toBe('http://taskwire.test');
    expect(view.service.notifications).toEqual([]);
    expect(view.queryClient.getDefaultOptions()).toMatchObject({
      queries: { retry: false },
      mutations: { retry: false },
    });
    expect(view.container).toHaveTextContent('Echo: hello');
  });

  it("retries none of the app's own queries and mutations", async () => {
    let calls = 0;
    function Flaky() {
      const query = useQuery({
        queryKey: ['flaky'],
        queryFn: () => {
          calls += 1;
          return Promise.reject(new Error('down'));
        },
      });
      const save = useMutation({
        mutationFn: () => {
          calls += 1;
          return Promise.reject(new Error('down'));
        },
      });
      return (
        <>
          <p>{query.status}</p>
          <button type="button" onClick={() => save.mutate()}>
            Save: {save.status}
          </button>
        </>
      );
    }
    const view = renderWithTaskwire(<Flaky />);
    services.push(view.service);
    expect(await screen.findByText('error')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button'));
    expect(await screen.findByRole('button', { name: 'Save: error' })).toBeInTheDocument();
    expect(calls).toBe(2);
  });

  it('uses the service it is given, faults and scripted tasks included, and returns it', async () => {
    const inner = createReferenceService({
      tasks: [
        scriptTask('priced', [{ complete: null }], {
          monetization: { toolId: 'tool', price: 4 },
        }),
      ],
    });
    services.push(inner);
    const service = withFaults(inner, [{ endpoint: 'options', request: 1, status: 503 }]);
    function Price() {
      const quote = useTaskOptions('priced', {});
      return <p>{quote.data ? `${quote.data.credits} credits` : quote.status}</p>;
    }
    const view = renderWithTaskwire(<Price />, { service });
    expect(view.service).toBe(service);
    // useTaskOptions retries a 503 itself (its own retry), and the second answer is served.
    expect(await screen.findByText('4 credits', {}, { timeout: 4000 })).toBeInTheDocument();
  });

  it("renders as a user of the test's own beside the demo users (docs/testing-your-components.md)", async () => {
    const service = createReferenceService({
      userTokens: { ...DEMO_USER_TOKENS, 'ada-token': 'ada' },
    });
    services.push(service);
    // The default client still signs in as demo-user, and Ada with her own token.
    renderWithTaskwire(<Echo message="demo" />, { service });
    renderWithTaskwire(<Echo message="ada" />, {
      service,
      clientConfig: { userToken: 'ada-token' },
    });
    expect(await screen.findByText('Echo: demo')).toBeInTheDocument();
    expect(await screen.findByText('Echo: ada')).toBeInTheDocument();
  });

  it('uses the client and QueryClient it is given, and keeps both across rerender', async () => {
    const service: ReferenceService = createReferenceService();
    services.push(service);
    const client = createTaskClient({
      baseUrl: 'http://other.test',
      userToken: OTHER_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
      fetch: (request) => service.fetch(request),
    });
    const queryClient = new QueryClient();
    const view = renderWithTaskwire(<Echo message="one" />, { service, client, queryClient });
    expect(view.client).toBe(client);
    expect(view.queryClient).toBe(queryClient);
    expect(await screen.findByText('Echo: one')).toBeInTheDocument();
    view.rerender(<Echo message="two" />);
    expect(await screen.findByText('Echo: two')).toBeInTheDocument();
    expect(queryClient.getQueryData(['echo', 'two'])).toMatchObject({ result: { echo: 'two' } });
  });
});

describe('renderHookWithTaskwire', () => {
  it('renders a hook inside both providers, with initialProps and a rerender that keeps them', async () => {
    const view = renderHookWithTaskwire(
      ({ count }: { count: number }) => useTaskOptions('generate-images', { prompt: 'a', count }),
      { initialProps: { count: 2 } },
    );
    services.push(view.service);
    await waitFor(() => expect(view.result.current.data?.credits).toBe(5));
    view.rerender({ count: 4 });
    await waitFor(() => expect(view.result.current.data?.credits).toBe(10));
    expect(view.queryClient.getDefaultOptions().queries?.retry).toBe(false);
  });

  it("gives the default client clientConfig's tasks, so bad params are refused before sending", async () => {
    const service = recordRequests(createReferenceService());
    services.push(service);
    const view = renderHookWithTaskwire(() => useSubmitTask('echo'), {
      service,
      clientConfig: { tasks: demoTaskSchemas },
    });
    view.result.current.mutate({ params: { message: 42 as unknown as string } });
    await waitFor(() => expect(view.result.current.isError).toBe(true));
    expect(view.result.current.error?.reason).toBe('INVALID_PARAMS');
    expect(service.requests).toEqual([]);
  });

  it("puts the test's own wrapper inside both providers", async () => {
    const Theme = createContext('none');
    const view = renderHookWithTaskwire(
      () => ({ theme: useContext(Theme), client: useTaskClient() }),
      { wrapper: ({ children }) => <Theme.Provider value="dark">{children}</Theme.Provider> },
    );
    services.push(view.service);
    expect(view.result.current).toEqual({ theme: 'dark', client: view.client });
    const screenView = renderWithTaskwire(<Echo message="wrapped" />, {
      wrapper: ({ children }) => <section aria-label="Wrapped">{children}</section>,
    });
    services.push(screenView.service);
    expect(
      await screen.findByRole('region', { name: 'Wrapped' }).then((region) => region.textContent),
    ).toMatch(/Waiting|Echo: wrapped/);
  });
});

describe('the provider options: journal, scope, messages and locale', () => {
  it('renders a German task list from a journal kept under the given scope', async () => {
    function Start() {
      const submit = useSubmitTask('echo', { resumeKey: 'greeting' });
      return (
        <button type="button" onClick={() => submit.mutate({ params: { message: 'hallo' } })}>
          Start
        </button>
      );
    }
    const journal = createTaskJournal({ storage: 'memory' });
    const view = renderWithTaskwire(
      <>
        <Start />
        <TaskList />
        <CreditCostPreview quote={{ credits: 7.5 }} />
      </>,
      { journal, scope: 'user-1', messages: de, locale: 'de' },
    );
    services.push(view.service);
    expect(view.client.scope).toBe('user-1');
    await userEvent.click(screen.getByRole('button', { name: 'Start' }));
    const list = await screen.findByRole('list', { name: 'Aufgaben' });
    await waitFor(() => expect(within(list).getByText('Abgeschlossen')).toBeInTheDocument());
    expect(journal.entries('user-1')).toMatchObject([{ task: 'echo' }]);
    expect(screen.getByText('7,5 Credits')).toBeInTheDocument();
  });

  it('says to give the scope with a journal, naming its own option', () => {
    const journal = createTaskJournal({ storage: 'memory' });
    expect(() => renderWithTaskwire(<TaskList />, { journal })).toThrow(
      "renderWithTaskwire: a journal keeps tasks per user, so give the user's scope with it: { journal, scope: 'user-1' }.",
    );
  });

  it('gives a hook the same providers', async () => {
    const journal = createTaskJournal({ storage: 'memory' });
    const first = renderHookWithTaskwire(() => useTaskList(), { journal, scope: 'user-2' });
    services.push(first.service);
    expect(first.client.scope).toBe('user-2');
    expect(first.result.current).toEqual([]);
    const { id, status } = await first.client.submit('echo', { message: 'hallo' });
    act(() => {
      journal.record('user-2', { task: 'echo', id, mode: 'submit', status, startedAt: Date.now() });
    });
    await waitFor(() =>
      expect(first.result.current).toMatchObject([{ entry: { id, task: 'echo' } }]),
    );
  });
});
