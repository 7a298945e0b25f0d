// app/providers.tsx: the clients, made once per browser page, for the signed-in user.
'use client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { createTaskClient, createTaskJournal, TaskwireProvider } from 'taskwire';

const journal = createTaskJournal();

export function Providers({ userId, children }: { userId: string; children: ReactNode }) {
  const [queryClient] = useState(() => new QueryClient());
  const [client] = useState(() =>
    createTaskClient({ baseUrl: '/api/taskwire', scope: userId /* tokens: see the README */ }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TaskwireProvider client={client} journal={journal}>
        {children}
      </TaskwireProvider>
    </QueryClientProvider>
  );
}
