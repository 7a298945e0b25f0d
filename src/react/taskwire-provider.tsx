'use client';
import { createContext, useContext, type ReactNode } from 'react';
import type { TaskClient } from '../client/types.js';
import type { RegisteredTasks } from './register.js';

/**
 * A client over any task map. The provider takes any client; the hooks are typed by the map declared
 * through `Register` instead, since a React context cannot carry a type parameter.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type AnyTaskClient = TaskClient<any>;

const TaskClientContext = createContext<AnyTaskClient | undefined>(undefined);

/** Props of {@link TaskwireProvider}. */
export interface TaskwireProviderProps {
  /** The client every hook below uses, from `createTaskClient`. */
  client: AnyTaskClient;
  /** The part of the app that uses taskwire's hooks. */
  children?: ReactNode;
}

/** Gives the hooks below it their task client. Place it inside TanStack Query's `QueryClientProvider`. */
export function TaskwireProvider({ client, children }: TaskwireProviderProps) {
  return <TaskClientContext.Provider value={client}>{children}</TaskClientContext.Provider>;
}

/** The task client of the nearest {@link TaskwireProvider}; throws when there is none. */
export function useTaskClient(): TaskClient<RegisteredTasks> {
  const client = useContext(TaskClientContext);
  if (!client)
    throw new Error('useTaskClient: no <TaskwireProvider client={…}> above this component.');
  return client;
}
