// app/api/taskwire/[...path]/route.ts: the proxy in front of your real service, under /api/taskwire.
import { createTaskProxy, routeHandlers } from 'taskwire/server';
import { readSession } from '@/app-session';

const proxy = createTaskProxy({
  target: process.env.TASKWIRE_URL ?? 'https://tasks.example.com/v1',
  // The app token lives in the server's environment; the browser never sees it.
  clientToken: () => process.env.TASKWIRE_CLIENT_TOKEN ?? '',
  // Required: the tasks this app's pages may start. Any other name is 404 and never forwarded.
  tasks: ['render-video', 'translate-text'],
  basePath: '/api/taskwire',
  // Who is calling, from the app's own session: the user's token stays on the server too.
  authorize: async (request) => {
    const session = await readSession(request);
    if (session === undefined) {
      return Response.json(
        { status: 'error', statusCode: 401, reason: 'UNAUTHENTICATED', message: 'Sign in first.' },
        { status: 401 },
      );
    }
    return { userToken: session.taskwireToken };
  },
});

export const { GET, POST, OPTIONS, HEAD } = routeHandlers(proxy);
