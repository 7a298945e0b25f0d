/**
 * The state one reference service shares between its endpoints, built once from its configuration:
 * the tasks it serves, its tokens and limits, its stores, scheduler and timers, and the one way a
 * task run is created (and, when asked, notified about). Endpoints receive it as an argument, so
 * two services in one process share nothing.
 */
import type { EventLog } from '../events/event-log.js';
import { memoryEventLog } from '../events/memory-event-log.js';
import type { NotificationRequest } from '../protocol/notification.js';
import { TASK_NAME_PATTERN } from '../protocol/names.js';
import type { AnyTaskDefinition } from './define-task.js';
import { DEMO_CLIENT_TOKEN, DEMO_USER_TOKENS, demoTasks } from './demo-tasks.js';
import { IdempotencyStore } from './idempotency-store.js';
import { logRun } from './run-log.js';
import type { ReferenceNotification, ReferenceServiceConfig } from './reference-service-config.js';
import { ServiceError } from './service-error.js';
import { TaskRun } from './task-run.js';
import { TaskScheduler } from './task-scheduler.js';
import { TaskStore } from './task-store.js';
import { TimerRegistry } from './timer-registry.js';
import { TokenBucketRateLimiter } from './token-bucket-rate-limiter.js';
import { UserTaskLimit } from './user-task-limit.js';

/** How long an `Idempotency-Key` is remembered (docs/protocol.md, "Idempotency"). */
export const IDEMPOTENCY_MS = 24 * 60 * 60 * 1000;
/** How long Execute waits before it answers 504 `EXECUTE_TIMEOUT`, unless configured otherwise. */
export const EXECUTE_LIMIT_MS = 20_000;

/** A request for a task run that passed every check of the handler. */
export interface TaskCall {
  /** The user the run belongs to. */
  userId: string;
  /** The task to run. */
  definition: AnyTaskDefinition;
  /** The params, already checked against the task's schema. */
  params: unknown;
}

/** What the endpoints of one service share. */
export interface ServiceContext {
  /** The tasks served, in the order they were given. */
  readonly tasks: readonly AnyTaskDefinition[];
  /** The path prefix the endpoints live under, without a trailing slash. */
  readonly basePath: string;
  /** The origins allowed by CORS. */
  readonly corsOrigins: '*' | readonly string[];
  /** The known client tokens. */
  readonly clientTokens: ReadonlySet<string>;
  /** User tokens mapped to user ids. */
  readonly userTokens: ReadonlyMap<string, string>;
  /** The largest request body, in bytes. */
  readonly bodyBytes: number;
  /** How long Execute waits, in real milliseconds, before it answers 504. */
  readonly executeTimeoutMs: number;
  /** The most bytes queued for a stream client that does not read. */
  readonly streamBufferBytes: number;
  /** Multiplies every delay inside tasks and the keep-alive period. */
  readonly timeScale: number;
  /** Every timer of the service, so that closing clears them all. */
  readonly timers: TimerRegistry;
  /** Every user's tasks, with retention. */
  readonly store: TaskStore;
  /** Starts runs, a bounded number at once. */
  readonly scheduler: TaskScheduler;
  /** The `Idempotency-Key`s of Submit and the tasks they created. */
  readonly idempotency: IdempotencyStore;
  /** The rate limit per user, when one is configured. */
  readonly rateLimiter: TokenBucketRateLimiter | undefined;
  /** Every notification sent so far, oldest first. */
  readonly notifications: readonly ReferenceNotification[];
  /** The log of every task's messages, when the service offers resumable streams. */
  readonly events: EventLog | undefined;
  /**
   * Resolves once the log of the run `id` exists (at once without a log); rejects when the log
   * could not be started.
   */
  runLogged(id: string): Promise<void>;
  /** The task named `name`; throws 404 `TASK_NOT_FOUND` when the service has none. */
  findTask(name: string): AnyTaskDefinition;
  /**
   * Creates and stores a run (not yet started) of `call`, to be notified about on completion when
   * the task notifies and `notification` is enabled; throws 500 once the service is closed, and 429
   * `TOO_MANY_TASKS` when the user already has `limits.tasksPerUser` tasks that have not ended.
   */
  createRun(call: TaskCall, notification?: NotificationRequest): TaskRun;
  /** Aborts running tasks, clears every timer, ends the reads, and refuses later runs. */
  close(): Promise<void>;
}

/** The tasks by name; throws when two share a name, since one of them could never be reached. */
function indexTasks(definitions: readonly AnyTaskDefinition[]): Map<string, AnyTaskDefinition> {
  const tasks = new Map<string, AnyTaskDefinition>();
  for (const definition of definitions) {
    if (tasks.has(definition.name))
      throw new TypeError(`Two tasks are named '${definition.name}'.`);
    tasks.set(definition.name, definition);
  }
  return tasks;
}

