// app/tasks/page.tsx: a server component that reads the session, inside <Suspense>.
import { cookies } from 'next/headers';
import { Suspense } from 'react';
import { TaskList } from 'taskwire';
import { sessionById } from '@/app-session';
import { Providers } from '@/app/providers';

export default function TasksPage() {
  return (
    <main>
      <h1>Your tasks</h1>
      {/* The cookies make this part per request: with Cache Components (Next 16's default) it
          must render inside <Suspense>, or `next build` fails. The rest is prerendered. */}
      <Suspense fallback={<p>Loading your tasks…</p>}>
        <SignedInTasks />
      </Suspense>
    </main>
  );
}

async function SignedInTasks() {
  const session = await sessionById((await cookies()).get('session')?.value);
  if (session === undefined) return <p>Sign in to see your tasks.</p>;
  return (
    <Providers userId={session.userId}>
      <TaskList />
    </Providers>
  );
}
