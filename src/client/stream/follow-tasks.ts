/**
 * The multiplexed read of resumable streams (docs/protocol.md, "Resumable streams (0.4)"): several
 * tasks over one connection, which the hooks drive (not public, reached through
 * src/client/resumable-reads.ts). It only reads: it never posts a task again.
 */
import { TaskwireError } from '../errors.js';
import { abortedError } from '../abort.js';
import { protocolError } from '../error-factories.js';
import type { TaskSchema } from '../../protocol/task-schemas.js';
import { FOLLOW_PATH, FOLLOW_TASK } from '../../protocol/resumable-streams.js';
import { followMessageSchema, type FollowedTask } from '../../protocol/follow-schemas.js';
import { checkStreamEvent, parseStreamData } from './stream-event.js';
import { openEventStream, type EventsReadSetup, type EventStreamBody } from './task-events-read.js';

/** One message of the multiplexed read: a task's event at its position, or the task's error. */
export type FollowMessage<Event> =
  | { task: string; id: string; position: string; event: Event }
  | { task: string; id: string; error: TaskwireError };

/** What the multiplexed read follows. */
export interface FollowOptions {
  /** The tasks, each with the position it has (or `null` from the first message). */
  tasks: readonly FollowedTask[];
  /** The schemas of a task, when the client has them. */
  schemaOf: (task: string) => TaskSchema | undefined;
  /** Closes the read. */
  signal: AbortSignal | undefined;
  /**
   * Called once the service answered the read with an event stream: the moment a page that hands
   * over from an older read closes it.
   */
  onOpen?: (() => void) | undefined;
}

/**
 * The multiplexed read (docs/protocol.md, "Resumable streams (0.4)"): one connection for every
 * task the page follows, each message checked as its task's stream would be. A task that cannot be
 * read comes once as an `http` error with the service's reason. The iteration ends when every task
 * has ended; it rejects when the connection breaks (the caller opens a new read with the positions
 * it has), and it does not resume by itself. Internal: the hooks drive it.
 */
export async function* followTasks<Event>(
  setup: EventsReadSetup,
  options: FollowOptions,
): AsyncGenerator<FollowMessage<Event>, undefined, undefined> {
  const call = setup.context.feed.begin('stream', FOLLOW_TASK);
  const controller = new AbortController();
  const userSignal = options.signal;
  const onAbort = () => controller.abort(userSignal?.reason);
  if (userSignal?.aborted) throw abortedError(userSignal);
  userSignal?.addEventListener('abort', onAbort, { once: true });
  const signal = controller.signal;
  const what = 'The multiplexed events read';
  const positions = new Map(options.tasks.map((task) => [`${task.task}\0${task.id}`, task.after]));
  let body: EventStreamBody | undefined;
  try {
    body = await openEventStream(
      setup,
      { method: 'POST', path: FOLLOW_PATH, body: JSON.stringify({ follow: options.tasks }) },
      what,
      call,
      signal,
    );
    if (body === undefined) return undefined;
    options.onOpen?.();
    for (;;) {
      const messages = await body.next(undefined);
      if (messages === undefined) return undefined;
      for (const message of messages) {
        const parsed = followMessageSchema.safeParse(parseStreamData(message.data, undefined));
        if (!parsed.success) throw protocolError(what, 'a message is not { task, id, … }.');
        const data = parsed.data;
        const key = `${data.task}\0${data.id}`;
        if (!positions.has(key)) throw protocolError(what, 'a message names a task not followed.');
        if ('error' in data) {
          const errorBody = data.error;
          positions.delete(key);
          yield {
            task: data.task,
            id: data.id,
            error: new TaskwireError(
              'http',
              `The service answered ${errorBody.statusCode} ${errorBody.reason}: ${errorBody.message}`,
              {
                status: errorBody.statusCode,
                reason: errorBody.reason,
                body: errorBody,
                taskId: data.id,
              },
            ),
          };
          continue;
        }
        const last = positions.get(key);
        // The page hands over from one read to the next with a short overlap: a repeat is dropped.
        if (last !== null && last !== undefined && data.position <= last) continue;
        positions.set(key, data.position);
        const event = checkStreamEvent<Event>(data.message, {
          schema: options.schemaOf(data.task),
          taskId: data.id,
          eventIdFrom: 'message',
        });
        // One read serves many tasks: each event is reported under its own task, so the activity
        // feed files it where a single task's stream would.
        setup.context.feed.report('event', { ...call, task: data.task, taskId: data.id }, event);
        yield { task: data.task, id: data.id, position: data.position, event };
      }
    }
  } catch (error) {
    const typed = TaskwireError.isInstance(error)
      ? error
      : new TaskwireError('network', `${what} broke.`, { cause: error });
    setup.context.feed.report('error', call, typed);
    throw typed;
  } finally {
    body?.close();
    userSignal?.removeEventListener('abort', onAbort);
    controller.abort();
  }
}