/** The notification sent when `run` completes, with the defaults for what the Submit left out. */
function completionNotification(run: TaskRun, request: NotificationRequest): ReferenceNotification {
  return {
    taskId: run.id,
    task: run.taskName,
    title: request.data?.title ?? `Task '${run.taskName}' completed`,
    description: request.data?.description ?? 'Your task has finished.',
    actions: (request.actions ?? []).map((action) => ({ ...action })),
  };
}

/** Builds the shared state of one service from its configuration, with every default applied. */
export function createServiceContext(config: ReferenceServiceConfig): ServiceContext {
  const tasks = indexTasks(config.tasks ?? demoTasks);
  const limits = config.limits ?? {};
  const timeScale = config.timeScale ?? 1;
  if (!(timeScale >= 0)) throw new RangeError('timeScale must be a number >= 0.');
  const now = config.now ?? Date.now;
  const timers = new TimerRegistry();
  const store = new TaskStore(limits.retentionMs ?? 60 * 60 * 1000, limits.tasks ?? 10_000, now);
  const userTaskLimit = new UserTaskLimit(limits.tasksPerUser ?? 32);
  const notifications: ReferenceNotification[] = [];
  let closed = false;
  const events = config.events === false ? undefined : (config.events ?? memoryEventLog());
  // The creation of each run's log, until it settles (a stream answers once its log exists).
  const logging = new Map<string, Promise<void>>();
  // Each run's last append, until the run has ended and its messages are in the log.
  const appending = new Map<string, Promise<unknown>>();

  function notify(run: TaskRun, request: NotificationRequest): void {
    const notification = completionNotification(run, request);
    notifications.push(notification);
    try {
      void Promise.resolve(config.onNotification?.(notification)).catch(() => undefined);
    } catch {
      // A callback that throws must not break the service that called it.
    }
  }

  return {
    tasks: [...tasks.values()],
    basePath: (config.basePath ?? '').replace(/\/+$/, ''),
    corsOrigins: config.corsOrigins ?? '*',
    clientTokens: new Set(config.clientTokens ?? [DEMO_CLIENT_TOKEN]),
    userTokens: new Map(Object.entries(config.userTokens ?? DEMO_USER_TOKENS)),
    bodyBytes: limits.bodyBytes ?? 1024 * 1024,
    executeTimeoutMs: limits.executeTimeoutMs ?? EXECUTE_LIMIT_MS,
    streamBufferBytes: limits.streamBufferBytes ?? 8 * 1024 * 1024,
    timeScale,
    timers,
    store,
    scheduler: new TaskScheduler(limits.concurrentTasks ?? 256),
    idempotency: new IdempotencyStore(IDEMPOTENCY_MS, limits.idempotencyKeys ?? 10_000, now),
    rateLimiter:
      limits.rateLimit === undefined
        ? undefined
        : new TokenBucketRateLimiter(limits.rateLimit, now),
    notifications,
    events,

    runLogged(id) {
      return logging.get(id) ?? Promise.resolve();
    },

    findTask(name) {
      const definition = tasks.get(name);
      if (definition === undefined) {
        // A name that breaks the rule may be 5,000 characters or hold control characters: it is
        // not repeated in the message.
        const shown = TASK_NAME_PATTERN.test(name) ? `'${name}'` : 'of that name';
        throw new ServiceError(404, 'TASK_NOT_FOUND', `No task ${shown}.`);
      }
      return definition;
    },

    createRun({ userId, definition, params }, notification) {
      if (closed) {
        throw new ServiceError(500, 'INTERNAL', 'The service is closed and runs no new tasks.');
      }
      // Checked here, in the one synchronous step that creates every task, so that no mode of
      // starting one (Submit, Stream, Execute) and no burst of concurrent requests gets past it.
      userTaskLimit.check(userId);
      const run = new TaskRun({
        id: crypto.randomUUID(),
        userId,
        definition,
        params,
        timeScale,
        timers,
        now,
      });
      store.add(run);
      userTaskLimit.count(run);
      if (events !== undefined) {
        const { created, appended } = logRun(events, run);
        logging.set(run.id, created);
        appending.set(run.id, appended);
        const settled = () => logging.delete(run.id);
        created.then(settled, settled);
        void appended.then(() => appending.delete(run.id));
      }
      if (definition.notifies === true && notification?.enabled === true) {
        void run.settled.then(() => {
          if (run.status === 'COMPLETED') notify(run, notification);
        });
      }
      return run;
    },

    async close() {
      closed = true;
      for (const run of store.runs()) run.abort();
      timers.clearAll();
      // The final messages of the aborted runs reach the log, so that every read of it ends.
      await Promise.all(appending.values());
    },
  };
}
