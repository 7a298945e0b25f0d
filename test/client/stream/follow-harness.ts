/**
 * The follow-by-polling tests' setup: the in-process reference service with scripted tasks and
 * faults, recorded on both sides of the faults, the real client on it, and a run of
 * {@link followByPolling} with that client's own Submit and Get Result.
 */
import { afterEach } from 'vitest';
import type { TaskwireError } from '../../../src/client/index.js';
import {
  createTaskClient,
  type StreamEvent,
  type TaskClientConfig,
} from '../../../src/client/index.js';
import { followByPolling } from '../../../src/client/stream/follow-by-polling.js';
import { createReferenceService, type AnyTaskDefinition } from '../../../src/reference/index.js';
import { recordRequests, withFaults, type Fault } from '../../../src/testing/index.js';
import { trackRequests } from '../../support/fake-clock.js';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((service) => service.close()));
});

/** A reference service, its recorded requests and a client on it. */
export function createInMemoryService(
  tasks: AnyTaskDefinition[],
  faults: Fault[] = [],
  config: Partial<TaskClientConfig> = {},
) {
  const reference = createReferenceService({ tasks });
  opened.push(reference);
  const served = recordRequests(reference);
  const service = recordRequests(withFaults(served, faults));
  const tracked = trackRequests(service);
  const harness = {
    /** Settles when a request in the service's hands does (for the fake clock). */
    inFlight: tracked.inFlight,
    served,
    service,
    /** Called with each request's endpoint as the client sends it. */
    onRequest: undefined as ((endpoint: string | undefined) => void) | undefined,
    client: createTaskClient({
      baseUrl: 'http://taskwire.test',
      userToken: 'demo-user-token',
      clientToken: 'demo-client-token',
      fetch: (request) => {
        const before = service.requests.length;
        const answer = tracked.fetch(request);
        harness.onRequest?.(service.requests[before]?.endpoint);
        return answer;
      },
      ...config,
      streamIdleTimeoutMs: config.streamIdleTimeoutMs ?? 45_000,
    }),
    idleTimeoutMs: config.streamIdleTimeoutMs ?? 45_000,
    /** How many requests of `endpoint` the client sent so far. */
    count: (endpoint: string) =>
      service.requests.filter((request) => request.endpoint === endpoint).length,
  };
  return harness;
}

/** What {@link createInMemoryService} returns. */
export type FollowHarness = ReturnType<typeof createInMemoryService>;

/** Follows one run of `task` to its end; resolves to its events, the error it ended with and its task ids. */
export async function followAll(harness: FollowHarness, task: string, signal?: AbortSignal) {
  const events: StreamEvent[] = [];
  const taskIds: string[] = [];
  const { client } = harness;
  const follow = followByPolling({
    submit: (idempotencyKey, signal) => client.submit(task, {}, { idempotencyKey, signal }),
    getResult: (taskId, signal, onRetryAfter) =>
      client.getResult(task, taskId, { signal, onRetryAfter }),
    newKey: () => crypto.randomUUID(),
    idleTimeoutMs: harness.idleTimeoutMs,
    signal: signal ?? new AbortController().signal,
    onTaskId: (taskId) => taskIds.push(taskId),
  });
  try {
    for await (const event of follow) events.push(event as StreamEvent);
    return { events, taskIds, error: undefined };
  } catch (error) {
    return { events, taskIds, error: error as TaskwireError | Error };
  }
}
