/**
 * What the hooks use of a client's resumable streams (docs/protocol.md, "Resumable streams
 * (0.4)"), kept off the public `TaskClient`: whether the service offers them, the multiplexed read,
 * and the short start. Reached through {@link resumableReadsOf}; no package entry exports it.
 */
import type { FollowedTask } from '../protocol/resumable-streams.js';
import type { FollowMessage } from './stream/task-events-read.js';

/** The short start's answer: the task's id, and whether the service started it detached. */
export interface DetachedStart {
  /** The task id. */
  id: string;
  /**
   * `true` when the service answered 202 (`Preference-Applied: respond-async`); `false` when it
   * answered with a stream all the same, which was closed (the task runs on; read it).
   */
  detached: boolean;
}

/** The resumable side of a client. */
export interface ResumableReads {
  /** Whether any answer of the service so far said it offers resumable streams. */
  readonly offered: boolean;
  /**
   * One connection for every task a page follows, each message checked as its task's stream
   * would be; see `followTasks`.
   */
  follow<Event = unknown>(
    tasks: readonly FollowedTask[],
    options?: { signal?: AbortSignal; onOpen?: () => void },
  ): AsyncGenerator<FollowMessage<Event>, undefined, undefined>;
  /**
   * Starts a stream with a short request (`Prefer: respond-async`, sent only to a service that
   * said it offers resumable streams, with an `Idempotency-Key`: the given one, or a fresh one):
   * resolves to the task's id once the service accepted it. Rejects like Submit.
   */
  startDetached(
    task: string,
    params: unknown,
    options?: { idempotencyKey?: string; signal?: AbortSignal },
  ): Promise<DetachedStart>;
}

/** Where a client keeps its resumable side. */
export const RESUMABLE_READS: unique symbol = Symbol.for('taskwire.resumableReads');

/** The resumable side of `client`, or `undefined` for an object that is no taskwire client. */
export function resumableReadsOf(client: object): ResumableReads | undefined {
  return (client as { [RESUMABLE_READS]?: ResumableReads })[RESUMABLE_READS];
}
