/**
 * The public shapes of a reference service's configuration and of the notifications it sends, kept
 * apart from the code that reads them so that every part of the service can name them without an
 * import circle.
 */
import type { EventLog } from '../events/event-log.js';
import type { NotificationAction } from '../protocol/notification.js';
import type { AnyTaskDefinition } from './define-task.js';
import type { RateLimit } from './token-bucket-rate-limiter.js';

/** The limits of a reference service. */
export interface ReferenceServiceLimits {
  /** The largest request body, in bytes. Defaults to `1048576` (1 MiB). */
  bodyBytes?: number;
  /** How long a finished task is kept before Get Result answers 410. Defaults to `3600000` (1 h). */
  retentionMs?: number;
  /** How long Execute waits, in real milliseconds, before it answers 504. Defaults to `20000`. */
  executeTimeoutMs?: number;
  /** A token bucket per user; requests past it answer 429. Defaults to none (no rate limit). */
  rateLimit?: RateLimit;
  /** How many tasks run at once; later ones wait as ACCEPTED. Defaults to `256`. */
  concurrentTasks?: number;
  /**
   * How many tasks that have not ended (ACCEPTED or IN_PROGRESS, however started) one user may
   * have; a task past it answers 429 `TOO_MANY_TASKS`, so one user cannot fill the queue of
   * `concurrentTasks` for everyone. Defaults to `32`.
   */
  tasksPerUser?: number;
  /**
   * How many task records are kept; past it, the tasks that finished first are dropped before their
   * retention (Get Result answers 410), while tasks that have not ended are never dropped. Defaults
   * to `10000`.
   */
  tasks?: number;
  /** How many `Idempotency-Key`s are remembered; past it, the oldest is forgotten first. Defaults to `10000`. */
  idempotencyKeys?: number;
  /** The most bytes queued for a stream client that does not read before it is dropped. Defaults to `8388608` (8 MiB). */
  streamBufferBytes?: number;
}

/**
 * A completion notification (docs/protocol.md, "Notifications"), as delivered to the sink and the
 * callback.
 */
export interface ReferenceNotification {
  /** The task that completed. */
  taskId: string;
  /** Its task name. */
  task: string;
  /** The title: the Submit's `notification.data.title`, or a default naming the task. */
  title: string;
  /** The description: the Submit's `notification.data.description`, or a default. */
  description: string;
  /** The calls to action sent with the Submit (every link checked). */
  actions: NotificationAction[];
}

/** Configuration of `createReferenceService`; every member is optional. */
export interface ReferenceServiceConfig {
  /** The tasks served. Defaults to the demo tasks. */
  tasks?: readonly AnyTaskDefinition[];
  /** The known client tokens. Defaults to `['demo-client-token']`. */
  clientTokens?: readonly string[];
  /** User tokens mapped to user ids. Defaults to `demo-user-token` → `demo-user`, `other-user-token` → `other-user`. */
  userTokens?: Readonly<Record<string, string>>;
  /** Size, time and rate limits. Defaults as listed on {@link ReferenceServiceLimits}. */
  limits?: ReferenceServiceLimits;
  /** Called with every notification sent (errors it throws are ignored). Defaults to none. */
  onNotification?: (notification: ReferenceNotification) => void | Promise<void>;
  /** Multiplies every delay inside tasks (`ctx.sleep`) and the keep-alive period. Defaults to `1`. */
  timeScale?: number;
  /** The clock for retention, idempotency expiry and rate limits. Defaults to `Date.now`. */
  now?: () => number;
  /** Origins allowed by CORS: `'*'` or a list of exact origins. Defaults to `'*'`. */
  corsOrigins?: '*' | readonly string[];
  /** A path prefix the endpoints live under, such as `/api`. Defaults to `''`. */
  basePath?: string;
  /**
   * The log of every task's stream messages, which makes the service offer resumable streams
   * (docs/protocol.md, "Resumable streams (0.4)"): the events read, the multiplexed read, positions
   * on every stream message and the short start. `false` serves the protocol as 0.3 did, with none
   * of them. A log given here is the caller's to close; after `close()` the service still serves
   * the reads of what its log holds, as it still answers Get Result. Defaults to a
   * `memoryEventLog()` of the service's own.
   */
  events?: EventLog | false;
}
