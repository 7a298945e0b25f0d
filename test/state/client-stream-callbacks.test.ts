import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import type { TaskRecord } from '../../src/protocol/records.js';
import { createReferenceService, demoTaskSchemas } from '../../src/reference/index.js';
import { clientStreamCallbacks } from '../../src/state/client-stream-callbacks.js';
import { createStreamStartJournal } from '../../src/state/stream-start-journal.js';
import { createTaskJournal } from '../../src/state/task-journal.js';
import { createTaskStreamController } from '../../src/state/task-stream-controller.js';
import { recordRequests } from '../../src/testing/record-requests.js';
import { DEMO_TOKENS } from '../support/demo-auth.js';
import { advanceUntil, trackRequests } from '../support/fake-clock.js';
import { pollTaskRecord } from '../support/poll-task-record.js';

let reference: ReturnType<typeof createReferenceService>;
beforeEach(() => {
  vi.useFakeTimers();
  reference = createReferenceService({ timeScale: 0.01 });
});
afterEach(() => {
  reference.close();
  vi.useRealTimers();
});

/**
 * A stream controller of `render-video` over a real client and the in-process service, with the
 * callbacks every binding hands it and no framework: the records it writes, and the requests sent.
 */
function controllerOf(takeSlot: () => Promise<(() => void) | undefined>) {
  const log = recordRequests(reference);
  const service = trackRequests(log);
  const client = createTaskClient({
    baseUrl: 'http://taskwire.test',
    ...DEMO_TOKENS,
    tasks: demoTaskSchemas,
    fetch: (request) => service.fetch(request),
  });
  const journal = createTaskJournal({ storage: 'memory', sharePolling: false });
  const written: Array<TaskRecord<unknown>> = [];
  const events: string[] = [];
  const controller = createTaskStreamController(
    clientStreamCallbacks({
      client,
      task: 'render-video',
      takeSlot,
      watchRecord: pollTaskRecord((id, options) => client.getResult('render-video', id, options), {
        minIntervalMs: 10,
      }),
      onRecord: (record) => written.push(record),
      onEvent: (event) => events.push(event.type),
      journal: createStreamStartJournal({
        journal,
        scope: client.scope,
        task: 'render-video',
        key: 'video',
      }),
    }),
  );
  controller.subscribe(() => undefined);
  const endpoints = () => log.requests.map((request) => request.endpoint);
  /** Runs the fake clock until the stream has completed. */
  const completed = () =>
    advanceUntil(() => controller.getSnapshot().status === 'completed', service, 'the outcome');
  return { controller, journal, written, events, endpoints, completed };
}

describe('clientStreamCallbacks', () => {
  it('streams the task with a slot: its events to onEvent, its id to the journal, its final record to the cache', async () => {
    let released = 0;
    const { controller, journal, written, events, endpoints, completed } = controllerOf(
      async () => () => {
        released += 1;
      },
    );
    controller.start({ frames: 3, frameMs: 20 });
    await completed();
    const { taskId } = controller.getSnapshot();
    expect(endpoints()).toEqual(['stream']);
    expect(events.filter((type) => type === 'event.frame-rendered')).toHaveLength(3);
    expect(journal.entries('http://taskwire.test')).toEqual([
      expect.objectContaining({ key: 'video', id: taskId, mode: 'stream' }),
    ]);
    expect(written.at(-1)).toMatchObject({ id: taskId, status: 'COMPLETED' });
    expect(released).toBe(1);
    journal.close();
  });

  it('submits and follows the record when no slot is free, writing no record of its own', async () => {
    const { controller, journal, written, events, endpoints, completed } = controllerOf(
      async () => undefined,
    );
    controller.start({ frames: 3, frameMs: 20 });
    await completed();
    expect(endpoints()[0]).toBe('submit');
    expect(endpoints().filter((endpoint) => endpoint === 'submit')).toHaveLength(1);
    expect(
      endpoints()
        .slice(1)
        .every((endpoint) => endpoint === 'result'),
    ).toBe(true);
    expect(events.filter((type) => type === 'event.frame-rendered')).toHaveLength(3);
    expect(written).toEqual([]);
    expect(journal.entries('http://taskwire.test')).toEqual([
      expect.objectContaining({ key: 'video', id: controller.getSnapshot().taskId }),
    ]);
    journal.close();
  });
});
