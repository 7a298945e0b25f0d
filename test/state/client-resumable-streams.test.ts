/**
 * The hooks' resumable side, loaded on demand (src/state/client-resumable-streams.ts; CONTRIBUTING.md,
 * "Bundle size"): at the first answer that says the service offers resumable streams
 * (docs/protocol.md, "Resumable streams (0.4)"), once per client; never on the page of a service
 * without them; and, where it cannot be loaded, the task is followed as with such a service. On the
 * real client and the reference service in-process, on the fake clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import {
  clientResumableStreams,
  type LoadResumableSide,
} from '../../src/state/client-resumable-streams.js';
import { resumableSideOf } from '../../src/state/resumable-side.js';
import { createTaskStreamController } from '../../src/state/task-stream-controller.js';
import { DEMO_TOKENS } from '../support/demo-auth.js';
import { advanceUntil, trackRequests } from '../support/fake-clock.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';
import { pollTaskRecord } from '../support/poll-task-record.js';

beforeEach(() => vi.useFakeTimers());
afterEach(async () => {
  await closeHookTestServices();
  vi.useRealTimers();
});

/** Frames that flush at once: the state is read after each step of the clock. */
const immediateFrames = (flush: () => void) => ({
  schedule: flush,
  flushSoon: flush,
  flushNow: flush,
  cancel: () => undefined,
});

/**
 * A real client on the reference service (resumable unless `events: false`), its streams cut after
 * `cutAfterEvents` events when given; the requests the client sent, and a loader of the resumable
 * side that counts its loads (`fails`: each load rejects, as a chunk that cannot be fetched does).
 */
function setUp(options: { events?: false; cutAfterEvents?: number; fails?: boolean } = {}) {
  const { cutAfterEvents, fails } = options;
  const { service: log, options: hookOptions } = hookTestService({
    events: options.events,
    faults: cutAfterEvents === undefined ? [] : [{ endpoint: 'stream', cutAfterEvents }],
  });
  const service = trackRequests(log);
  const client = createTaskClient({
    baseUrl: 'http://taskwire.test',
    ...DEMO_TOKENS,
    ...hookOptions.clientConfig,
    fetch: (request) => service.fetch(request),
  });
  let loads = 0;
  const load: LoadResumableSide = async (target) => {
    loads += 1;
    if (fails) throw new TypeError('Failed to fetch dynamically imported module');
    return resumableSideOf(target);
  };
  const resumable = clientResumableStreams<{ frames: number; frameMs: number }>(
    client,
    'render-video',
    load,
  );
  const controller = createTaskStreamController({
    openStream: (params: { frames: number; frameMs: number }, streamOptions) =>
      client.stream('render-video', params, streamOptions),
    watchRecord: pollTaskRecord(
      (id, readOptions) => client.getResult('render-video', id, readOptions),
      { minIntervalMs: 10 },
    ),
    resumable,
    createScheduler: immediateFrames,
  });
  controller.subscribe(() => undefined);
  /** The requests the client sent, in order, as `METHOD /path`. */
  const paths = () => log.requests.map(({ method, path }) => `${method} ${path}`);
  const settled = (what: string) =>
    advanceUntil(
      () => ['completed', 'failed', 'error'].includes(controller.getSnapshot().status),
      service,
      what,
    );
  return { client, resumable, controller, paths, settled, loads: () => loads };
}

describe('clientResumableStreams', () => {
  it('loads the resumable side at the first answer that offers resumable streams, once per client', async () => {
    const { client, resumable, loads } = setUp();
    expect(resumable?.offered()).toBe(false);
    expect(loads()).toBe(0);
    // Any answer says it: here, a price.
    await client.options('render-video', { frames: 2, frameMs: 10 });
    expect(resumable?.offered()).toBe(true);
    expect(loads()).toBe(1);
    const loaded = await resumable?.load();
    expect(loaded?.feed).toBeDefined();
    // Another task's streams of the same client, and later answers, load nothing more.
    await clientResumableStreams(client, 'echo')?.load();
    await client.options('render-video', { frames: 3, frameMs: 10 });
    expect(loads()).toBe(1);
  });

  it('never loads it on the page of a service without resumable streams: a broken stream is read with Get Result', async () => {
    const { controller, paths, settled, loads } = setUp({ events: false, cutAfterEvents: 3 });
    controller.start({ frames: 4, frameMs: 20 });
    await settled('the outcome of the broken stream');
    expect(controller.getSnapshot().status).toBe('completed');
    expect(loads()).toBe(0);
    const [stream, ...reads] = paths();
    expect(stream).toBe('POST /workflows/render-video/stream');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((path) => path.endsWith('/result'))).toBe(true);
  });

  it('follows a task with Get Result where the side cannot be loaded, and tries it again when next needed', async () => {
    const { client, controller, paths, settled, loads } = setUp({ fails: true });
    const { id } = await client.submit('render-video', { frames: 3, frameMs: 20 });
    expect(loads()).toBe(1);
    // attach reads the task's log: without the side, it watches the record instead.
    controller.attach(id);
    await settled('the attached task');
    const record = await client.getResult('render-video', id);
    expect(controller.getSnapshot()).toMatchObject({
      status: 'completed',
      taskId: id,
      result: record.result,
    });
    expect(loads()).toBe(2);
    // A start on a service that offers resumable streams streams as 0.3 did: no short start.
    controller.start({ frames: 2, frameMs: 20 });
    await settled('the started stream');
    expect(controller.getSnapshot().status).toBe('completed');
    expect(loads()).toBe(3);
    expect(paths().filter((path) => path.startsWith('POST'))).toEqual([
      'POST /workflows/render-video/submit',
      'POST /workflows/render-video/stream',
    ]);
    expect(paths().some((path) => path.endsWith('/events'))).toBe(false);
  });
});
