/**
 * `createTaskClient`: the framework-free client of the task workflow service (CONTRACT §2). Every
 * answer is validated before it is returned; everything that goes wrong is a `TaskwireError`.
 */
import * as z from 'zod/mini';
import { TaskwireError } from './errors.js';
import {
  abortedError,
  checkTaskId,
  checkTaskName,
  protocolError,
  readEnvelope,
  refusal,
  send,
  type RequestContext,
} from './request.js';
import { parseRetryAfter } from './retry-after.js';
import {
  describeIssues,
  envelopeSchema,
  executeRecordSchema,
  failureSchema,
  jsonObjectSchema,
  optionsResultSchema,
  submitAnswerSchema,
  TASK_NAME_PATTERN,
  taskRecordSchema,
  type TaskStatus,
} from './schemas.js';
import { DEFAULT_MAX_EVENT_BYTES } from './sse-reader.js';
import { TaskEventStream } from './task-event-stream.js';
import type {
  GetResultOptions,
  RequestOptions,
  StreamOptions,
  SubmitOptions,
  TaskClient,
  TaskClientConfig,
  TaskSchema,
  TaskSchemas,
} from './types.js';

/** The client's own deadline for Execute: a little past the service's 20 s, so its 504 comes first. */
export const DEFAULT_EXECUTE_TIMEOUT_MS = 25_000;

const submitEnvelope = envelopeSchema(submitAnswerSchema);
const taskRecordEnvelope = envelopeSchema(taskRecordSchema);
const executeEnvelope = envelopeSchema(executeRecordSchema);
const optionsEnvelope = envelopeSchema(optionsResultSchema);

const JSON_MEDIA_TYPE = 'application/json';
/** A signal that never aborts, for calls made without one. */
const neverAborted = new AbortController().signal;

/** A random version 4 UUID; `crypto.randomUUID` exists only in secure contexts, `getRandomValues` everywhere. */
function randomKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function checkPositive(value: number | undefined, name: string): void {
  if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
    throw new TypeError(`createTaskClient: ${name} must be a positive number.`);
  }
}

/**
 * Creates a client of the task workflow service. With a `tasks` map of per-task zod schemas, the
 * methods are typed by task name, params are checked before sending and results on receipt.
 *
 * @throws TypeError synchronously when the configuration itself is unusable (no base URL, a
 * non-positive limit); every call afterwards rejects instead of throwing.
 */
