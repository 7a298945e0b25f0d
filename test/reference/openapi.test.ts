/**
 * The OpenAPI document (docs/protocol.md, "The reference service"): it passes a maintained OpenAPI
 * validator, and the reference service answers every operation as the document says, each answer's
 * status listed for its operation and its body valid against the document's own schema for that
 * status (checked by Ajv, a JSON Schema 2020-12 validator independent of zod).
 */
import { validate } from '@readme/openapi-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'vite';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  createOpenApiDocument,
  createReferenceService,
  defineTask,
  demoTasks,
  type OpenApiDocument,
  type ReferenceService,
} from '../../src/reference/index.js';
import { taskwireReference } from '../../src/reference/vite/index.js';
import { AUTH, BASE, eventsOf, readStream } from './service-requests.js';
import { isClientLabel, isIdempotencyKey } from '../../src/protocol/headers.js';
import { REFUSED_LINK_SCHEMES } from '../../src/protocol/links.js';
import { isTaskId } from '../../src/protocol/names.js';

const document = createOpenApiDocument();
const DOCUMENT_ID = 'https://taskwire.test/openapi.json';

/** Ajv over the whole document, so that every `#/components/…` reference resolves in it. */
function documentValidator(openApi: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...structuredClone(openApi), $id: DOCUMENT_ID });
  const compiled = new Map<string, ValidateFunction>();
  return (pointer: string[], value: unknown): string | undefined => {
    const fragment = pointer
      .map((part) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1')))
      .join('/');
    let check = compiled.get(fragment);
    if (check === undefined) {
      check = ajv.compile({ $ref: `${DOCUMENT_ID}#/${fragment}` });
      compiled.set(fragment, check);
    }
    return check(value) ? undefined : ajv.errorsText(check.errors);
  };
}

const validateAt = documentValidator(document);

/** The value at `pointer` in the document, following one `$ref` (a response component). */
function at(pointer: string[]): { value: Record<string, unknown>; pointer: string[] } {
  let value: unknown = document;
  for (const part of pointer) value = (value as Record<string, unknown> | undefined)?.[part];
  const ref = (value as { $ref?: string } | undefined)?.$ref;
  if (ref !== undefined) return at(ref.slice(2).split('/'));
  return { value: value as Record<string, unknown>, pointer };
}

type Method = 'get' | 'post';

/** Every operation of the document that was called, as `METHOD path`. */
const called = new Set<string>();

