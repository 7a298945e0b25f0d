/**
 * Writes every message of a run into the service's event log (docs/protocol.md, "Resumable streams
 * (0.4)"), so that any task, however it was started, can be read again from its first message. A
 * custom event's uuid goes into its message as `eventId`, the id Get Result lists for it.
 */
import type { EventLog } from '../events/event-log.js';
import { isFinalEvent } from '../protocol/stream-events.js';
import type { TaskRun } from './task-run.js';

/**
 * Starts the log of `run` for its user and subscribes to it (call before the run starts, so that no
 * message is missed). `created` resolves once the log exists, and rejects when it could not be
 * started; `appended` resolves once the run has ended and every message was handed to the log. The
 * appends are chained, so the messages keep their order whatever the store; one that fails is
 * dropped, and a read of the log then ends without the rest (the page falls back to Get Result).
 */
export function logRun(
  log: EventLog,
  run: TaskRun,
): { created: Promise<void>; appended: Promise<unknown> } {
  const key = { taskName: run.taskName, taskId: run.id };
  const created = log.create(key, run.userId).then(() => undefined);
  let chain: Promise<unknown> = created;
  run.subscribe(({ event, id }) => {
    const message = JSON.stringify(id === undefined ? event : { ...event, eventId: id });
    const final = isFinalEvent(event as { type: string });
    chain = chain.then(() => log.append(key, [message], final)).then(ignore, ignore);
  });
  // `settled` resolves after the final message was sent to the subscribers, so `chain` is complete.
  const appended = run.settled.then(() => chain).then(ignore, ignore);
  return { created, appended };
}

function ignore(): void {
  // A message the log could not take is missing from it; its reads end early (see above).
}
