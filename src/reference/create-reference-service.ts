/**
 * The reference service (CONTRACT §1, §2.1): one Web-standard handler, `fetch(request) → Response`,
 * that serves every endpoint of the task workflow interface in memory. It uses only Web APIs, so it
 * runs in Node behind `node:http`, on a Vite dev server, and inside a browser tab alike.
 */
import * as z from 'zod/mini';
import type { OptionsResult } from '../protocol/start-answers.js';
import { describeIssues } from '../protocol/describe-issues.js';
import { TASK_NAME_PATTERN } from '../protocol/names.js';
import { optionsResultSchema } from '../protocol/start-answers.js';
import { canonicalJson } from '../protocol/canonical-json.js';
import {
  authenticate,
  checkJsonContentType,
  checkOptionalHeaders,
} from './check-request-headers.js';
import type { AnyTaskDefinition } from './define-task.js';
import { DEMO_CLIENT_TOKEN, DEMO_USER_TOKENS, demoTasks } from './demo-tasks.js';
import { IdempotencyStore } from './idempotency-store.js';
import { errorResponse, successResponse } from './json-response.js';
import type { Route } from './match-route.js';
import { matchRoute, methodOf } from './match-route.js';
import type { ParsedBody } from './parse-json-body.js';
import { isJsonObject, parseJsonBody } from './parse-json-body.js';
import { readLimitedBody } from './read-limited-body.js';
import { createTaskEventStream } from './server-sent-events.js';
import { ServiceError } from './service-error.js';
import { TaskRun } from './task-run.js';
import { TaskScheduler } from './task-scheduler.js';
import { TaskStore } from './task-store.js';
import { TimerRegistry } from './timer-registry.js';
import type { RateLimit } from './token-bucket-rate-limiter.js';
import { TokenBucketRateLimiter } from './token-bucket-rate-limiter.js';
import type { NotificationAction, NotificationRequest } from '../protocol/notification.js';
import { validateNotification } from './validate-notification.js';

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
  /** The most bytes queued for a stream client that does not read before it is dropped. Defaults to `8388608` (8 MiB). */
  streamBufferBytes?: number;
}

/** A completion notification (CONTRACT 1.9), as delivered to the sink and the callback. */
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

/** Configuration of {@link createReferenceService}; every member is optional. */
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
}

/** A running reference service. */
export interface ReferenceService {
  /** Answers one request, as a Web `fetch` handler; never rejects. */
  fetch(request: Request): Promise<Response>;
  /** Every notification sent so far, oldest first. */
  readonly notifications: readonly ReferenceNotification[];
  /** Aborts running tasks, ends open streams, clears every timer; later tasks are refused. */
  close(): Promise<void>;
}

/** The silence after which a stream sends a keep-alive comment, at time scale 1 (CONTRACT 1.5). */
const KEEP_ALIVE_MS = 15_000;
/** How long an `Idempotency-Key` is remembered (CONTRACT 1.3). */
const IDEMPOTENCY_MS = 24 * 60 * 60 * 1000;
/** The longest `Retry-After` hint of Get Result, in seconds. */
const MAX_RETRY_AFTER_SECONDS = 5;

const ALLOWED_REQUEST_HEADERS =
  'authorization, x-app-authorization, content-type, platform, x-touchpoint, idempotency-key';