export function createTaskClient<Tasks extends TaskSchemas = TaskSchemas>(
  config: TaskClientConfig<Tasks>,
): TaskClient<Tasks> {
  if (typeof config.baseUrl !== 'string' || config.baseUrl === '') {
    throw new TypeError('createTaskClient: baseUrl must be a non-empty string.');
  }
  checkPositive(config.executeTimeoutMs, 'executeTimeoutMs');
  checkPositive(config.maxEventBytes, 'maxEventBytes');
  const executeTimeoutMs = config.executeTimeoutMs ?? DEFAULT_EXECUTE_TIMEOUT_MS;
  const maxEventBytes = config.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  const context: RequestContext = {
    baseUrl: config.baseUrl,
    userToken: config.userToken,
    clientToken: config.clientToken,
    platform: config.platform,
    touchpoint: config.touchpoint,
    // Looked up per request, so a `fetch` patched after the client was made is used.
    fetch: config.fetch ?? ((request) => globalThis.fetch(request)),
    onUnauthorized: config.onUnauthorized,
  };

  function schemaOf(task: string): TaskSchema | undefined {
    const tasks = config.tasks;
    // `hasOwn`, since `constructor` or `toString` are valid task names.
    return tasks !== undefined && Object.hasOwn(tasks, task) ? tasks[task] : undefined;
  }

  /** Checks params (against the task's schema when there is one) and renders the JSON body. */
  function requestBody(task: string, params: unknown, extra: Record<string, unknown> = {}): string {
    const schema = schemaOf(task)?.params;
    if (schema !== undefined) {
      const parsed = z.safeParse(schema, params);
      if (!parsed.success) {
        throw refusal(
          'INVALID_PARAMS',
          `The params of '${task}' are invalid: ${describeIssues(parsed.error.issues)}`,
        );
      }
    } else if (!jsonObjectSchema.safeParse(params).success || Array.isArray(params)) {
      throw refusal('INVALID_PARAMS', `The params of '${task}' must be a JSON object.`);
    }
    try {
      // Params are sent as given: the schema checks them, it does not rewrite them.
      return JSON.stringify({ params, ...extra });
    } catch (error) {
      throw new TaskwireError('protocol', `The params of '${task}' cannot be written as JSON.`, {
        reason: 'INVALID_PARAMS',
        cause: error,
      });
    }
  }

  /**
   * Checks a result against the contract: the failure object when FAILED, else null or a JSON
   * object (the task's result schema, when the map has one).
   */
  function checkResult(
    task: string,
    status: TaskStatus,
    result: unknown,
    what: string,
    taskId: string,
  ): unknown {
    if (status === 'FAILED') {
      const parsed = failureSchema.safeParse(result);
      if (!parsed.success) throw protocolError(what, describeUnder(parsed.error.issues), taskId);
      return parsed.data;
    }
    if (result === null) return null;
    const schema = schemaOf(task)?.result ?? jsonObjectSchema;
    const parsed = z.safeParse(schema, result);
    if (!parsed.success) throw protocolError(what, describeUnder(parsed.error.issues), taskId);
    return parsed.data;
  }

  function describeUnder(issues: readonly z.core.$ZodIssue[]): string {
    return describeIssues(
      issues.map((issue) => ({ ...issue, path: ['response', 'result', ...issue.path] })),
    );
  }

  function post(
    path: string,
    body: string,
    signal: AbortSignal,
    accept: string,
    headers?: Record<string, string>,
  ) {
    return send(context, { method: 'POST', path, body, accept, headers, signal });
  }

  const client = {
    tasks: config.tasks,

    async submit(task: string, params: unknown, options: SubmitOptions = {}) {
      const name = checkTaskName(task, TASK_NAME_PATTERN);
      const extra =
        options.notification === undefined ? {} : { notification: options.notification };
      const body = requestBody(name, params, extra);
      const signal = options.signal ?? neverAborted;
      // One key per call, reused by the retry after a 401: one call can never make two tasks.
      const idempotencyKey = options.idempotencyKey ?? randomKey();
      const response = await post(
        `/workflows/${encodeURIComponent(name)}/submit`,
        body,
        signal,
        JSON_MEDIA_TYPE,
        {
          'idempotency-key': idempotencyKey,
        },
      );
      const envelope = await readEnvelope(
        response,
        submitEnvelope,
        signal,
        `The answer to Submit '${name}'`,
      );
      return envelope.response;
    },

    async getResult(task: string, id: string, options: GetResultOptions = {}) {
      const name = checkTaskName(task, TASK_NAME_PATTERN);
      const taskId = checkTaskId(id);
      const signal = options.signal ?? neverAborted;
      const path = `/workflows/${encodeURIComponent(name)}/${encodeURIComponent(taskId)}/result`;
      const response = await send(context, {
        method: 'GET',
        path,
        accept: JSON_MEDIA_TYPE,
        signal,
      });
      const what = `The answer to Get Result '${name}'`;
      const envelope = await readEnvelope(response, taskRecordEnvelope, signal, what, taskId);
      const record = envelope.response;
      if (record.id !== taskId)
        throw protocolError(what, `response.id is '${record.id}', not the id asked for.`, taskId);
      record.result = checkResult(name, record.status, record.result, what, taskId);
      options.onRetryAfter?.(parseRetryAfter(response.headers.get('retry-after')));
      return record;
    },

    stream(task: string, params: unknown, options: StreamOptions = {}) {
      // Checks run inside `open`, so a bad name or params reject the first `next()`, never throw here.
      const schema = typeof task === 'string' ? schemaOf(task) : undefined;
      return new TaskEventStream({
        async open(signal) {
          const name = checkTaskName(task, TASK_NAME_PATTERN);
          const body = requestBody(name, params);
          return post(
            `/workflows/${encodeURIComponent(name)}/stream`,
            body,
            signal,
            'text/event-stream',
          );
        },
        maxEventBytes,
        resultSchema: schema?.result,
        eventSchema: schema?.events,
        signal: options.signal,
        onOpen: options.onOpen,
      });
    },

    async execute(task: string, params: unknown, options: RequestOptions = {}) {
      const name = checkTaskName(task, TASK_NAME_PATTERN);
      const body = requestBody(name, params);
      const userSignal = options.signal;
      if (userSignal?.aborted) throw abortedError(userSignal);
      // The deadline and the caller's signal both abort one controller; which fired decides the code.
      const controller = new AbortController();
      const onAbort = (): void => controller.abort(userSignal?.reason);
      userSignal?.addEventListener('abort', onAbort, { once: true });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, executeTimeoutMs);
      try {
        const response = await post(
          `/workflows/${encodeURIComponent(name)}/execute`,
          body,
          controller.signal,
          JSON_MEDIA_TYPE,
        );
        const what = `The answer to Execute '${name}'`;
        const envelope = await readEnvelope(response, executeEnvelope, controller.signal, what);
        const record = envelope.response;
        record.result = checkResult(name, record.status, record.result, what, record.id);
        return record;
      } catch (error) {
        if (timedOut && TaskwireError.isInstance(error) && error.code === 'aborted') {
          throw new TaskwireError(
            'timeout',
            `Execute '${name}' did not answer within ${executeTimeoutMs} ms.`,
          );
        }
        throw error;
      } finally {
        clearTimeout(timer);
        userSignal?.removeEventListener('abort', onAbort);
      }
    },

    async options(task: string, params: unknown, options: RequestOptions = {}) {
      const name = checkTaskName(task, TASK_NAME_PATTERN);
      const body = requestBody(name, params);
      const signal = options.signal ?? neverAborted;
      const response = await post(
        `/workflows/${encodeURIComponent(name)}/options`,
        body,
        signal,
        JSON_MEDIA_TYPE,
      );
      const envelope = await readEnvelope(
        response,
        optionsEnvelope,
        signal,
        `The answer to Options '${name}'`,
      );
      return envelope.response;
    },
  };
  return client as unknown as TaskClient<Tasks>;
}
