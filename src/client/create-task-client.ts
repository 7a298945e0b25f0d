/**
 * `createTaskClient`: the framework-free client of the task workflow service (docs/protocol.md,
 * "The client"). Each method is written out here, from its checks to its validated answer; the
 * parts it shares are small modules below it (`request.ts` sends one request, `read-answer.ts`
 * reads one answer, `stream/task-event-stream.ts` reads a stream). Everything that goes wrong is a
 * `TaskwireError`.
 */
import type * as z from 'zod/mini';
import { withDeadline } from './abort.js';
import { TaskwireError } from './errors.js';
import { protocolError, requestTimeout } from './error-factories.js';
import { checkTaskId, checkTaskName, requestBody, schemaOfTask } from './call-checks.js';
import { checkResult, readEnvelope, type Sent } from './read-answer.js';
import { send, type RequestContext } from './request.js';
import { TaskEventStream } from './stream/task-event-stream.js';
import { readTaskEvents } from './stream/task-events-read.js';
import { CLIENT_INTERNALS, type ClientInternals } from './client-internals.js';
import { createActivityFeed } from './activity-feed.js';
import { clampDelay, parseRetryAfter } from '../protocol/retry-after.js';
import { taskPath } from '../protocol/match-route.js';
import { randomUuid } from '../protocol/random-uuid.js';
import { envelopeSchema, taskRecordSchema } from '../protocol/records.js';
import {
  executeRecordSchema,
  optionsResultSchema,
  submitAnswerSchema,
  type ExecuteRecord,
} from '../protocol/start-answers.js';
import type {
  GetResultOptions,
  RequestOptions,
  StreamOptions,
  SubmitOptions,
  TaskClient,
  TaskClientConfig,
  TaskEventsOptions,
} from './types.js';
import type { CallRecord, ClientOperation } from './activity-types.js';
import type { TaskSchema, TaskSchemas } from '../protocol/task-schemas.js';

/** The client's own deadline for Execute: a little past the service's 20 s, so its 504 comes first. */
export const DEFAULT_EXECUTE_TIMEOUT_MS = 25_000;
/** The deadline of every request but a stream and Execute: 30 s. */
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** How long a stream may stay silent, keep-alives included, before it counts as broken: 45 s. */
const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 45_000;
/** The largest JSON answer read: 8 MiB. */
const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** Streams open at once per origin: four, leaving two of a browser's six connections per host. */
const DEFAULT_MAX_OPEN_STREAMS = 4;

