'use client';
import { createContext, useContext, type ReactNode } from 'react';
import type { TaskClient } from '../client/types.js';
import type { Locale } from '../components/format.js';
import { TaskwireMessagesProvider } from '../components/messages/messages-provider.js';
import type { TaskwireMessagesOverride } from '../components/messages/messages.js';
import type { TaskJournal } from '../state/task-journal.js';
import type { RegisteredTasks } from './register.js';

/**
 * A client over any task map. The provider takes any client; the hooks are typed by the map declared
 * through `Register` instead, since a React context cannot carry a type parameter.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type AnyTaskClient = TaskClient<any>;

const TaskClientContext = createContext<AnyTaskClient | undefined>(undefined);
const TaskJournalContext = createContext<TaskJournal | undefined>(undefined);

/** Props of {@link TaskwireProvider}. */
export interface TaskwireProviderProps {
  /** The client every hook below uses, from `createTaskClient`. */
  client: AnyTaskClient;
  /**
   * Where the hooks below record the tasks they start (`createTaskJournal`), so that a reload or
   * another tab can take them up again. Without one nothing is stored. Defaults to none.
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
 */
export function TaskwireProvider({
  client,
  journal,
  messages,
  locale,
  children,
}: TaskwireProviderProps) {
  return (
    <TaskClientContext.Provider value={client}>
      <TaskJournalContext.Provider value={journal}>
        <TaskwireMessagesProvider messages={messages} locale={locale}>
          {children}
        </TaskwireMessagesProvider>
      </TaskJournalContext.Provider>
    </TaskClientContext.Provider>
  );
}

/** The journal of the nearest {@link TaskwireProvider}, or `undefined` when it has none. */
export function useProvidedJournal(): TaskJournal | undefined {
  return useContext(TaskJournalContext);
}

/** The task client of the nearest {@link TaskwireProvider}; throws when there is none. */
export function useTaskClient(): TaskClient<RegisteredTasks> {
  const client = useContext(TaskClientContext);
  if (!client)
    throw new Error('useTaskClient: no <TaskwireProvider client={…}> above this component.');
  return client;
}
