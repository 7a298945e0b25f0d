// app/api/taskwire/[...path]/route.ts: the proxy with its event log in Redis, behind a load balancer.
import { after } from 'next/server';
import { createTaskProxy, routeHandlers } from 'taskwire/server';
import { redisEventLog } from 'taskwire/server/redis';
import { readSession } from '@/app-session';

const proxy = createTaskProxy({
  target: process.env.TASKWIRE_URL ?? 'https://tasks.example.com/v1',
  clientToken: () => process.env.TASKWIRE_CLIENT_TOKEN ?? '',
  tasks: ['render-video', 'translate-text'],
  basePath: '/api/taskwire',
  // Every app server writes and reads the same logs: a read may come to another one than the stream.
  events: redisEventLog(
    { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
    { retentionMs: 10 * 60 * 1000, maxLogBytes: 1024 * 1024 },
  ),
  // On a serverless host the relay into the log goes on after the page's answer ended.
  waitUntil: (work) => after(work),
  authorize: async (request) => {
    const session = await readSession(request);
    if (session === undefined) {
      return Response.json(
        { status: 'error', statusCode: 401, reason: 'UNAUTHENTICATED', message: 'Sign in first.' },
        { status: 401 },
      );
    }
    // userId owns the user's logs, so a refreshed token still reads a stream started before.
    return { userToken: session.taskwireToken, userId: session.userId };
  },
});

export const { GET, POST, OPTIONS, HEAD } = routeHandlers(proxy);
