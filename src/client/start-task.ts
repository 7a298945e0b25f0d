/**
 * The ways to start a task: Submit, Execute, Options, and the POST of a stream. Loaded on the first
 * call that starts one (see `load-on-first-use.ts`), so an app that only watches tasks never
 * downloads it. Params are checked here, before anything is sent.
 */
import * as z from 'zod/mini';
import { requestTimeout, withDeadline } from './deadline.js';
import { TaskwireError } from './errors.js';
import { checkTaskName, readEnvelope, refusal, send } from './request.js';
import { describeIssues, ruleOfIssue } from '../protocol/describe-issues.js';
import { envelopeSchema, jsonObjectSchema } from '../protocol/records.js';
import { submitAnswerSchema, type SubmitAnswer } from '../protocol/start-answers.js';
import { TASK_NAME_PATTERN } from '../protocol/names.js';
import {
  executeRecordSchema,
  optionsResultSchema,
  type ExecuteRecord,
  type OptionsResult,
} from '../protocol/start-answers.js';
import type { ClientCore } from './create-task-client.js';
import type { RequestOptions, SubmitOptions } from './types.js';
import type { CallRecord, ClientOperation } from './activity-types.js';

const submitEnvelope = envelopeSchema(submitAnswerSchema);
const executeEnvelope = envelopeSchema(executeRecordSchema);
const optionsEnvelope = envelopeSchema(optionsResultSchema);

const JSON_MEDIA_TYPE = 'application/json';

/** A random version 4 UUID; `crypto.randomUUID` exists only in secure contexts, `getRandomValues` everywhere. */
function randomKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Each 0, 1 and 8 of the template becomes a random hex digit; 8 keeps the variant bits 10xx.
  return '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (digit) =>
    (
      Number(digit) ^
      ((crypto.getRandomValues(new Uint8Array(1))[0] as number) & (15 >> (Number(digit) / 4)))
    ).toString(16),
  );
}

/** Checks params (against the task's schema when there is one) and renders the JSON body. */
function requestBody(
  client: ClientCore,
  task: string,
  params: unknown,
  extra: Record<string, unknown> = {},
): string {
  const schema = client.schemaOf(task)?.params;
  if (schema !== undefined) {
    const parsed = z.safeParse(schema, params);
    if (!parsed.success) {
      throw refusal(
        'INVALID_PARAMS',
        `The params of '${task}' are invalid: ${describeIssues(parsed.error.issues, [], ruleOfIssue)}`,
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

/** Checks the task name and params, then POSTs them to one of the task's endpoints. */
export async function postTask(
  client: ClientCore,
  call: CallRecord,
  task: unknown,
  params: unknown,
  endpoint: 'submit' | 'stream' | 'execute' | 'options',
  signal: AbortSignal,
  extra: { body?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<{ name: string; response: Response }> {
  const name = checkTaskName(task, TASK_NAME_PATTERN);
  const body = requestBody(client, name, params, extra.body);
  const response = await send(client.context, {
    method: 'POST',
    path: `/workflows/${encodeURIComponent(name)}/${endpoint}`,
    body,
    accept: endpoint === 'stream' ? 'text/event-stream' : JSON_MEDIA_TYPE,
    headers: extra.headers,
    signal,
    call,
  });
  return { name, response };
}

/**
 * Runs one call under a new record of the activity feed (docs/protocol.md, "The activity feed"),
 * and reports its validated answer or its error there.
 */
function tracked<Answer>(
  client: ClientCore,
  operation: ClientOperation,
  task: unknown,
  run: (call: CallRecord) => Promise<Answer>,
): Promise<Answer> {
  const { begin, report } = client.context.feed;
  const call = begin(operation, task);
  return run(call).then(
    (answer) => {
      report('answer', call, answer);
      return answer;
    },
    (error: unknown) => {
      report('error', call, error);
      throw error;
    },
  );
}

/** POSTs a task's params to Submit or Options under the request deadline, and reads the answer. */
function postAndRead<Schema extends z.ZodMiniType>(
  client: ClientCore,
  call: CallRecord,
  task: unknown,
  params: unknown,
  endpoint: 'submit' | 'options',
  options: RequestOptions,
  envelope: Schema,
  extra?: { body?: Record<string, unknown>; headers?: Record<string, string> },
): Promise<z.infer<Schema>> {
  const what = `The answer to ${endpoint === 'submit' ? 'Submit' : 'Options'} '${String(task)}'`;
  const ms = client.requestTimeoutMs;
  return withDeadline(
    options.signal,
    ms,
    () => requestTimeout(what, ms),
    async (signal) => {
      const { response } = await postTask(client, call, task, params, endpoint, signal, extra);
      const read = { signal, what, maxBytes: client.context.maxResponseBytes };
      return await readEnvelope(response, envelope, read);
    },
  );
}

/**
 * Submit Task (docs/protocol.md, "Submit"): one key per call, reused by the retry after a 401, so
 * one call makes one task.
 */
export function submitTask(
  client: ClientCore,
  task: string,
  params: unknown,
  options: SubmitOptions,
): Promise<SubmitAnswer> {
  const extra = {
    body: options.notification === undefined ? {} : { notification: options.notification },
    headers: { 'idempotency-key': options.idempotencyKey ?? randomKey() },
  };
  return tracked(client, 'submit', task, async (call) => {
    return (await postAndRead(client, call, task, params, 'submit', options, submitEnvelope, extra))
      .response;
  });
}

/** Options (docs/protocol.md, "Options"): what the task would cost with these params. */
export function taskOptions(
  client: ClientCore,
  task: string,
  params: unknown,
  options: RequestOptions,
): Promise<OptionsResult> {
  return tracked(client, 'options', task, async (call) => {
    return (await postAndRead(client, call, task, params, 'options', options, optionsEnvelope))
      .response;
  });
}

/**
 * Execute (docs/protocol.md, "Execute"): its own deadline, `executeTimeoutMs`, past which it
 * rejects with a `timeout` that is not retryable (a second Execute would run, and charge, the task
 * again); the caller's abort rejects with `aborted`.
 */
export function executeTask(
  client: ClientCore,
  task: string,
  params: unknown,
  options: RequestOptions,
): Promise<ExecuteRecord> {
  const ms = client.executeTimeoutMs;
  const timeout = () =>
    new TaskwireError('timeout', `Execute '${String(task)}' did not answer within ${ms} ms.`);
  return tracked(client, 'execute', task, (call) =>
    withDeadline(options.signal, ms, timeout, async (signal) => {
      const { name, response } = await postTask(client, call, task, params, 'execute', signal);
      const what = `The answer to Execute '${name}'`;
      const read = { signal, what, maxBytes: client.context.maxResponseBytes };
      const record = (await readEnvelope(response, executeEnvelope, read)).response;
      record.result = client.checkResult(name, record.status, record.result, what, record.id);
      // checkResult made a FAILED record's result its failure object.
      return record as ExecuteRecord;
    }),
  );
}
