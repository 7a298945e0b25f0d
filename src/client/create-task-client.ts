/**
 * `createTaskClient`: the framework-free client of the task workflow service
 * (docs/protocol.md, "The client"). Every answer is validated before it is returned; everything
 * that goes wrong is a `TaskwireError`. The code that starts tasks and the stream path load on
 * first use (`load-on-first-use.ts`).
 */
import * as z from 'zod/mini';
import { requestTimeout, withDeadline } from './deadline.js';
import { TaskwireError } from './errors.js';
import { LazyTaskStream } from './stream/lazy-task-stream.js';
import { loadStartPaths } from './load-on-first-use.js';
import { createActivityFeed } from './activity-feed.js';
import {
  checkTaskId,
  checkTaskName,
  protocolError,
  readEnvelope,
  send,
  type RequestContext,
} from './request.js';
import { parseRetryAfter } from '../protocol/retry-after.js';
import { describeIssues } from '../protocol/describe-issues.js';
import {
  envelopeSchema,
  failureSchema,
  jsonObjectSchema,
  taskRecordSchema,
  type TaskStatus,
} from '../protocol/records.js';
import { TASK_NAME_PATTERN } from '../protocol/names.js';
import type {
  GetResultOptions,
  RequestOptions,
  StreamOptions,
  SubmitOptions,
  TaskClient,
  TaskClientConfig,
} from './types.js';
import type { TaskSchema, TaskSchemas } from '../protocol/task-schemas.js';

/** The client's own deadline for Execute: a little past the service's 20 s, so its 504 comes first. */
export const DEFAULT_EXECUTE_TIMEOUT_MS = 25_000;

const taskRecordEnvelope = envelopeSchema(taskRecordSchema);
/** Where a result sits in an answer, for naming a bad field of it. */
const RESULT_PATH = ['response', 'result'];

/** The deadline of every request but a stream and Execute: 30 s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** How long a stream may stay silent, keep-alives included, before it counts as broken: 45 s. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 45_000;
/** The largest JSON answer read: 8 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** What the parts of a client that load on first use need from it. */
export interface ClientCore {
  context: RequestContext;
  executeTimeoutMs: number;
  requestTimeoutMs: number;
  /** The task's schemas from the config's map, if it has an entry for it. */
  schemaOf(task: string): TaskSchema | undefined;
  /**
   * Checks a result against the contract: the failure object when FAILED, else null or a JSON
   * object (the task's result schema, when the map has one).
   */
  checkResult(
    task: string,
    status: TaskStatus,
    result: unknown,
    what: string,
    taskId: string,
  ): unknown;
}

function checkPositive(value: number | undefined, name: string): void {
  if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
    throw new TypeError(`createTaskClient: ${name} must be a positive number.`);
  }
}

/**
 * Refuses a base URL that could leak or mislead: one with user info (every request would carry the
 * password, and a message quoting the URL would show it) or of a scheme other than http(s). A path
 * such as `/taskwire` is resolved against the page on each request. The URL itself is never quoted.
 */
function checkBaseUrl(baseUrl: unknown): string {
  const refuse = (problem: string) =>
    new TaskwireError('protocol', `createTaskClient: the baseUrl ${problem}.`, {
      reason: 'INVALID_BASE_URL',
    });
  if (typeof baseUrl !== 'string' || baseUrl === '') throw refuse('must be a non-empty string');
  if (baseUrl.startsWith('/') && !baseUrl.startsWith('//')) return baseUrl;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw refuse('is neither an absolute http(s) URL nor a path starting with /');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refuse('must be http: or https:');
  if (url.username !== '' || url.password !== '') {
    throw refuse('holds a user name or password; pass credentials as tokens instead');
  }
  return baseUrl;
}

/**
 * Creates a client of the task workflow service. With a `tasks` map of per-task zod schemas, the
 * methods are typed by task name, params are checked before sending and results on receipt.
 *
 * @throws TaskwireError (`protocol`, `INVALID_BASE_URL`) synchronously for a base URL that is not
 * an http(s) URL without credentials or a path, and TypeError for a non-positive limit or a
 * non-string scope; every call afterwards rejects instead of throwing.
 */