/** Creates a reference service (CONTRACT §2.1). */
export function createReferenceService(config: ReferenceServiceConfig = {}): ReferenceService {
  const tasks = new Map<string, AnyTaskDefinition>();
  for (const definition of config.tasks ?? demoTasks) {
    if (tasks.has(definition.name))
      throw new TypeError(`Two tasks are named '${definition.name}'.`);
    tasks.set(definition.name, definition);
  }
  const clientTokens = new Set(config.clientTokens ?? [DEMO_CLIENT_TOKEN]);
  const userTokens = new Map(Object.entries(config.userTokens ?? DEMO_USER_TOKENS));
  const limits = config.limits ?? {};
  const bodyBytes = limits.bodyBytes ?? 1024 * 1024;
  const executeTimeoutMs = limits.executeTimeoutMs ?? 20_000;
  const streamBufferBytes = limits.streamBufferBytes ?? 8 * 1024 * 1024;
  const timeScale = config.timeScale ?? 1;
  if (!(timeScale >= 0)) throw new RangeError('timeScale must be a number >= 0.');
  const now = config.now ?? Date.now;
  const basePath = (config.basePath ?? '').replace(/\/+$/, '');
  const corsOrigins = config.corsOrigins ?? '*';

  const timers = new TimerRegistry();
  const store = new TaskStore(limits.retentionMs ?? 60 * 60 * 1000, now);
  const scheduler = new TaskScheduler(limits.concurrentTasks ?? 256);
  const idempotency = new IdempotencyStore(IDEMPOTENCY_MS, now);
  const rateLimiter =
    limits.rateLimit === undefined ? undefined : new TokenBucketRateLimiter(limits.rateLimit, now);
  const notifications: ReferenceNotification[] = [];
  let closed = false;

  function resultPath(taskName: string, id: string): string {
    return `${basePath}/workflows/${encodeURIComponent(taskName)}/${encodeURIComponent(id)}/result`;
  }

  function findTask(name: string): AnyTaskDefinition {
    const definition = tasks.get(name);
    if (definition === undefined) {
      // A name that breaks the rule may be 5,000 characters or hold control characters: it is not
      // repeated in the message.
      const shown = TASK_NAME_PATTERN.test(name) ? `'${name}'` : 'of that name';
      throw new ServiceError(404, 'TASK_NOT_FOUND', `No task ${shown}.`);
    }
    return definition;
  }

  function checkParams(definition: AnyTaskDefinition, params: Record<string, unknown>): unknown {
    let parsed;
    try {
      parsed = z.safeParse(definition.params, params);
    } catch (error) {
      if (error instanceof RangeError) {
        throw new ServiceError(400, 'MALFORMED_BODY', 'The body nests too deeply.');
      }
      throw error;
    }
    if (!parsed.success) {
      throw new ServiceError(
        422,
        'INVALID_PARAMS',
        `Invalid params: ${describeIssues(parsed.error.issues)}`,
      );
    }
    return parsed.data;
  }

  function notify(run: TaskRun, request: NotificationRequest): void {
    const notification: ReferenceNotification = {
      taskId: run.id,
      task: run.taskName,
      title: request.data?.title ?? `Task '${run.taskName}' completed`,
      description: request.data?.description ?? 'Your task has finished.',
      actions: (request.actions ?? []).map((action) => ({ ...action })),
    };
    notifications.push(notification);
    try {
      void Promise.resolve(config.onNotification?.(notification)).catch(() => undefined);
    } catch {
      // A callback that throws must not break the service that called it.
    }
  }

  function createRun(
    definition: AnyTaskDefinition,
    userId: string,
    params: unknown,
    notification?: NotificationRequest,
  ): TaskRun {
    if (closed) {
      throw new ServiceError(500, 'INTERNAL', 'The service is closed and runs no new tasks.');
    }
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
    if (definition.notifies === true && notification?.enabled === true) {
      void run.settled.then(() => {
        if (run.status === 'COMPLETED') notify(run, notification);
      });
    }
    return run;
  }

  function getResult(route: Route, userId: string): Response {
    findTask(route.taskName);
    const lookup = store.get(userId, route.taskName, route.taskId);
    switch (lookup.kind) {
      case 'missing':
        // The same answer whether the id never existed or belongs to someone else.
        throw new ServiceError(404, 'RESULT_NOT_FOUND', 'No result with that id for this task.');
      case 'expired':
        throw new ServiceError(
          410,
          'RESULT_EXPIRED',
          'The result was kept past its retention and dropped.',
        );
      case 'found': {
        const { run } = lookup;
        const headers: Record<string, string> = {};
        if (!run.isTerminal) {
          const seconds = Math.ceil(run.currentProgress.estimatedSecondsLeft);
          headers['retry-after'] = String(Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, seconds)));
        }
        return successResponse(200, run.record(), headers);
      }
      default:
        return lookup satisfies never;
    }
  }

  function submit(
    route: Route,
    userId: string,
    definition: AnyTaskDefinition,
    body: ParsedBody,
    params: unknown,
    idempotencyKey: string | undefined,
  ): Response {
    const notification = validateNotification(body.notification);
    const accepted = (id: string) =>
      successResponse(
        202,
        { id, status: 'ACCEPTED' },
        { location: resultPath(route.taskName, id), 'x-task-id': id },
      );
    // From here to the end nothing awaits, so concurrent copies of one request cannot both miss
    // the key and create two tasks.
    let fingerprint: string | undefined;
    if (idempotencyKey !== undefined) {
      fingerprint = canonicalJson({ params: body.params, notification: body.notification ?? null });
      const existing = idempotency.get(userId, route.taskName, idempotencyKey);
      if (existing !== undefined) {
        if (existing.fingerprint !== fingerprint) {
          throw new ServiceError(
            422,
            'IDEMPOTENCY_KEY_REUSED',
            'This Idempotency-Key was used for a different body.',
          );
        }
        return accepted(existing.taskId);
      }
    }
    const run = createRun(definition, userId, params, notification);
    if (idempotencyKey !== undefined && fingerprint !== undefined) {
      idempotency.set(userId, route.taskName, idempotencyKey, fingerprint, run.id);
    }
    scheduler.enqueue(run);
    return accepted(run.id);
  }

  function stream(
    request: Request,
    userId: string,
    definition: AnyTaskDefinition,
    params: unknown,
  ): Response {
    const run = createRun(definition, userId, params);
    const body = createTaskEventStream(run, {
      keepAliveMs: KEEP_ALIVE_MS * timeScale,
      bufferBytes: streamBufferBytes,
      timers,
      signal: request.signal,
    });
    scheduler.enqueue(run);
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-task-id': run.id,
      },
    });
  }

  async function execute(
    userId: string,
    definition: AnyTaskDefinition,
    params: unknown,
  ): Promise<Response> {
    const run = createRun(definition, userId, params);
    scheduler.enqueue(run);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<true>((resolve) => {
      timer = timers.setTimeout(() => resolve(true), executeTimeoutMs);
    });
    const outcome = await Promise.race([run.settled.then(() => false as const), timedOut]);
    if (timer !== undefined) timers.clear(timer);
    if (outcome) {
      throw new ServiceError(
        504,
        'EXECUTE_TIMEOUT',
        `The task ran past ${executeTimeoutMs} ms; it goes on and can be read with Get Result.`,
        { 'x-task-id': run.id },
        run.id,
      );
    }
    return successResponse(200, run.executeRecord(), { 'x-task-id': run.id });
  }

  async function options(definition: AnyTaskDefinition, params: unknown): Promise<Response> {
    if (definition.enablePreflight === true && definition.options) {
      const answer: unknown = await definition.options(params);
      if (!isJsonObject(answer) || !z.safeParse(optionsResultSchema, answer).success) {
        throw new ServiceError(
          500,
          'INTERNAL',
          'The task answered Options with an invalid result.',
        );
      }
      return successResponse(200, JSON.parse(JSON.stringify(answer)) as OptionsResult);
    }
    const monetization = definition.monetization;
    if (monetization === undefined) return successResponse(200, {});
    const usageAmount = monetization.usageAmount ?? 1;
    return successResponse(200, {
      monetization: { toolId: monetization.toolId },
      usageAmount,
      credits: monetization.price * usageAmount,
    });
  }

  function corsHeaders(request: Request): Record<string, string> {
    const headers: Record<string, string> = {
      'access-control-expose-headers': 'x-task-id, location, retry-after',
    };
    if (corsOrigins === '*') {
      headers['access-control-allow-origin'] = '*';
    } else {
      headers.vary = 'Origin';
      const origin = request.headers.get('origin');
      if (origin !== null && corsOrigins.includes(origin)) {
        headers['access-control-allow-origin'] = origin;
      }
    }
    return headers;
  }

  async function handle(request: Request): Promise<Response> {
    const route = matchRoute(new URL(request.url).pathname, basePath);
    if (route === undefined) throw new ServiceError(404, 'NOT_FOUND', 'No endpoint at this path.');
    const method = methodOf(route.endpoint);
    const allow = `${method}, OPTIONS`;
    if (request.method === 'OPTIONS') {
      // A CORS preflight needs no token (CONTRACT 1.1); a plain OPTIONS just lists the methods.
      const headers: Record<string, string> = { allow };
      if (request.headers.has('access-control-request-method')) {
        headers['access-control-allow-methods'] = allow;
        headers['access-control-allow-headers'] = ALLOWED_REQUEST_HEADERS;
        headers['access-control-max-age'] = '600';
      }
      return new Response(null, { status: 204, headers });
    }
    if (request.method !== method) {
      throw new ServiceError(
        405,
        'METHOD_NOT_ALLOWED',
        `This endpoint takes ${method}, not ${request.method.slice(0, 16)}.`,
        { allow },
      );
    }
    const userId = authenticate(request.headers, clientTokens, userTokens);
    const waitSeconds = rateLimiter?.take(userId);
    if (waitSeconds !== undefined) {
      throw new ServiceError(429, 'RATE_LIMITED', 'Too many requests; try again later.', {
        'retry-after': String(waitSeconds),
      });
    }
    const idempotencyKey = checkOptionalHeaders(request.headers, route.endpoint === 'submit');
    if (route.endpoint === 'result') return getResult(route, userId);

    checkJsonContentType(request.headers);
    let bytes: Uint8Array;
    try {
      bytes = await readLimitedBody(request, bodyBytes);
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      throw new ServiceError(400, 'MALFORMED_BODY', 'The body could not be read.');
    }
    const body = parseJsonBody(bytes);
    const definition = findTask(route.taskName);
    const params = checkParams(definition, body.params);
    switch (route.endpoint) {
      case 'submit':
        return submit(route, userId, definition, body, params, idempotencyKey);
      case 'stream':
        return stream(request, userId, definition, params);
      case 'execute':
        return execute(userId, definition, params);
      case 'options':
        return options(definition, params);
      default:
        return route.endpoint satisfies never;
    }
  }

  return {
    async fetch(request) {
      let response: Response;
      try {
        response = await handle(request);
      } catch (error) {
        response = errorResponse(
          error instanceof ServiceError
            ? error
            : new ServiceError(500, 'INTERNAL', 'The service failed to answer this request.'),
        );
      }
      for (const [name, value] of Object.entries(corsHeaders(request))) {
        response.headers.set(name, value);
      }
      return response;
    },
    notifications,
    close() {
      closed = true;
      for (const run of store.runs()) run.abort();
      timers.clearAll();
      return Promise.resolve();
    },
  };
}
