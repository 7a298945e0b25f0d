/**
 * The resumable side of a client's streams (docs/protocol.md, "Resumable streams (0.4)"): the
 * client's one {@link EventFeed} (one read for all the page's streams, "One connection per tab")
 * and the short start. Loaded on demand, by client-resumable-streams.ts alone, once the service
 * says it offers resumable streams or a page must read a task's log (after a reload, `attach`), so
 * that the page of a service that offers none never loads it.
 */
import { resumableReadsOf } from '../client/resumable-reads.js';
import { isFinalEvent } from '../protocol/stream-events.js';
import { createEventFeed, type EventFeed } from './event-feed.js';
import { streamSlots } from './stream-slots.js';

/** The page's one read of a client's task logs, and its short start. */
export interface ResumableSide {
  /** The page's one read of its tasks' logs. */
  feed: EventFeed;
  /** Starts task `task` with a short request under `idempotencyKey`, the same on every try. */
  startDetached(
    task: string,
    params: unknown,
    options: { idempotencyKey: string; signal: AbortSignal },
  ): Promise<{ id: string }>;
}

/** The resumable side of `client`, or `undefined` for an object that is no taskwire client. */
export function resumableSideOf(client: {
  readonly baseUrl: string;
  readonly maxOpenStreams: number;
}): ResumableSide | undefined {
  const reads = resumableReadsOf(client);
  if (reads === undefined) return undefined;
  return {
    feed: createEventFeed({
      open: (follow, { signal, onOpen }) => reads.follow(follow, { signal, onOpen }),
      isFinal: (event) => isFinalEvent(event as { type: string }),
      // The feed's one connection counts in the stream budget across the browser's tabs.
      takeSlot: streamSlots(client.baseUrl, client.maxOpenStreams),
    }),
    startDetached: async (task, params, options) => ({
      id: (await reads.startDetached(task, params, options)).id,
    }),
  };
}