export function createTaskClient<Tasks extends TaskSchemas = TaskSchemas>(
  config: TaskClientConfig<Tasks>,
): TaskClient<Tasks> {
  const baseUrl = checkBaseUrl(config.baseUrl);
  for (const limit of [
    'executeTimeoutMs',
    'requestTimeoutMs',
    'streamIdleTimeoutMs',
    'maxResponseBytes',
    'maxEventBytes',
  ] as const) {
    checkPositive(config[limit], limit);
  }
  if (config.scope !== undefined && typeof config.scope !== 'string') {
    throw new TypeError('createTaskClient: scope must be a string.');
  }
  const feed = createActivityFeed();
  const core: ClientCore = {
    context: {
      baseUrl,
      userToken: config.userToken,
      clientToken: config.clientToken,
      platform: config.platform,
      touchpoint: config.touchpoint,
      // Looked up per request, so a `fetch` patched after the client was made is used.
      fetch: config.fetch ?? ((request) => globalThis.fetch(request)),
      onUnauthorized: config.onUnauthorized,
      maxResponseBytes: config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      feed,
    },
    executeTimeoutMs: config.executeTimeoutMs ?? DEFAULT_EXECUTE_TIMEOUT_MS,
    requestTimeoutMs: config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    schemaOf(task) {
      const tasks = config.tasks;
      // `hasOwn`, since `constructor` or `toString` are valid task names.
      return tasks !== undefined && Object.hasOwn(tasks, task) ? tasks[task] : undefined;
    },
    checkResult(task, status, result, what, taskId) {
      const parsed =
        status === 'FAILED'
          ? failureSchema.safeParse(result)
          : result === null
            ? { success: true as const, data: null }
            : z.safeParse(core.schemaOf(task)?.result ?? jsonObjectSchema, result);
      if (!parsed.success)
        throw protocolError(what, describeIssues(parsed.error.issues, RESULT_PATH), taskId);
      return parsed.data;
    },
  };

  const client = {
    tasks: config.tasks,
    scope: config.scope ?? baseUrl,
    scopeIsExplicit: config.scope !== undefined,
    subscribe: feed.subscribe,

    async submit(task: string, params: unknown, options: SubmitOptions = {}) {
      return (await loadStartPaths()).submitTask(core, task, params, options);
    },

    async getResult(task: string, id: string, options: GetResultOptions = {}) {
      const call = feed.begin('result', task);
      try {
        const name = checkTaskName(task, TASK_NAME_PATTERN);
        const taskId = (call.taskId = checkTaskId(id));
        const what = `The answer to Get Result '${name}'`;
        const ms = core.requestTimeoutMs;
        const record = await withDeadline(
          options.signal,
          ms,
          () => requestTimeout(what, ms, taskId),
          async (signal) => {
            const path = `/workflows/${encodeURIComponent(name)}/${encodeURIComponent(taskId)}/result`;
            const response = await send(core.context, {
              method: 'GET',
              path,
              accept: 'application/json',
              signal,
              call,
            });
            const read = { signal, what, maxBytes: core.context.maxResponseBytes, taskId };
            const record = (await readEnvelope(response, taskRecordEnvelope, read)).response;
            if (record.id !== taskId)
              throw protocolError(
                what,
                `response.id is '${record.id}', not the id asked for.`,
                taskId,
              );
            record.result = core.checkResult(name, record.status, record.result, what, taskId);
            options.onRetryAfter?.(parseRetryAfter(response.headers.get('retry-after')));
            return record;
          },
        );
        feed.report('answer', call, record);
        return record;
      } catch (error) {
        feed.report('error', call, error);
        throw error;
      }
    },

    stream(task: string, params: unknown, options: StreamOptions = {}) {
      // Checks run inside `open`, so a bad name or params reject the first `next()`, never throw here.
      const schema = typeof task === 'string' ? core.schemaOf(task) : undefined;
      return new LazyTaskStream({
        open: async (signal, call) =>
          (await (await loadStartPaths()).postTask(core, call, task, params, 'stream', signal))
            .response,
        maxEventBytes: config.maxEventBytes,
        idleTimeoutMs: config.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
        resultSchema: schema?.result,
        eventSchema: schema?.events,
        signal: options.signal,
        onOpen: options.onOpen,
        feed,
        task,
      });
    },

    async execute(task: string, params: unknown, options: RequestOptions = {}) {
      return (await loadStartPaths()).executeTask(core, task, params, options);
    },

    async options(task: string, params: unknown, options: RequestOptions = {}) {
      return (await loadStartPaths()).taskOptions(core, task, params, options);
    },
  };
  return client as unknown as TaskClient<Tasks>;
}
