import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createTaskClient,
  createTaskJournal,
  streamDisplayStatus,
  TaskList,
  TaskProgress,
  TaskwireProvider,
  useCompletionNotice,
  useTaskStream,
} from 'taskwire';
import { TaskwireDevtools } from 'taskwire/devtools';
import { de } from 'taskwire/locales/de';

const client = createTaskClient({
  baseUrl: '/taskwire',
  userToken: 'demo-user-token',
  clientToken: 'demo-client-token',
  // Required with a journal: the signed-in user's id, so one user's tasks never reach another's
  // screen in this browser (a journal without it throws SCOPE_REQUIRED).
  scope: 'demo-user',
});
// Logging and metrics: every request, retry, answer, stream event and error; never a token.
client.subscribe((activity) => {
  if (activity.type === 'request')
    console.debug(activity.method, activity.path, activity.durationMs);
});
// The tasks this browser starts, shared by its tabs: a reload or a second tab takes them up again.
const journal = createTaskJournal({ storage: 'local' });

function RenderVideo() {
  // After a reload, a render still running comes back `recovering` and is read, never posted again.
  const stream = useTaskStream('render-video', { resumeKey: 'render' });
  useCompletionNotice(); // a notice (or the title) when a task ends while the tab is hidden
  return (
    <>
      <button onClick={() => stream.start({ frames: 60 })}>Rendern</button>
      <TaskProgress status={streamDisplayStatus(stream)} percent={stream.progress?.percent} />
      <TaskList />
    </>
  );
}

export function App() {
  return (
    <QueryClientProvider client={new QueryClient()}>
      <TaskwireProvider client={client} journal={journal} messages={de} locale="de">
        <RenderVideo />
        <TaskwireDevtools />
      </TaskwireProvider>
    </QueryClientProvider>
  );
}
