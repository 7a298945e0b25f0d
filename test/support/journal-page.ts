/**
 * A page of an app under test, as the React tests that keep a task journal build it (docs/protocol.md,
 * "The hooks"): a real client with the user's scope over a reference service in-process, a fresh
 * QueryClient and a journal object (or none), handed to the public test kit's
 * `renderHookWithTaskwire` / `renderWithTaskwire` as their options; several pages on one service
 * are tabs, or one tab before and after a reload. Every service and QueryClient made here is closed
 * by `closeJournalPages`, for `afterEach`.
 */
import { QueryClient } from '@tanstack/react-query';
import { createTaskClient } from '../../src/client/index.js';
import { createTaskJournal, type TaskJournal, type TaskJournalOptions } from '../../src/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  demoTaskSchemas,
  type ReferenceService,
  type ReferenceServiceConfig,
} from '../../src/reference/index.js';
import type { FetchService, TaskwireTestOptions } from '../../src/testing/index.js';
import { withoutRetryAfter } from './without-retry-after.js';

const services: ReferenceService[] = [];
const queryClients: QueryClient[] = [];

/**
 * A fresh reference service in-process with the demo tasks at `timeScale`, closed by
 * `closeJournalPages`; `config` as `createReferenceService` takes it (`events: false` for a service
 * that offers no resumable streams, as a 0.3 one).
 */
export function journalPageService(
  timeScale: number,
  config: ReferenceServiceConfig = {},
): ReferenceService {
  const service = createReferenceService({ timeScale, ...config });
  services.push(service);
  return service;
}

/** What a page is opened with. */
export interface JournalPageOptions {
  /** The journal object the provider hands the hooks, or `undefined` for none. */
  journal: TaskJournal | undefined;
  /** Sees every request the client sends, before the service does. Defaults to none. */
  onRequest?: (request: Request) => void;
  /**
   * Whether the service's `Retry-After` hint reaches the client; without it the hooks' polling
   * policy alone sets the pace (docs/protocol.md, "Get Result"). Defaults to `true`.
   */
  retryAfter?: boolean;
  /**
   * The client's scope (the signed-in user's id), which names the journal's BroadcastChannel and
   * Web Locks. Defaults to `'journal-page-user'`; `null` leaves it unset, as an app that forgot it.
   */
  scope?: string | null;
}

/**
 * One page on `service` (the reference service, or anything answering as it does: a proxy in front
 * of one): its client, QueryClient and journal, the test kit's `options` that render on them, and a
 * way to start tasks.
 */
export function openJournalPage(service: FetchService, options: JournalPageOptions) {
  const { journal, onRequest, retryAfter = true, scope = 'journal-page-user' } = options;
  const client = createTaskClient({
    baseUrl: 'http://taskwire.test',
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
    tasks: demoTaskSchemas,
    ...(scope === null ? {} : { scope }),
    fetch: async (request) => {
      onRequest?.(request);
      const response = await service.fetch(request);
      return retryAfter ? response : withoutRetryAfter(response);
    },
  });
  const queryClient = new QueryClient();
  queryClients.push(queryClient);
  /** The options of `renderHookWithTaskwire` and `renderWithTaskwire` that render on this page. */
  const renderOptions: TaskwireTestOptions<FetchService> = {
    service,
    client,
    queryClient,
    journal,
  };
  /** Submits a task and records it in the journal, as a hook with a `resumeKey` does; its id. */
  const start = async (
    task: Parameters<typeof client.submit>[0],
    params: object,
    startedAt = Date.now(),
  ) => {
    const answer = await client.submit(task, params as never);
    journal?.record(client.scope, {
      task,
      id: answer.id,
      mode: 'submit',
      status: answer.status,
      startedAt,
    });
    return answer.id;
  };
  return { client, queryClient, journal, options: renderOptions, start };
}

/** Clears every QueryClient and closes every service made here; for `afterEach`. */
export async function closeJournalPages(): Promise<void> {
  for (const queryClient of queryClients.splice(0)) queryClient.clear();
  await Promise.all(services.splice(0).map((service) => service.close()));
}

/**
 * A journal as a tab makes it: it takes the tab's Web Locks (`navigator.locks`, which jsdom lacks)
 * when it is made, so `locks` (a `LockManager` of test/support/in-memory-web-locks.ts, one per tab
 * over one shared lock space) stands in for it while the journal is made.
 */
export function tabJournal(locks: LockManager, options: TaskJournalOptions = {}): TaskJournal {
  // Node 20 has no `navigator` at all (the benchmarks run there without jsdom).
  const navigator = ((globalThis as { navigator?: object }).navigator ??= {});
  const before = Object.getOwnPropertyDescriptor(navigator, 'locks');
  Object.defineProperty(navigator, 'locks', { value: locks, configurable: true });
  try {
    return createTaskJournal(options);
  } finally {
    if (before) Object.defineProperty(navigator, 'locks', before);
    else delete (navigator as { locks?: unknown }).locks;
  }
}
