/**
 * The reads of resumable streams (docs/protocol.md, "Resumable streams (0.4)"), served from the
 * service's event log: one task's events after a position, and the multiplexed read of a page's
 * tasks. The reads themselves are the event log's (src/events/read-answers.ts), shared with the
 * proxy; this module hands them the service's user, tasks and keep-alive.
 */
import type { EventLog } from '../../events/event-log.js';
import { answerEventsRead, answerFollowRead, readResponse } from '../../events/read-answers.js';
import type { ServiceContext } from '../service-context.js';

/** The silence after which a read sends a keep-alive comment, at time scale 1 (docs/protocol.md, "Streams"). */
export const KEEP_ALIVE_MS = 15_000;

/** How long the service's reads stay silent before a keep-alive, and when they end. */
function readOptions(context: ServiceContext, signal: AbortSignal) {
  return {
    keepAliveMs: KEEP_ALIVE_MS * context.timeScale,
    signal,
  };
}

/**
 * Answers `GET …/<ID>/events`: the task's messages after `Last-Event-ID` for its user, then the
 * live ones (the task name was checked by the caller).
 */
export async function answerEvents(
  context: ServiceContext,
  log: EventLog,
  key: { taskName: string; taskId: string },
  userId: string,
  request: Request,
): Promise<Response> {
  const answer = await answerEventsRead(
    log,
    key,
    userId,
    request.headers.get('last-event-id'),
    readOptions(context, request.signal),
  );
  return readResponse(answer);
}

/** Answers `POST /workflows/events`: the multiplexed read of `body` for its user. */
export function answerFollow(
  context: ServiceContext,
  log: EventLog,
  body: unknown,
  userId: string,
  signal: AbortSignal,
): Response {
  const names = new Set(context.tasks.map((task) => task.name));
  const answer = answerFollowRead(log, body, userId, {
    ...readOptions(context, signal),
    isReadable: (taskName) => names.has(taskName),
  });
  return readResponse(answer);
}
