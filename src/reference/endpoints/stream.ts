/**
 * Stream (docs/protocol.md, "Streams"): creates a task and answers with its events as they happen,
 * as server-sent events.
 */
import { createTaskEventStream } from '../server-sent-events.js';
import type { ServiceContext, TaskCall } from '../service-context.js';

/** The silence after which a stream sends a keep-alive comment, at time scale 1 (docs/protocol.md, "Streams"). */
const KEEP_ALIVE_MS = 15_000;

/**
 * Answers Stream: 200 with the event stream of a new task; the stream ends when the task does, or
 * when `signal` (the request's) says the client left.
 */
export function answerStream(
  context: ServiceContext,
  call: TaskCall,
  signal: AbortSignal,
): Response {
  const run = context.createRun(call);
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
      'x-task-id': run.id,
    },
  });
}