const taskRecordEnvelope = envelopeSchema(taskRecordSchema);
const submitEnvelope = envelopeSchema(submitAnswerSchema);
const executeEnvelope = envelopeSchema(executeRecordSchema);
const optionsEnvelope = envelopeSchema(optionsResultSchema);

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
  const maxOpenStreams = config.maxOpenStreams ?? DEFAULT_MAX_OPEN_STREAMS;
  if (!Number.isInteger(maxOpenStreams) || maxOpenStreams < 1) {
    throw new TypeError('createTaskClient: maxOpenStreams must be a whole number of at least 1.');
  }
  if (config.scope !== undefined && typeof config.scope !== 'string') {
    throw new TypeError('createTaskClient: scope must be a string.');
  }
  const feed = createActivityFeed();
  const context: RequestContext = {
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
    service: { resumable: false },
  };
  // A timer fires at once past the longest delay it takes: a longer deadline is that long instead.
  const executeTimeoutMs = clampDelay(config.executeTimeoutMs ?? DEFAULT_EXECUTE_TIMEOUT_MS);
  const requestTimeoutMs = clampDelay(config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  const idleTimeoutMs = clampDelay(config.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS);

  /** The task's schemas from the config's map, if it has an entry for it. */
  const schemaOf = (task: unknown): TaskSchema | undefined => schemaOfTask(config.tasks, task);

  /**
   * Runs one call under a new record of the activity feed (docs/protocol.md, "The activity feed"),
   * and reports its validated answer or its error there.
   */
  async function tracked<Answer>(
    operation: ClientOperation,
    task: unknown,
    run: (call: CallRecord) => Promise<Answer>,
  ): Promise<Answer> {
    const call = feed.begin(operation, task);
    try {
      const answer = await run(call);
      feed.report('answer', call, answer);
      return answer;
    } catch (error) {
      feed.report('error', call, error);
      throw error;
    }
  }

  /** Checks the task name and params, then POSTs them to one of the task's JSON endpoints. */
  async function post(
    call: CallRecord,
    task: unknown,
    params: unknown,
    endpoint: 'submit' | 'execute' | 'options',
    signal: AbortSignal,
    extra: { body?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ): Promise<{ name: string; sent: Sent }> {
    const name = checkTaskName(task);
    const body = requestBody(schemaOf(name)?.params, name, params, extra.body);
    const sent = await send(context, {
      method: 'POST',
      path: taskPath(endpoint, name),
      body,
      accept: 'application/json',
      headers: extra.headers,
      signal,
      call,
    });
    return { name, sent };
  }

  /** POSTs a task's params to Submit or Options under the request deadline, and reads the answer. */
  function postAndRead<Schema extends z.ZodMiniType>(
    call: CallRecord,
    task: unknown,
    params: unknown,
    endpoint: 'submit' | 'options',
    options: RequestOptions,
    envelope: Schema,
    extra?: { body?: Record<string, unknown>; headers?: Record<string, string> },
  ): Promise<z.infer<Schema>> {
    const what = `The answer to ${endpoint === 'submit' ? 'Submit' : 'Options'} '${String(task)}'`;
    return withDeadline(
      options.signal,
      requestTimeoutMs,
      () => requestTimeout(what, requestTimeoutMs),
      async (signal) => {
        const { sent } = await post(call, task, params, endpoint, signal, extra);
        const read = { signal, what, maxBytes: context.maxResponseBytes };
        return await readEnvelope(sent, envelope, read);
      },
    );
  }

  const client = {
    baseUrl,
    maxOpenStreams,
    tasks: config.tasks,
    scope: config.scope ?? baseUrl,
    scopeIsExplicit: config.scope !== undefined,
    subscribe: feed.subscribe,

    /**
     * Submit Task (docs/protocol.md, "Submit"): one key per call, reused by the retry after a 401,
     * so one call makes one task.
     */
    submit(task: string, params: unknown, options: SubmitOptions = {}) {
      const extra = {
        body: options.notification === undefined ? {} : { notification: options.notification },
        headers: { 'idempotency-key': options.idempotencyKey ?? randomUuid() },
      };
      return tracked('submit', task, async (call) => {
        const answer = await postAndRead(
          call,
          task,
          params,
          'submit',
          options,
          submitEnvelope,
          extra,
        );
        return answer.response;
      });
    },

    /** Get Result (docs/protocol.md, "Get Result"): the record, checked to be the one asked for. */
    getResult(task: string, id: string, options: GetResultOptions = {}) {
      return tracked('result', task, async (call) => {
        const name = checkTaskName(task);
        const taskId = (call.taskId = checkTaskId(id));
        const what = `The answer to Get Result '${name}'`;
        const ms = requestTimeoutMs;
        return withDeadline(
          options.signal,
          ms,
          () => requestTimeout(what, ms, taskId),
          async (signal) => {
            const sent = await send(context, {
              method: 'GET',
              path: taskPath('result', name, taskId),
              accept: 'application/json',
              signal,
              call,
            });
            const read = { signal, what, maxBytes: context.maxResponseBytes, taskId };
            const record = (await readEnvelope(sent, taskRecordEnvelope, read)).response;
            if (record.id !== taskId)
              throw protocolError(
                what,
                `response.id is '${record.id}', not the id asked for.`,
                taskId,
              );
            const schema = schemaOf(name)?.result;
            record.result = checkResult(schema, record.status, record.result, what, taskId);
            options.onRetryAfter?.(parseRetryAfter(sent.response.headers.get('retry-after')));
            return record;
          },
        );
      });
    },

    /** Stream (docs/protocol.md, "Streams"): one POST, sent on the first `next()`, never twice. */
    stream(task: string, params: unknown, options: StreamOptions = {}) {
      // Checks run on the first `next()`, so a bad name or params reject it, never throw here.
      return new TaskEventStream({
        context,
        task,
        params,
        schema: schemaOf(task),
        maxEventBytes: config.maxEventBytes,
        idleTimeoutMs,
        signal: options.signal,
        onOpen: options.onOpen,
      });
    },

    /**
     * The events read (docs/protocol.md, "Resumable streams (0.4)"): the task's messages after
     * `after`, each with its position, resuming by itself after a dropped connection; never posts.
     */
    events(task: string, id: string, options: TaskEventsOptions = {}) {
      return readTaskEvents(
        { context, idleTimeoutMs, maxEventBytes: config.maxEventBytes },
        {
          task,
          id,
          after: options.after,
          schema: schemaOf(task),
          signal: options.signal,
        },
      );
    },

    /**
     * Execute (docs/protocol.md, "Execute"): its own deadline, `executeTimeoutMs`, past which it
     * rejects with a `timeout` that is not retryable (a second Execute would run, and charge, the
     * task again); the caller's abort rejects with `aborted`.
     */
    execute(task: string, params: unknown, options: RequestOptions = {}) {
      const ms = executeTimeoutMs;
      const timeout = () =>
        new TaskwireError('timeout', `Execute '${String(task)}' did not answer within ${ms} ms.`);
      return tracked('execute', task, (call) =>
        withDeadline(options.signal, ms, timeout, async (signal) => {
          const { name, sent } = await post(call, task, params, 'execute', signal);
          const what = `The answer to Execute '${name}'`;
          const read = { signal, what, maxBytes: context.maxResponseBytes };
          const record = (await readEnvelope(sent, executeEnvelope, read)).response;
          const schema = schemaOf(name)?.result;
          record.result = checkResult(schema, record.status, record.result, what, record.id);
          // checkResult made a FAILED record's result its failure object.
          return record as ExecuteRecord;
        }),
      );
    },

    /** Options (docs/protocol.md, "Options"): what the task would cost with these params. */
    options(task: string, params: unknown, options: RequestOptions = {}) {
      return tracked('options', task, async (call) => {
        const answer = await postAndRead(call, task, params, 'options', options, optionsEnvelope);
        return answer.response;
      });
    },
  };
  // What the hooks' resumable reads need of this client (src/client/resumable-reads.ts), kept
  // off its public face, so that an app that never uses them does not bundle them.
  const internals: ClientInternals = {
    context,
    idleTimeoutMs,
    requestTimeoutMs,
    maxEventBytes: config.maxEventBytes,
    schemaOf,
    tracked,
  };
  Object.defineProperty(client, CLIENT_INTERNALS, { value: internals });
  return client as unknown as TaskClient<Tasks>;
}
