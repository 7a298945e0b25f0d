import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/protocol/stream-events.js';
import { createFrameScheduler } from '../../src/state/frame-scheduler.js';
import { createTaskStreamController } from '../../src/state/task-stream-controller.js';
import type { StreamOptions, TaskStream } from '../../src/client/types.js';

type Event = StreamEvent<{ frames: number }>;

/** Animation frames that run only when the test ticks them; `current` counts the ticks. */
function manualFrames() {
  const waiting = new Set<() => void>();
  const frames = {
    current: 0,
    request(callback: () => void) {
      waiting.add(callback);
      return () => waiting.delete(callback);
    },
    tick() {
      frames.current += 1;
      const due = [...waiting];
      waiting.clear();
      for (const callback of due) callback();
    },
  };
  return frames;
}

/** A stream the test feeds by hand: `push` hands over events, each awaited by the controller. */
function manualStream(taskId: string) {
  const queue: Event[] = [];
  let wake: (() => void) | undefined;
  const stream = {
    opened: 0,
    push(...events: Event[]) {
      queue.push(...events);
      wake?.();
    },
    open(_params: unknown, options: StreamOptions): TaskStream<Event> {
      stream.opened += 1;
      return {
        taskId,
        async *[Symbol.asyncIterator]() {
          options.onOpen?.({ taskId });
          for (;;) {
            while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
            const event = queue.shift() as Event;
            yield event;
            if (event.type === 'task.completed' || event.type === 'task.failed') return;
          }
        },
      };
    },
  };
  return stream;
}