interface Call {
  task?: string;
  id?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Calls the operation at `path` and `method` of the document on `service` (the path's `{task}`
 * and `{id}` filled in), and checks the answer against the document: its status is listed, its
 * required headers are there, and its JSON body, or each event of its stream, is valid.
 */
async function callOperation(
  service: ReferenceService,
  path: string,
  method: Method,
  { task = '', id = '', body, headers = AUTH }: Call = {},
): Promise<{ status: number; json: unknown; events: unknown[]; response: Response }> {
  const operation = at(['paths', path, method]).value;
  expect(operation, `${method} ${path} is in the document`).toBeDefined();
  called.add(`${method.toUpperCase()} ${path}`);
  const url = BASE + path.replace('{task}', encodeURIComponent(task)).replace('{id}', id);
  const request = new Request(url, {
    method: method.toUpperCase(),
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const response = await service.fetch(request);
  const status = response.status;
  const documented = at(['paths', path, method, 'responses', String(status)]);
  expect(documented.value, `${method} ${path} lists status ${status}`).toBeDefined();
  for (const [name, header] of Object.entries(
    (documented.value.headers ?? {}) as Record<string, { $ref?: string; required?: boolean }>,
  )) {
    const definition =
      header.$ref === undefined ? header : at(header.$ref.slice(2).split('/')).value;
    const value = response.headers.get(name);
    if (definition.required === true) expect(value, `${status} has ${name}`).not.toBeNull();
    if (name === 'Retry-After' && value !== null) expect(Number(value)).toBeGreaterThanOrEqual(1);
  }
  const contentType = response.headers.get('content-type') ?? '';
  if (status === 204) {
    expect(documented.value.content, `${status} has no body`).toBeUndefined();
    expect(await response.text()).toBe('');
    return { status, json: undefined, events: [], response };
  }
  if (contentType.startsWith('text/event-stream')) {
    expect(Object.keys(documented.value.content as object)).toEqual(['text/event-stream']);
    const events = eventsOf(await readStream(response));
    for (const event of events) {
      const problem = validateAt(
        [...documented.pointer, 'content', 'text/event-stream', 'x-itemSchema'],
        event,
      );
      expect(problem, `${path} event ${JSON.stringify(event)}`).toBeUndefined();
    }
    return { status, json: undefined, events, response };
  }
  expect(contentType).toBe('application/json; charset=utf-8');
  const json: unknown = await response.json();
  const problem = validateAt(
    [...documented.pointer, 'content', 'application/json', 'schema'],
    json,
  );
  expect(problem, `${method} ${path} ${status}: ${JSON.stringify(json)}`).toBeUndefined();
  return { status, json, events: [], response };
}

/** Valid params of each demo task, quick at a small time scale. */
const VALID_PARAMS: Record<string, Record<string, unknown>> = {
  echo: { message: 'hello' },
  'render-video': { frames: 6, frameMs: 10 },
  'generate-images': { prompt: 'a lighthouse', count: 2 },
  'translate-text': { text: 'hello', targetLanguage: 'de' },
  'failing-task': {},
  'slow-report': { seconds: 0.2 },
  'export-data': { format: 'csv' },
};

/** Params each demo task refuses with 422. */
const INVALID_PARAMS: Record<string, Record<string, unknown>> = {
  echo: { message: 5 },
  'render-video': { frames: 0 },
  'generate-images': { count: 2 },
  'translate-text': { text: 'hello', targetLanguage: 'German' },
  'failing-task': { reason: 'not a reason' },
  'slow-report': { seconds: -1 },
  'export-data': { format: 'pdf' },
};

const NO_TOKENS: Record<string, string> = {};

/** A service that runs the demo tasks quickly. */
function quickService(): ReferenceService {
  return createReferenceService({ timeScale: 0.1 });
}

/** Polls Get Result through the document's operation until the task ends. */
async function pollToEnd(service: ReferenceService, path: string, task: string, id: string) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const { status, json } = await callOperation(service, path, 'get', { task, id });
    expect(status).toBe(200);
    const record = (json as { response: { status: string } }).response;
    if (record.status === 'COMPLETED' || record.status === 'FAILED') return record;
    if (Date.now() > deadline) throw new Error(`${task} ${id} did not end`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('createOpenApiDocument', () => {
  it('passes the OpenAPI 3.1 validator of @readme/openapi-parser', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('is checked by the validator for real: a broken document fails it', async () => {
    const broken = structuredClone(document) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    delete (
      broken.paths['/workflows/echo/submit']!.post!.responses['202'] as Record<string, unknown>
    ).description;
    const result = await validate(broken as never);
    expect(result.valid).toBe(false);
  });

  it('describes every endpoint for any task and for each demo task, with the path rules', () => {
    const endpoints = ['submit', 'stream', 'execute', 'options'];
    for (const name of ['{task}', ...demoTasks.map((task) => task.name)]) {
      for (const endpoint of endpoints) {
        expect(document.paths[`/workflows/${name}/${endpoint}`]?.post).toBeDefined();
      }
      expect(document.paths[`/workflows/${name}/{id}/result`]?.get).toBeDefined();
    }
    const parameters = document.components.parameters as Record<string, { schema: object }>;
    expect(parameters.TaskName?.schema).toEqual({
      type: 'string',
      pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$',
    });
    expect(at(['components', 'schemas', 'TaskId']).value).toMatchObject({
      minLength: 1,
      maxLength: 256,
    });
    const submit = document.paths['/workflows/echo/submit']?.post as {
      parameters: Array<{ $ref: string }>;
    };
    expect(submit.parameters.map((parameter) => parameter.$ref)).toEqual([
      '#/components/parameters/Platform',
      '#/components/parameters/Touchpoint',
      '#/components/parameters/IdempotencyKey',
    ]);
    expect(document.security).toEqual([{ userToken: [], clientToken: [] }]);
  });

  it('takes the reasons of the error body from the service, and narrows them per status', () => {
    const errorBody = at(['components', 'schemas', 'ErrorBody']).value as {
      properties: { reason: { enum: string[] } };
    };
    expect(errorBody.properties.reason.enum).toContain('TOO_MANY_TASKS');
    expect(errorBody.properties.reason.enum).not.toContain('TASK_ERROR');
    const notFound = at(['paths', '/workflows/echo/{id}/result', 'get', 'responses', '404']).value;
    expect(JSON.stringify(notFound)).toContain('RESULT_NOT_FOUND');
    expect(JSON.stringify(notFound)).not.toContain('TASK_NOT_FOUND');
    expect(
      at(['paths', '/workflows/echo/execute', 'post', 'responses', '504']).value,
    ).toBeDefined();
    expect(
      at(['paths', '/workflows/echo/options', 'post', 'responses', '504']).value,
    ).toBeUndefined();
  });

  it("generates each demo task's params schema that accepts its valid params and refuses bad ones", () => {
    for (const task of demoTasks) {
      const pointer = ['components', 'schemas', `${task.name}.Params`];
      expect(validateAt(pointer, VALID_PARAMS[task.name]), task.name).toBeUndefined();
      expect(validateAt(pointer, INVALID_PARAMS[task.name]), task.name).toBeDefined();
    }
    // A default makes a param optional on the wire.
    expect(at(['components', 'schemas', 'render-video.Params']).value).toEqual({
      type: 'object',
      properties: {
        frames: { default: 20, type: 'integer', minimum: 1, maximum: 500 },
        frameMs: { default: 150, type: 'integer', minimum: 1, maximum: 10_000 },
        failAtFrame: { type: 'integer', minimum: 1, maximum: 500 },
      },
    });
  });

  it('refuses, with its own schemas, answers that break them', () => {
    const result = ['paths', '/workflows/{task}/{id}/result', 'get', 'responses', '200'];
    const json = [...result, 'content', 'application/json', 'schema'];
    const record = {
      id: 'a',
      status: 'FAILED',
      result: null,
      progress: { percent: 0, estimatedSecondsLeft: 0 },
      events: [],
    };
    expect(validateAt(json, { status: 'success', response: record })).toBeDefined();
    const failure = { status: 'error', statusCode: 500, reason: 'X', message: 'm' };
    expect(
      validateAt(json, { status: 'success', response: { ...record, result: failure } }),
    ).toBeUndefined();
    const events = [
      'paths',
      '/workflows/render-video/stream',
      'post',
      'responses',
      '200',
      'content',
      'text/event-stream',
      'x-itemSchema',
    ];
    expect(
      validateAt(events, { type: 'task.progress', percent: 1, estimatedSecondsLeft: 0 }),
    ).toBeUndefined();
    expect(validateAt(events, { type: 'task.partial-result', result: { url: 1 } })).toBeDefined();
    expect(validateAt(events, { type: 'event.frame-rendered', frame: 'one' })).toBeDefined();
  });

  it("takes the wire's rules from src/protocol: the headers' and the task id's, and the refused links", () => {
    const cases: Array<[schema: string, value: string, rule: (value: string) => boolean]> = [];
    for (const value of ['website', 'a'.repeat(64), 'a'.repeat(65), 'web site', 'é', ''])
      cases.push(['ClientLabel', value, isClientLabel]);
    for (const value of ['!'.repeat(255), 'k'.repeat(256), 'has space', 'ké', ''])
      cases.push(['IdempotencyKey', value, isIdempotencyKey]);
    for (const value of ['a', '...', 'a/b', '.', '..', '', 'i'.repeat(257)])
      cases.push(['TaskId', value, isTaskId]);
    for (const [schema, value, rule] of cases) {
      const valid = validateAt(['components', 'schemas', schema], value) === undefined;
      expect([schema, value, valid]).toEqual([schema, value, rule(value)]);
    }
    const parameters = document.components.parameters as Record<string, { schema: object }>;
    expect(parameters.Platform?.schema).toEqual({ $ref: '#/components/schemas/ClientLabel' });
    expect(parameters.IdempotencyKey?.schema).toEqual({
      $ref: '#/components/schemas/IdempotencyKey',
    });
    const notification = at(['components', 'schemas', 'NotificationRequest']).value;
    for (const scheme of REFUSED_LINK_SCHEMES)
      expect(notification.description).toContain(`\`${scheme}\``);
  });

  it('describes the usage rule that JSON Schema cannot check', () => {
    expect(at(['components', 'schemas', 'Usage']).value.description).toContain('sum of `credits`');
  });

  it('returns a new object on every call', () => {
    const first = createOpenApiDocument();
    first.paths = {};
    expect(Object.keys(createOpenApiDocument().paths).length).toBeGreaterThan(30);
  });
});

describe('the reference service against its OpenAPI document', () => {
  describe.each(demoTasks.map((task) => task.name))('%s', (task) => {
    it('answers Submit and Get Result as documented', async () => {
      const service = quickService();
      const submitPath = `/workflows/${task}/submit`;
      const resultPath = `/workflows/${task}/{id}/result`;
      const params = VALID_PARAMS[task];
      const accepted = await callOperation(service, submitPath, 'post', { body: { params } });
      expect(accepted.status).toBe(202);
      const id = (accepted.json as { response: { id: string } }).response.id;
      expect(accepted.response.headers.get('location')).toBe(`/workflows/${task}/${id}/result`);
      await pollToEnd(service, resultPath, task, id);
      const refused = [
        await callOperation(service, submitPath, 'post', {
          body: { params: INVALID_PARAMS[task] },
        }),
        await callOperation(service, submitPath, 'post', { body: { params }, headers: NO_TOKENS }),
        await callOperation(service, resultPath, 'get', { id: 'no-such-id' }),
        await callOperation(service, resultPath, 'get', { id, headers: NO_TOKENS }),
      ];
      expect(refused.map((answer) => answer.status)).toEqual([422, 401, 404, 401]);
      await service.close();
    });

    it('answers Stream as documented', async () => {
      const service = quickService();
      const path = `/workflows/${task}/stream`;
      const params = VALID_PARAMS[task];
      const streamed = await callOperation(service, path, 'post', { body: { params } });
      expect(streamed.status).toBe(200);
      expect(streamed.response.headers.get('content-type')).toBe(
        'text/event-stream; charset=utf-8',
      );
      expect(streamed.events.length).toBeGreaterThan(0);
      expect(['task.completed', 'task.failed']).toContain(
        (streamed.events.at(-1) as { type: string }).type,
      );
      const refused = [
        await callOperation(service, path, 'post', { body: { params: INVALID_PARAMS[task] } }),
        await callOperation(service, path, 'post', { body: { params }, headers: NO_TOKENS }),
      ];
      expect(refused.map((answer) => answer.status)).toEqual([422, 401]);
      await service.close();
    });

    it('answers the short start and both events reads as documented', async () => {
      const service = quickService();
      const params = VALID_PARAMS[task];
      const started = await callOperation(service, `/workflows/${task}/stream`, 'post', {
        body: { params },
        headers: { ...AUTH, prefer: 'respond-async', 'idempotency-key': `short-${task}` },
      });
      expect(started.status).toBe(202);
      expect(started.response.headers.get('preference-applied')).toBe('respond-async');
      const id = (started.json as { response: { id: string } }).response.id;
      const eventsPath = `/workflows/${task}/{id}/events`;
      const whole = await callOperation(service, eventsPath, 'get', { id });
      expect(whole.status).toBe(200);
      expect(['task.completed', 'task.failed']).toContain(
        (whole.events.at(-1) as { type: string }).type,
      );
      const followed = await callOperation(service, '/workflows/events', 'post', {
        body: { follow: [{ task, id, after: null }] },
      });
      expect(followed.status).toBe(200);
      expect(followed.events).toHaveLength(whole.events.length);
      const last = (followed.events.at(-1) as { position: string }).position;
      const after = await callOperation(service, eventsPath, 'get', {
        id,
        headers: { ...AUTH, 'last-event-id': last },
      });
      expect(after.status).toBe(204);
      const refused = [
        await callOperation(service, eventsPath, 'get', { id: 'no-such-id' }),
        await callOperation(service, eventsPath, 'get', {
          id,
          headers: { ...AUTH, 'last-event-id': 'not a position' },
        }),
        await callOperation(service, '/workflows/events', 'post', { body: { follow: [] } }),
      ];
      expect(refused.map((answer) => answer.status)).toEqual([404, 400, 422]);
      await service.close();
    });

    it('answers Execute and Options as documented', async () => {
      const service = quickService();
      const params = VALID_PARAMS[task];
      for (const endpoint of ['execute', 'options']) {
        const path = `/workflows/${task}/${endpoint}`;
        const answered = await callOperation(service, path, 'post', { body: { params } });
        expect(answered.status).toBe(200);
        const refused = [
          await callOperation(service, path, 'post', { body: { params: INVALID_PARAMS[task] } }),
          await callOperation(service, path, 'post', { body: { params }, headers: NO_TOKENS }),
        ];
        expect(refused.map((answer) => answer.status)).toEqual([422, 401]);
      }
      await service.close();
    });
  });

  it('answers the operations of any task as documented, an unknown task name included', async () => {
    const service = quickService();
    const params = VALID_PARAMS.echo;
    for (const endpoint of ['submit', 'stream', 'execute', 'options']) {
      const path = `/workflows/{task}/${endpoint}`;
      const answered = await callOperation(service, path, 'post', {
        task: 'echo',
        body: { params },
      });
      expect(answered.status).toBe(endpoint === 'submit' ? 202 : 200);
      const refused = [
        await callOperation(service, path, 'post', { task: 'no-such-task', body: { params } }),
        await callOperation(service, path, 'post', {
          task: 'echo',
          body: { params: { message: 1 } },
        }),
        await callOperation(service, path, 'post', {
          task: 'echo',
          body: { params },
          headers: NO_TOKENS,
        }),
        await callOperation(service, path, 'post', { task: 'echo', body: { nothing: true } }),
      ];
      expect(refused.map((answer) => answer.status)).toEqual([404, 422, 401, 400]);
    }
    const submitted = await callOperation(service, '/workflows/{task}/submit', 'post', {
      task: 'echo',
      body: { params },
    });
    const id = (submitted.json as { response: { id: string } }).response.id;
    await pollToEnd(service, '/workflows/{task}/{id}/result', 'echo', id);
    const refused = [
      await callOperation(service, '/workflows/{task}/{id}/result', 'get', { task: 'nope', id }),
      await callOperation(service, '/workflows/{task}/{id}/result', 'get', {
        task: 'echo',
        id: '%E0%A4%A',
      }),
    ];
    expect(refused.map((answer) => answer.status)).toEqual([404, 404]);
    const events = await callOperation(service, '/workflows/{task}/{id}/events', 'get', {
      task: 'echo',
      id,
    });
    expect(events.status).toBe(200);
    const unknownTask = await callOperation(service, '/workflows/{task}/{id}/events', 'get', {
      task: 'nope',
      id,
    });
    expect(unknownTask.status).toBe(404);
    const shortStart = await callOperation(service, '/workflows/{task}/stream', 'post', {
      task: 'echo',
      body: { params },
      headers: { ...AUTH, prefer: 'respond-async' },
    });
    expect(shortStart.status).toBe(202);
    await service.close();
  });

  it('derives the schemas of the reads from src/protocol, and refuses what breaks them', () => {
    const position = at(['components', 'schemas', 'Position']).value;
    expect(position).toMatchObject({ type: 'string', pattern: '^[\\x21-\\x7e]{1,64}$' });
    const follow = at(['components', 'schemas', 'FollowRequest']).value;
    expect(JSON.stringify(follow)).toContain('"maxItems":100');
    const request = ['components', 'schemas', 'FollowRequest'];
    expect(
      validateAt(request, { follow: [{ task: 'echo', id: 'a', after: null }] }),
    ).toBeUndefined();
    expect(validateAt(request, { follow: [] })).toBeDefined();
    expect(
      validateAt(request, { follow: [{ task: 'echo', id: 'a', after: 'two words' }] }),
    ).toBeDefined();
    const message = ['components', 'schemas', 'FollowMessage'];
    expect(
      validateAt(message, {
        task: 'echo',
        id: 'a',
        position: '1',
        message: { type: 'task.progress' },
      }),
    ).toBeUndefined();
    expect(validateAt(message, { task: 'echo', id: 'a', position: '1' })).toBeDefined();
    const stream = at(['paths', '/workflows/echo/stream', 'post']).value as {
      parameters: Array<{ $ref: string }>;
      responses: Record<string, unknown>;
    };
    expect(stream.parameters.map((parameter) => parameter.$ref)).toContain(
      '#/components/parameters/Prefer',
    );
    expect(stream.responses['202']).toBeDefined();
    expect(JSON.stringify(stream.responses['422'])).toContain('IDEMPOTENCY_KEY_REUSED');
    const events = at(['paths', '/workflows/echo/{id}/events', 'get', 'responses', '410']).value;
    expect(JSON.stringify(events)).toContain('EVENTS_EXPIRED');
  });

  it('documents the answers of the limits: 415, 422 for a notification, 429 and 504', async () => {
    const service = createReferenceService({
      timeScale: 1,
      limits: { tasksPerUser: 1, executeTimeoutMs: 20 },
    });
    const unsupported = await callOperation(service, '/workflows/echo/options', 'post', {
      headers: AUTH,
    });
    expect(unsupported.status).toBe(415);
    const badNotification = await callOperation(service, '/workflows/export-data/submit', 'post', {
      body: {
        params: { format: 'csv' },
        notification: { actions: [{ deeplink: 'javascript:x' }] },
      },
    });
    expect(badNotification.status).toBe(422);
    const timedOut = await callOperation(service, '/workflows/slow-report/execute', 'post', {
      body: { params: { seconds: 5 } },
    });
    expect(timedOut.status).toBe(504);
    const tooMany = await callOperation(service, '/workflows/slow-report/submit', 'post', {
      body: { params: { seconds: 5 } },
    });
    expect(tooMany.status).toBe(429);
    await service.close();
  });

  it('answers GET /openapi.json as documented, without tokens', async () => {
    const service = quickService();
    const answered = await callOperation(service, '/openapi.json', 'get', { headers: NO_TOKENS });
    expect(answered.status).toBe(200);
    expect(answered.json).toEqual(JSON.parse(JSON.stringify(document)));
    await service.close();
  });

  it('has called every operation of the document', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.filter((operation) => !called.has(operation))).toEqual([]);
  });
});

describe('GET /openapi.json', () => {
  const echoAgain = defineTask({
    name: 'echo-again',
    params: z.object({ text: z.string() }),
    run: (_context, { text }) => ({ text }),
  });

  it("answers the document of the service's own tasks, without tokens, never stored", async () => {
    const demo = createReferenceService();
    const own = createReferenceService({ tasks: [echoAgain] });
    for (const [service, tasks] of [
      [demo, demoTasks],
      [own, [echoAgain]],
      [demo, demoTasks],
    ] as const) {
      const response = await service.fetch(new Request(`${BASE}/openapi.json`));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual(
        JSON.parse(JSON.stringify(createOpenApiDocument({ tasks }))),
      );
    }
    await Promise.all([demo.close(), own.close()]);
  });

  it('answers OPTIONS like a preflight and refuses other methods with 405 and Allow', async () => {
    const service = createReferenceService();
    const preflight = await service.fetch(
      new Request(`${BASE}/openapi.json`, {
        method: 'OPTIONS',
        headers: { 'access-control-request-method': 'GET' },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    for (const method of ['POST', 'PUT', 'DELETE', 'HEAD']) {
      const refused = await service.fetch(
        new Request(`${BASE}/openapi.json`, { method, headers: AUTH }),
      );
      expect(refused.status, method).toBe(405);
      expect(refused.headers.get('allow')).toBe('GET, OPTIONS');
      if (method !== 'HEAD') {
        const body = await refused.json();
        expect(
          validateAt(
            [
              'components',
              'responses',
              'MethodNotAllowed',
              'content',
              'application/json',
              'schema',
            ],
            body,
          ),
        ).toBeUndefined();
      }
    }
    await service.close();
  });

  it('lives below the base path', async () => {
    const service = createReferenceService({ basePath: '/api' });
    expect((await service.fetch(new Request(`${BASE}/api/openapi.json`))).status).toBe(200);
    expect((await service.fetch(new Request(`${BASE}/openapi.json`))).status).toBe(404);
    await service.close();
  });

  it('is served under the Vite plugin’s prefix', async () => {
    const root = await mkdtemp(join(tmpdir(), 'taskwire-openapi-'));
    const server = await createServer({
      configFile: false,
      root,
      plugins: [taskwireReference({ config: { tasks: [echoAgain] } })],
      logLevel: 'silent',
      optimizeDeps: { noDiscovery: true, include: [] },
      server: { port: 0, host: '127.0.0.1', strictPort: true, watch: null, hmr: false },
    });
    try {
      await server.listen();
      const port = (server.httpServer!.address() as AddressInfo).port;
      const response = await fetch(`http://127.0.0.1:${port}/taskwire/openapi.json`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(
        JSON.parse(JSON.stringify(createOpenApiDocument({ tasks: [echoAgain] }))),
      );
    } finally {
      await server.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('a task added with defineTask', () => {
  const node: z.ZodMiniType<unknown> = z.object({
    name: z.string(),
    get children() {
      return z.optional(z.array(node));
    },
  });
  const booking = defineTask({
    name: 'book.room',
    params: z.object({
      room: z.union([z.literal('small'), z.literal('large')]),
      nights: z._default(z.optional(z.int().check(z.gte(1))), 1),
      note: z.optional(z.string()),
      tree: z.optional(node),
    }),
    result: z.object({ bookedAt: z.date() }),
    events: z.custom<{ type: 'event.x' }>(() => true),
    run: () => ({ bookedAt: new Date(0) }),
  });
  const withBooking = createOpenApiDocument({ tasks: [booking, ...demoTasks] });

  it('appears with its params schema, and the document still validates', async () => {
    const submit = withBooking.paths['/workflows/book.room/submit']?.post;
    expect(JSON.stringify(submit)).toContain('#/components/schemas/book.room.Params');
    const params = withBooking.components.schemas?.['book.room.Params'] as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(params.properties.room).toEqual({
      anyOf: [
        { type: 'string', const: 'small' },
        { type: 'string', const: 'large' },
      ],
    });
    expect(params.required).toEqual(['room']);
    expect(params.properties.nights).toMatchObject({ default: 1, type: 'integer', minimum: 1 });
    expect((await validate(structuredClone(withBooking) as never)).valid).toBe(true);
    const check = documentValidator(withBooking);
    const pointer = ['components', 'schemas', 'book.room.Params'];
    expect(
      check(pointer, { room: 'small', tree: { name: 'a', children: [{ name: 'b' }] } }),
    ).toBeUndefined();
    expect(check(pointer, { room: 'small', tree: { name: 'a', children: [{}] } })).toBeDefined();
    expect(check(pointer, { room: 'huge' })).toBeDefined();
  });

  it('says where its zod schema has no JSON Schema, and accepts any value there', () => {
    const schemas = withBooking.components.schemas as Record<string, Record<string, unknown>>;
    expect(schemas['book.room.Result']?.description).toContain('Date cannot be represented');
    expect(schemas['book.room.Result']?.properties).toEqual({ bookedAt: {} });
    expect(schemas['book.room.Event']?.description).toContain('Custom types cannot be represented');
    expect(Object.keys(schemas['book.room.Event'] ?? {})).toEqual(['description']);
  });
});
