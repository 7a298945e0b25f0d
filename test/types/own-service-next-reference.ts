// app/api/taskwire/[...path]/route.ts: the reference service inside a Next.js app, under /api/taskwire.
import { createReferenceService, type ReferenceService } from 'taskwire/reference';
import { routeHandlers } from 'taskwire/server';

// `next dev` evaluates this module again after every edit: one service on globalThis keeps its tasks
// and timers across those reloads, instead of a new service (and lost tasks) per edit.
const globalForTaskwire = globalThis as typeof globalThis & { taskwireService?: ReferenceService };
const service = (globalForTaskwire.taskwireService ??= createReferenceService({
  basePath: '/api/taskwire', // the route's own path
}));

export const { GET, POST, OPTIONS, HEAD } = routeHandlers(service);
