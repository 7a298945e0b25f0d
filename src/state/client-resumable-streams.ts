/**
 * What a binding hands the stream controller of a client's resumable streams (docs/protocol.md,
 * "Resumable streams (0.4)"): whether the service offers them, and their side (the client's one
 * read of its tasks' logs, shared by every hook or composable of that client, and the short
 * start), loaded with `import()` the first time it may be needed: at the first answer that says the
 * service offers resumable streams, or when a page reads a task's log it did not start (after a
 * reload, `attach`). The page of a service that offers none never loads it (CONTRIBUTING.md,
 * "Bundle size").
 */
import { clientInternalsOf } from '../client/client-internals.js';
import type { ResumableSide } from './resumable-side.js';
import type { ResumableStreams } from './task-stream-controller.js';

/** Loads the resumable side of `client`. */
export type LoadResumableSide = (client: {
  readonly baseUrl: string;
  readonly maxOpenStreams: number;
}) => Promise<ResumableSide | undefined>;

/** The side of each client: one per page and client, loaded at its first use. */
const sides = new WeakMap<object, Promise<ResumableSide | undefined>>();

const importResumableSide: LoadResumableSide = async (client) =>
  (await import('./resumable-side.js')).resumableSideOf(client);

/**
 * The resumable streams of `client` for task `task`, or `undefined` for a client without them.
 * `loadSide` loads the side (the module, by default): a side that cannot be loaded (the page went
 * offline, a deploy removed the chunk) leaves the task followed as with a service that offers none,
 * and is tried again when next needed.
 */
export function clientResumableStreams<Params>(
  client: { readonly baseUrl: string; readonly maxOpenStreams: number },
  task: string,
  loadSide: LoadResumableSide = importResumableSide,
): ResumableStreams<Params> | undefined {
  const service = clientInternalsOf(client)?.context.service;
  if (service === undefined) return undefined;
  const load = () => {
    let side = sides.get(client);
    if (side === undefined) {
      side = loadSide(client).catch(() => {
        sides.delete(client);
        return undefined;
      });
      sides.set(client, side);
    }
    return side;
  };
  // Loaded as soon as the service says it offers them, so a start or a break finds it there.
  if (service.resumable) void load();
  else service.onResumable ??= () => void load();
  return {
    task,
    offered: () => service.resumable,
    load: async () => {
      const side = await load();
      return (
        side && {
          feed: side.feed,
          startDetached: (params, options) => side.startDetached(task, params, options),
        }
      );
    },
  };
}
