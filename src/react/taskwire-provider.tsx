'use client';
import { QueryClientContext } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import type { TaskClient } from '../client/types.js';
import type { Locale } from '../components/format.js';
import { TaskwireMessagesProvider } from '../components/messages/messages-provider.js';
import type { TaskwireMessagesOverride } from '../components/messages/messages.js';
import { followRecordStatuses } from '../query/follow-record-statuses.js';
import type { JournalSession } from '../state/journal-session.js';
import { scopedJournalSession } from '../state/scoped-journal-session.js';
import type { TaskJournal } from '../state/task-journal.js';
import type { RegisteredTasks } from '../query/register.js';

/**
 * A client over any task map. The provider takes any client; the hooks are typed by the map declared
 * through `Register` instead, since a React context cannot carry a type parameter.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type AnyTaskClient = TaskClient<any>;

const TaskClientContext = createContext<AnyTaskClient | undefined>(undefined);
const JournalSessionContext = createContext<JournalSession | undefined>(undefined);

/** Props of {@link TaskwireProvider}. */
export interface TaskwireProviderProps {
  /** The client every hook below uses, from `createTaskClient`. */
  client: AnyTaskClient;
  /**
   * Where the hooks below record the tasks they start (`createTaskJournal`), so that a reload or
   * another tab can take them up again, kept per user: the client's `scope` must be set explicitly
   * (`createTaskClient({ scope })`, the signed-in user's id). Without one nothing is stored.
   * Defaults to none.
   */
  journal?: TaskJournal | undefined;
  /**
   * The words of the components below: a whole locale (`de` from
   * `taskwire/locales/de`) or a part of one, laid over English. A component's own `messages` prop
   * is laid over these. Defaults to English.
   */
  messages?: TaskwireMessagesOverride | undefined;
  /**
   * The locale the components below format credits, figures and times in, unless one has its own
   * `locale` prop. Defaults to the user's.
   */
  locale?: Locale;
  /** The part of the app that uses taskwire's hooks. */
  children?: ReactNode;
}

/**
 * Gives the hooks below it their task client, and the journal they record tasks in, if any; and
 * the components below their messages and locale. Place it inside TanStack Query's
 * `QueryClientProvider`.
 *
 * With a journal, it owns the one view of it the hooks below read: the entries of the client's
 * scope, whose statuses follow every record a query of that scope reads. Another client (a
 * log-out and log-in) switches every hook below to the new scope's entries at once.
 *
 * @throws TaskwireError (`protocol`, `SCOPE_REQUIRED`) when given a journal and a client whose
 * `scope` was not set explicitly: a journal keeps tasks per user, and without the user's scope two
 * users of one browser would see each other's tasks. Nothing is stored or shared before.
 */
export function TaskwireProvider({
  client,
  journal,
  messages,
  locale,
  children,
}: TaskwireProviderProps) {
  const { scope, scopeIsExplicit } = client;
  // Found or made during render but lazy: it reads nothing until a hook subscribes, in an effect.
  const session = useMemo(
    () => scopedJournalSession(journal, { scope, scopeIsExplicit }, 'TaskwireProvider'),
    [journal, scope, scopeIsExplicit],
  );
  const queryClient = useContext(QueryClientContext);
  useEffect(() => {
    if (!session || !queryClient) return;
    return followRecordStatuses(queryClient.getQueryCache(), session);
  }, [session, queryClient]);
  return (
    <TaskClientContext.Provider value={client}>
      <JournalSessionContext.Provider value={session}>
        <TaskwireMessagesProvider messages={messages} locale={locale}>
          {children}
        </TaskwireMessagesProvider>
      </JournalSessionContext.Provider>
    </TaskClientContext.Provider>
  );
}

/**
 * The journal session of the nearest {@link TaskwireProvider} (its journal, for its client's
 * scope), or `undefined` when it has no journal.
 */
export function useJournalSession(): JournalSession | undefined {
  return useContext(JournalSessionContext);
}

/** The journal of the nearest {@link TaskwireProvider}, or `undefined` when it has none. */
export function useProvidedJournal(): TaskJournal | undefined {
  return useContext(JournalSessionContext)?.journal;
}

/** The task client of the nearest {@link TaskwireProvider}; throws when there is none. */
export function useTaskClient(): TaskClient<RegisteredTasks> {
  const client = useContext(TaskClientContext);
  if (!client)
    throw new Error('useTaskClient: no <TaskwireProvider client={…}> above this component.');
  return client;
}
