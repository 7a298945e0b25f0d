// app/providers.tsx: the browser's client holds no token; the proxy adds both on the server.
'use client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { createTaskClient, TaskwireProvider } from 'taskwire';

export function Providers({ userId, children }: { userId: string; children: ReactNode }) {
  const [queryClient] = useState(() => new QueryClient());
  // Same origin, no clientToken, no userToken; scope keeps one user's cache apart from the next.
  const [client] = useState(() => createTaskClient({ baseUrl: '/api/taskwire', scope: userId }));
  return (
    <QueryClientProvider client={queryClient}>
      <TaskwireProvider client={client}>{children}</TaskwireProvider>
    </QueryClientProvider>
  );
}
