// server.ts: an Express app with the proxy under /api/taskwire.
import express from 'express';
import { createNodeHandler } from 'taskwire/reference/node';
import { createTaskProxy } from 'taskwire/server';
import { readSession } from './app-session';

const proxy = createTaskProxy({
  target: process.env.TASKWIRE_URL ?? 'https://tasks.example.com/v1',
  clientToken: () => process.env.TASKWIRE_CLIENT_TOKEN ?? '',
  tasks: ['render-video', 'translate-text'],
  // No basePath: Express takes the mount path off `req.url` before the handler sees it.
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

const app = express();
// Before any body parser (express.json() would read the body first). `pathPrefix` puts the mount
// path back in front of the Location headers, so they point at the proxy again.
app.use('/api/taskwire', createNodeHandler(proxy, { pathPrefix: '/api/taskwire' }));
app.listen(3000);
