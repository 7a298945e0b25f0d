/**
 * What a binding hands the stream controller of a client's resumable streams (docs/protocol.md, "Resumable streams (0.4)"): the
 * client's one {@link EventFeed} (one read for all the page's streams, "One connection per tab"),
 * shared by every hook or composable of that client, and the short start bound to a task.
 */
import { resumableReadsOf } from '../client/resumable-reads.js';
import { isFinalEvent } from '../protocol/stream-events.js';
import { createEventFeed, type EventFeed } from './event-feed.js';
import { streamSlots } from './stream-slots.js';
import type { ResumableStreams } from './task-stream-controller.js';

/** The feed of each client: one per page and client, made at its first use. */
const feeds = new WeakMap<object, EventFeed>();

/** The resumable streams of `client` for task `task`, or `undefined` for a client without them. */
export function clientResumableStreams<Params>(
  client: { readonly baseUrl: string; readonly maxOpenStreams: number },
  task: string,
): ResumableStreams<Params> | undefined {
  const reads = resumableReadsOf(client);
  if (reads === undefined) return undefined;
  let feed = feeds.get(client);
  if (feed === undefined) {
    feed = createEventFeed({
      open: (follow, { signal, onOpen }) => reads.follow(follow, { signal, onOpen }),
      isFinal: (event) => isFinalEvent(event as { type: string }),
      // The feed's one connection counts in the stream budget across the browser's tabs.
      takeSlot: streamSlots(client.baseUrl, client.maxOpenStreams),
    });
    feeds.set(client, feed);
  }
  return {
    task,
    feed,
    offered: () => reads.offered,
    startDetached: async (params, options) => ({
      id: (await reads.startDetached(task, params, options)).id,
    }),
  };
}
