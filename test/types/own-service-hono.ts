// server.ts: a Hono app with the proxy under /api/taskwire.
import { Hono } from 'hono';
import { createTaskProxy } from 'taskwire/server';
import { readSession } from './app-session';

const proxy = createTaskProxy({
  target: process.env.TASKWIRE_URL ?? 'https://tasks.example.com/v1',
  clientToken: () => process.env.TASKWIRE_CLIENT_TOKEN ?? '',
  tasks: ['render-video', 'translate-text'],
  basePath: '/api/taskwire',
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

const app = new Hono();
// Hono hands over the request as it came (`c.req.raw`), its full path included.
app.all('/api/taskwire/*', (c) => proxy.fetch(c.req.raw));

export default app;
