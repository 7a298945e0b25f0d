// The guide's example of mounting the devtools (docs/devtools.md).
// The imports name the sources; the guide shows them as the package's entries.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createTaskClient, TaskwireProvider } from '../../../src/index.js';
import { TaskwireDevtools } from '../../../src/devtools/index.js';

const queryClient = new QueryClient();
const client = createTaskClient({
  baseUrl: '/taskwire',
  userToken: () => sessionStorage.getItem('user-token') ?? '',
  clientToken: 'my-app-token',
});

/** The app's root: the devtools sit below the provider and show nothing in production. */
export function App({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <TaskwireProvider client={client}>
        {children}
        <TaskwireDevtools />
      </TaskwireProvider>
    </QueryClientProvider>
  );
}