/** Lets the controller's `for await` loop take everything pushed so far. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup() {
  const frames = manualFrames();
  const stream = manualStream('6f1c2a44-6a1e-4d0b-9a53-0c9d3f1b7e21');
  const controller = createTaskStreamController<unknown, { frames: number }, never>({
    openStream: stream.open,
    watchRecord: () => () => undefined,
    createScheduler: (flush) => createFrameScheduler(flush, frames.request),
  });
  // Every notification a subscriber gets, with the frame it came in and the status it showed.
  const notifications: Array<{ frame: number; status: string; percent: number | undefined }> = [];
  const unsubscribe = controller.subscribe(() => {
    const snapshot = controller.getSnapshot();
    notifications.push({
      frame: frames.current,
      status: snapshot.status,
      percent: snapshot.progress?.percent,
    });
  });
  const perFrame = () => {
    const counts = new Map<number, number>();
    for (const { frame } of notifications) counts.set(frame, (counts.get(frame) ?? 0) + 1);
    return Math.max(...counts.values());
  };
  return { frames, stream, controller, notifications, perFrame, unsubscribe };
}

const progress = (percent: number): Event => ({
  type: 'task.progress',
  percent,
  estimatedSecondsLeft: 1,
});
const completed: Event = { type: 'task.completed', result: { frames: 3 } };

describe('createTaskStreamController', () => {
  it('tells subscribers once per frame however many events arrive in it', async () => {
    const { frames, stream, controller, notifications, unsubscribe } = setup();
    controller.start({});
    await settle();
    frames.tick();
    notifications.length = 0;
    stream.push(progress(10), progress(20), progress(30));
    await settle();
    expect(notifications).toEqual([]);
    frames.tick();
    expect(notifications).toEqual([{ frame: 2, status: 'streaming', percent: 30 }]);
    unsubscribe();
  });

  it('shows the final state at once when no flush ran in this frame', async () => {
    const { frames, stream, controller, notifications, perFrame, unsubscribe } = setup();
    controller.start({});
    await settle();
    frames.tick();
    stream.push(progress(50));
    await settle();
    frames.tick();
    // A frame passes with nothing to show, then the final event comes.
    frames.tick();
    stream.push(progress(90), completed);
    await settle();
    expect(notifications.at(-1)).toEqual({ frame: 3, status: 'completed', percent: 100 });
    expect(controller.getSnapshot().result).toEqual({ frames: 3 });
    frames.tick();
    expect(notifications.at(-1)?.frame).toBe(3);
    expect(perFrame()).toBeLessThanOrEqual(1);
    unsubscribe();
  });

  it('shows the final state on the next frame when this frame already had its flush', async () => {
    const { frames, stream, controller, notifications, perFrame, unsubscribe } = setup();
    controller.start({});
    await settle();
    frames.tick();
    stream.push(progress(50));
    await settle();
    frames.tick();
    expect(notifications.at(-1)).toEqual({ frame: 2, status: 'streaming', percent: 50 });
    // The final event lands in the frame whose scheduled flush just ran.
    stream.push(progress(90), completed);
    await settle();
    expect(notifications.at(-1)).toEqual({ frame: 2, status: 'streaming', percent: 50 });
    frames.tick();
    expect(notifications.at(-1)).toEqual({ frame: 3, status: 'completed', percent: 100 });
    expect(controller.getSnapshot().result).toEqual({ frames: 3 });
    expect(perFrame()).toBeLessThanOrEqual(1);
    // Nothing more is flushed afterwards.
    const count = notifications.length;
    frames.tick();
    frames.tick();
    expect(notifications).toHaveLength(count);
    unsubscribe();
  });

  it('drops a final state waiting for its frame once its last subscriber has left', async () => {
    const { frames, stream, controller, unsubscribe } = setup();
    controller.start({});
    await settle();
    frames.tick();
    stream.push(progress(50));
    await settle();
    frames.tick();
    stream.push(completed);
    await settle();
    unsubscribe();
    await settle();
    frames.tick();
    // The flush that would have shown `completed` was cancelled, not merely sent to nobody.
    expect(controller.getSnapshot().status).toBe('streaming');
    // A subscriber that comes later sees the latest state.
    controller.subscribe(() => undefined);
    expect(controller.getSnapshot().status).toBe('completed');
  });

  it('still shows start and stop at once, in a frame that already had its flush', async () => {
    const { frames, stream, controller, notifications, unsubscribe } = setup();
    controller.start({});
    await settle();
    frames.tick();
    stream.push(progress(50));
    await settle();
    frames.tick();
    controller.stop();
    expect(notifications.at(-1)).toEqual({ frame: 2, status: 'stopped', percent: 50 });
    controller.start({ again: true });
    expect(notifications.at(-1)).toEqual({ frame: 2, status: 'connecting', percent: undefined });
    // The stream opened in the same frame (this one opens as soon as it is read): shown on the next.
    expect(controller.getSnapshot().status).toBe('connecting');
    frames.tick();
    expect(notifications.at(-1)).toEqual({ frame: 3, status: 'streaming', percent: undefined });
    expect(stream.opened).toBe(2);
    unsubscribe();
  });
});

describe('createTaskStreamController, the records it hands to onRecord', () => {
  it('hands over an IN_PROGRESS record once per frame while it streams, only when it changed', async () => {
    const frames = manualFrames();
    const taskId = '6f1c2a44-6a1e-4d0b-9a53-0c9d3f1b7e21';
    const stream = manualStream(taskId);
    const records: Array<{ frame: number; status: string; percent: number }> = [];
    const controller = createTaskStreamController<unknown, { frames: number }, never>({
      openStream: stream.open,
      watchRecord: () => () => undefined,
      createScheduler: (flush) => createFrameScheduler(flush, frames.request),
      onRecord: (record) =>
        records.push({
          frame: frames.current,
          status: record.status,
          percent: record.progress.percent,
        }),
    });
    const unsubscribe = controller.subscribe(() => undefined);
    controller.start({});
    await settle();
    frames.tick();
    // Open, no progress yet: nothing to say.
    expect(records).toEqual([]);
    stream.push(progress(10), progress(20));
    await settle();
    frames.tick();
    frames.tick();
    stream.push(progress(30));
    await settle();
    frames.tick();
    expect(records).toEqual([
      { frame: 2, status: 'IN_PROGRESS', percent: 20 },
      { frame: 4, status: 'IN_PROGRESS', percent: 30 },
    ]);
    stream.push({ type: 'task.partial-result', result: { frames: 1 } } as Event);
    await settle();
    frames.tick();
    expect(records.at(-1)).toEqual({ frame: 5, status: 'IN_PROGRESS', percent: 30 });
    expect(records).toHaveLength(3);
    stream.push(completed);
    await settle();
    frames.tick();
    expect(records.at(-1)).toEqual({ frame: 5, status: 'COMPLETED', percent: 100 });
    expect(records.filter((record) => record.status === 'IN_PROGRESS')).toHaveLength(3);
    unsubscribe();
  });
});

describe('createTaskStreamController with a task to resume', () => {
  const taskId = '6f1c2a44-6a1e-4d0b-9a53-0c9d3f1b7e21';
  function resuming() {
    const lookups: string[] = [];
    const watched: string[] = [];
    const controller = createTaskStreamController<unknown, { frames: number }, never>({
      openStream: manualStream(taskId).open,
      watchRecord: (id) => {
        watched.push(id);
        return () => undefined;
      },
      createScheduler: (flush) => createFrameScheduler(flush, manualFrames().request),
      resume: () => {
        lookups.push('looked up');
        return taskId;
      },
    });
    return { controller, lookups, watched };
  }

  it('looks nothing up when created or asked for the server snapshot, which stays idle', () => {
    const { controller, lookups, watched } = resuming();
    expect(controller.getServerSnapshot().status).toBe('idle');
    expect(controller.getServerSnapshot()).toBe(controller.getServerSnapshot());
    expect(lookups).toEqual([]);
    expect(watched).toEqual([]);
  });

  it('is recovering from the first snapshot, and watches the task from the first subscriber', () => {
    const { controller, lookups, watched } = resuming();
    expect(controller.getSnapshot()).toMatchObject({ status: 'recovering', taskId });
    expect(watched).toEqual([]);
    controller.subscribe(() => undefined);
    expect(lookups).toEqual(['looked up']);
    expect(watched).toEqual([taskId]);
    expect(controller.getServerSnapshot().status).toBe('idle');
  });

  it('takes the task up at the first subscription when no snapshot came first (after hydration)', () => {
    const { controller, lookups, watched } = resuming();
    controller.getServerSnapshot();
    controller.subscribe(() => undefined);
    expect(lookups).toEqual(['looked up']);
    expect(watched).toEqual([taskId]);
    expect(controller.getSnapshot()).toMatchObject({ status: 'recovering', taskId });
  });

  it('resumes nothing once a stream was started before the first snapshot', () => {
    const { controller, lookups, watched } = resuming();
    controller.start({});
    controller.subscribe(() => undefined);
    expect(lookups).toEqual([]);
    expect(watched).toEqual([]);
    expect(['connecting', 'streaming']).toContain(controller.getSnapshot().status);
  });
});
