/**
 * Stream (docs/protocol.md, "Streams"): creates a task and answers with its events as they happen,
 * as server-sent events.
 */
import { answerEventsRead, readResponse } from '../../events/read-answers.js';
import { createTaskEventStream } from '../server-sent-events.js';
import type { ServiceContext, TaskCall } from '../service-context.js';
import { KEEP_ALIVE_MS } from './events.js';

/**
 * Answers Stream: 200 with the event stream of a new task; the stream ends when the task does, or
 * when `signal` (the request's) says the client left. With a log (docs/protocol.md, "Resumable
 * streams (0.4)") the stream is a read of the task's log from its first message, each message with
 * its position; a log that could not be started leaves the stream as 0.3 sent it.
 */
export async function answerStream(
  context: ServiceContext,
  call: TaskCall,
  signal: AbortSignal,
): Promise<Response> {
  const run = context.createRun(call);
  const headers = { 'x-task-id': run.id };
  const log = context.events;
  if (log !== undefined) {
    const logged = await context.runLogged(run.id).then(
      () => true,
      () => false,
    );
    if (logged) {
      context.scheduler.enqueue(run);
      const answer = await answerEventsRead(
        log,
        { taskName: run.taskName, taskId: run.id },
        run.userId,
        null,
        {
          keepAliveMs: KEEP_ALIVE_MS * context.timeScale,
          signal,
        },
      );
      return readResponse(answer, headers);
    }
  }
  // Subscribed before the run starts, so no event is missed.
  const body = createTaskEventStream(run, {
    keepAliveMs: KEEP_ALIVE_MS * context.timeScale,
    bufferBytes: context.streamBufferBytes,
    timers: context.timers,
    signal,
  });
  context.scheduler.enqueue(run);
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      ...headers,
    },
  });
}
