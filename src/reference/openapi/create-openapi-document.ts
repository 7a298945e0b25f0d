/**
 * `createOpenApiDocument` (docs/protocol.md, "The reference service"): the protocol as an OpenAPI
 * 3.1 document, for tools that read one (API explorers, client generators, contract tests). Every
 * endpoint is described twice: once for any task (`/workflows/{task}/…`, params and results any JSON
 * object), and once per registered task with its name fixed in the path and its own params, result
 * and event schemas, generated from its zod schemas (`json-schemas.ts`).
 */
import { taskNameSchema } from '../../protocol/names.js';
import type { AnyTaskDefinition } from '../define-task.js';
import { demoTasks } from '../demo-tasks.js';
import { methodOf, pathOfSegments, type Endpoint } from '../../protocol/match-route.js';
import {
  FOLLOW_PATH,
  MAX_FOLLOWED_TASKS,
  RESPOND_ASYNC,
  RESUMABLE_HEADER,
} from '../../protocol/resumable-streams.js';
import { EXPOSED_HEADERS, PREFLIGHT_MAX_AGE_SECONDS } from '../cors.js';
import { KEEP_ALIVE_MS } from '../endpoints/events.js';
import { EXECUTE_LIMIT_MS, IDEMPOTENCY_MS } from '../service-context.js';
import { ERROR_REASON_STATUSES, type ErrorReason } from '../service-error.js';
import {
  addTaskSchema,
  inlineSchema,
  protocolSchemas,
  schemaRef,
  type JsonSchema,
  type SchemaComponents,
} from './json-schemas.js';

/** Options of {@link createOpenApiDocument}. */
export interface OpenApiDocumentOptions {
  /** The tasks to describe, each with paths of its own. Defaults to the demo tasks. */
  tasks?: readonly AnyTaskDefinition[];
}

/** An OpenAPI 3.1 document, as a plain JSON object. */
export interface OpenApiDocument {
  /** The OpenAPI version: `'3.1.0'`. */
  openapi: '3.1.0';
  /** Title, version and a summary of the rules every endpoint shares. */
  info: { title: string; version: string; description: string };
  /** One server, relative to where the document is served: the service's base URL. */
  servers: Array<{ url: string; description: string }>;
  /** The bearer tokens every endpoint needs (both at once). */
  security: Array<Record<string, string[]>>;
  /** `Any task`, `About the service`, and one tag per task. */
  tags: Array<{ name: string; description: string }>;
  /** The path items, by path. */
  paths: Record<string, Record<string, unknown>>;
  /** Schemas, parameters, headers, responses and security schemes the paths refer to. */
  components: Record<string, Record<string, unknown>>;
}

/**
 * The version of the document: the wire protocol of docs/protocol.md as of taskwire 0.4 (resumable
 * streams). It changes when the protocol does, not with every release of the package.
 */
const DOCUMENT_VERSION = '0.4.0';

/** How long an `Idempotency-Key` is remembered, in words: `24 h`. */
const IDEMPOTENCY_WINDOW = `${IDEMPOTENCY_MS / 3_600_000} h`;

/** The tag of the paths that serve any task. */
const ANY_TASK_TAG = 'Any task';
/** The tag of `/openapi.json`. */
const SERVICE_TAG = 'About the service';

/** The reasons any request may be refused with, whatever its endpoint. */
const EVERY_REQUEST: readonly ErrorReason[] = [
  'UNAUTHENTICATED',
  'RATE_LIMITED',
  'INVALID_HEADER',
  // Found by node's HTTP parser, when the service runs behind `node:http`.
  'MALFORMED_REQUEST',
  'REQUEST_TIMEOUT',
  'MALFORMED_BODY',
  'PAYLOAD_TOO_LARGE',
  'INTERNAL',
];

/** The reasons of every POST: the body, its content type and its params. */
const EVERY_POST: readonly ErrorReason[] = [
  ...EVERY_REQUEST,
  'UNSUPPORTED_MEDIA_TYPE',
  'INVALID_PARAMS',
];

/** The reasons each endpoint may answer with, for a task that exists. */
const ENDPOINT_REASONS: Readonly<Record<Endpoint, readonly ErrorReason[]>> = {
  submit: [...EVERY_POST, 'INVALID_NOTIFICATION', 'IDEMPOTENCY_KEY_REUSED', 'TOO_MANY_TASKS'],
  // NOT_FOUND: an id with a malformed percent escape names no endpoint.
  result: [...EVERY_REQUEST, 'NOT_FOUND', 'RESULT_NOT_FOUND', 'RESULT_EXPIRED'],
  // IDEMPOTENCY_KEY_REUSED: the short start honours Idempotency-Key as Submit does.
  stream: [...EVERY_POST, 'IDEMPOTENCY_KEY_REUSED', 'TOO_MANY_TASKS'],
  execute: [...EVERY_POST, 'TOO_MANY_TASKS', 'EXECUTE_TIMEOUT'],
  options: EVERY_POST,
};

/** The reasons of a task's events read (docs/protocol.md, "Resumable streams (0.4)"). */
const EVENTS_READ_REASONS: readonly ErrorReason[] = [
  ...EVERY_REQUEST,
  'NOT_FOUND',
  'RESULT_NOT_FOUND',
  'EVENTS_EXPIRED',
  'EVENTS_UNAVAILABLE',
];

/** The reasons of the multiplexed read: its body is a list of tasks, not params. */
const FOLLOW_REASONS: readonly ErrorReason[] = [
  ...EVERY_REQUEST,
  'UNSUPPORTED_MEDIA_TYPE',
  'INVALID_FOLLOW',
];

/** The reasons added on the paths of any task: the name may name no task, or be malformed. */
const ANY_TASK_REASONS: readonly ErrorReason[] = ['NOT_FOUND', 'TASK_NOT_FOUND'];

/** How each endpoint is named and described. */
const ENDPOINTS: Readonly<Record<Endpoint, { summary: string; citation: string; text: string }>> = {
  submit: {
    summary: 'Submit Task',
    citation: 'docs/protocol.md, "Submit"',
    text:
      'Creates a task and answers 202 at once with its id; read the outcome with Get Result. With ' +
      `an \`Idempotency-Key\`, the same key from the same user for the same task within ${IDEMPOTENCY_WINDOW} answers ` +
      'the first answer again; another body under that key is 422 `IDEMPOTENCY_KEY_REUSED`.',
  },
  result: {
    summary: 'Get Result',
    citation: 'docs/protocol.md, "Get Result"',
    text:
      "The task's record, for an id of this user and this task name (another user's id is 404 like " +
      'one that never existed). While the task is not terminal, `Retry-After` is the hint for the ' +
      'next poll. A dropped result is 410 `RESULT_EXPIRED`.',
  },
  stream: {
    summary: 'Stream',
    citation: 'docs/protocol.md, "Streams"',
    text:
      "Creates a task and answers with its events as server-sent events, under the task's " +
      '`x-task-id`; the stream ends after `task.completed` or `task.failed`. The task outlives its ' +
      'stream: a client that loses the connection reads the outcome with Get Result instead of ' +
      'posting again. A request refused before the task starts is a JSON error answer, never a stream. ' +
      'With `Prefer: respond-async` (the short start, docs/protocol.md, "Resumable streams (0.4)") ' +
      'it answers 202 as Submit does, honouring `Idempotency-Key`, and the task is read with the ' +
      'events reads.',
  },
  execute: {
    summary: 'Execute',
    citation: 'docs/protocol.md, "Execute"',
    text:
      'Creates a task and answers once it ends. A FAILED task is still 200, with the failure in ' +
      `\`result\`. Past ${EXECUTE_LIMIT_MS / 1000} s the answer is 504 \`EXECUTE_TIMEOUT\` with the \`taskId\`: the task goes on ` +
      'and can be read with Get Result.',
  },
  options: {
    summary: 'Options',
    citation: 'docs/protocol.md, "Options"',
    text:
      'What running the task with these params would cost, without running it or charging: the ' +
      "task's preflight, else its static monetization, else `{}` (no monetization configured).",
  },
};

/** What the document says about the rules every endpoint shares. */
const DESCRIPTION = [
  'The wire protocol of taskwire (docs/protocol.md), as served by its reference service. Every path ' +
    'is relative to the base URL, which is where this document is served from (`<base URL>/openapi.json`).',
  '',
  'Every endpoint needs both bearer tokens: `Authorization: Bearer <user token>` and ' +
    '`x-app-authorization: Bearer <client token>`; a missing, malformed or unknown token is 401 ' +
    '`UNAUTHENTICATED`. This document needs none.',
  '',
  'A CORS preflight (`OPTIONS` with `Access-Control-Request-Method`) needs no token and is answered ' +
    `204; every answer carries \`Access-Control-Expose-Headers: ${EXPOSED_HEADERS}\`. A ` +
    'method an endpoint does not take is 405 `METHOD_NOT_ALLOWED` with `Allow` ' +
    '(`#/components/responses/MethodNotAllowed`); a path that names no endpoint is 404 `NOT_FOUND`.',
  '',
  'A request is checked in this order, and the first failing check answers: route, method, tokens, ' +
    'rate limit, headers, content type, size, body, task name, params, notification, idempotency ' +
    "key, the user's share of tasks. Every JSON answer is `application/json; charset=utf-8` with " +
    '`Cache-Control: no-store`; every answer that is not 2xx has the `ErrorBody`.',
  '',
  `Resumable streams (docs/protocol.md, "Resumable streams (0.4)"): every answer carries ` +
    `\`${RESUMABLE_HEADER}: 1\`; every message of a stream and of an events read has its position ` +
    "as its SSE `id:` (a custom event's uuid moves into the message as `eventId`); a task's " +
    `messages are read again after a position with \`GET ${pathOfSegments('events', '{task}', '{id}')}\` and ` +
    `\`Last-Event-ID\`, and a page's tasks with one multiplexed read, \`POST ${FOLLOW_PATH}\`. Only ` +
    'the user who started a task reads its messages.',
  '',
  'A Submit, Stream or Execute body may carry members besides `params` (and `notification` on ' +
    'Submit); they are ignored. Params and results are described with the JSON Schema of each ' +
    "task's zod schemas; refinements that JSON Schema cannot express are checked by the service " +
    'all the same (422 `INVALID_PARAMS`).',
].join('\n');

/** The paths and schemas of one set of operations: any task, or one registered task. */
interface OperationSet {
  /** `{task}` for any task, else the task's name. */
  pathName: string;
  /** Prefix of the operation ids: `''` for any task, else `<task>.`. */
  idPrefix: string;
  tag: string;
  /** The task, when the set is one task's. */
  task: AnyTaskDefinition | undefined;
  params: JsonSchema;
  result: JsonSchema;
  events: JsonSchema;
}

/** `{ status: 'success', response }` around `response`. */
function envelope(response: JsonSchema): JsonSchema {
  return { allOf: [schemaRef('Envelope'), { properties: { response } }] };
}

/** A JSON content of `schema`. */
function json(schema: JsonSchema): JsonSchema {
  return { 'application/json': { schema } };
}

/** A record whose `result` is the failure when FAILED, else the task's result or null. */
function recordOf(record: string, result: JsonSchema): JsonSchema {
  return {
    allOf: [
      schemaRef(record),
      {
        if: { properties: { status: { const: 'FAILED' } }, required: ['status'] },
        then: { properties: { result: schemaRef('Failure') } },
        else: { properties: { result: { anyOf: [result, { type: 'null' }] } } },
      },
    ],
  };
}

/** The response components of a document, by name. */
type ResponseComponents = Record<string, JsonSchema>;

/** The error answer of `status` for `reasons`: the error body, narrowed to them. */
function errorResponse(status: number, reasons: readonly ErrorReason[]): JsonSchema {
  const narrowed: JsonSchema = {
    properties: { statusCode: { const: status }, reason: { enum: reasons } },
  };
  if (reasons.includes('EXECUTE_TIMEOUT')) narrowed.required = ['taskId'];
  const headers: Record<string, JsonSchema> = {};
  if (status === 429) headers['Retry-After'] = { $ref: '#/components/headers/RetryAfter' };
  if (status === 504) headers['x-task-id'] = { $ref: '#/components/headers/TaskId' };
  return {
    description: `${reasons.map((reason) => `\`${reason}\``).join(', ')} (docs/protocol.md, "Error bodies").`,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    content: json({ allOf: [schemaRef('ErrorBody'), narrowed] }),
  };
}

/**
 * The error answers for `reasons`, one per status: each a `$ref` to a response component named for
 * its status and reasons (`Error404.NOT_FOUND.RESULT_NOT_FOUND`), added to `components` once.
 */
function errorResponses(
  reasons: Iterable<ErrorReason>,
  components: ResponseComponents,
): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorReason[]>();
  for (const reason of reasons) {
    for (const status of ERROR_REASON_STATUSES[reason]) {
      byStatus.set(status, [...(byStatus.get(status) ?? []), reason]);
    }
  }
  const responses: Record<string, JsonSchema> = {};
  for (const [status, statusReasons] of [...byStatus].sort(([a], [b]) => a - b)) {
    const name = [`Error${status}`, ...statusReasons].join('.');
    components[name] ??= errorResponse(status, statusReasons);
    responses[String(status)] = { $ref: `#/components/responses/${name}` };
  }
  return responses;
}

/** The request body `{ params, notification? }` (the notification only on Submit). */
function requestBody(params: JsonSchema, withNotification: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = { params };
  if (withNotification) {
    properties.notification = { anyOf: [schemaRef('NotificationRequest'), { type: 'null' }] };
  }
  return {
    required: true,
    content: json({
      type: 'object',
      properties,
      required: ['params'],
      description: withNotification
        ? '`params` for the task; `notification` asks for a notification on completion (`null` is none).'
        : '`params` for the task.',
    }),
  };
}

/** The one-sentence note on a task's Options answer, from how the task is priced. */
function pricing(task: AnyTaskDefinition): string {
  if (task.enablePreflight === true) return 'This task answers with its own preflight.';
  const monetization = task.monetization;
  if (monetization === undefined) return 'This task has no monetization: it answers `{}`.';
  const usageAmount = monetization.usageAmount ?? 1;
  return (
    `This task has a static monetization: \`${monetization.toolId}\` at ${monetization.price} ` +
    `credits, \`usageAmount\` ${usageAmount}, so \`credits\` is ${monetization.price * usageAmount}.`
  );
}

/** One message of `set`'s stream or events read: a known `task.*` event, or a custom one. */
function streamItemSchema(set: OperationSet): JsonSchema {
  return {
    anyOf: [
      schemaRef('ProgressEvent'),
      { allOf: [schemaRef('PartialResultEvent'), { properties: { result: set.result } }] },
      {
        allOf: [
          schemaRef('CompletedEvent'),
          { properties: { result: { anyOf: [set.result, { type: 'null' }] } } },
        ],
      },
      schemaRef('FailedEvent'),
      set.events,
    ],
  };
}

/** What every event stream of the service is, in words. */
const EVENT_STREAM_TEXT =
  'Server-sent events (`text/event-stream; charset=utf-8`): each message is one ' +
  '`data: <JSON object>` line and a blank line, the object one of `x-itemSchema`. ' +
  `A \`: keep-alive\` comment comes at least every ${KEEP_ALIVE_MS / 1000} s of silence.`;

/** The success answer of `endpoint`. */
function successResponse(endpoint: Endpoint, set: OperationSet): [string, JsonSchema] {
  const taskIdHeader = { 'x-task-id': { $ref: '#/components/headers/TaskId' } };
  switch (endpoint) {
    case 'submit':
      return [
        '202',
        {
          description: 'Accepted: the task will run; read it with Get Result at `Location`.',
          headers: { Location: { $ref: '#/components/headers/Location' }, ...taskIdHeader },
          content: json(envelope(schemaRef('SubmitAnswer'))),
        },
      ];
    case 'result':
      return [
        '200',
        {
          description:
            "The task's record. `Retry-After` (whole seconds, at least 1) is sent while it is not terminal.",
          headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
          content: json(envelope(recordOf('TaskRecord', set.result))),
        },
      ];
    case 'stream':
      return [
        '200',
        {
          description: "The task's events, as server-sent events.",
          headers: {
            ...taskIdHeader,
            'Cache-Control': { schema: { type: 'string', const: 'no-cache' } },
          },
          content: {
            'text/event-stream': {
              schema: {
                type: 'string',
                description:
                  `${EVENT_STREAM_TEXT} Every message has its position as its \`id:\` line ` +
                  '(a custom event carries the id Get Result lists for it as `eventId`; from a ' +
                  'service that offers no resumable streams, only a custom `event.*` message has ' +
                  'an `id:` line, that id). The stream ends after `task.completed` or ' +
                  '`task.failed`; a `task.*` type not listed here comes from a newer service and ' +
                  'is passed on or ignored.',
              },
              'x-itemSchema': streamItemSchema(set),
            },
          },
        },
      ];
    case 'execute':
      return [
        '200',
        {
          description: 'The outcome of the task, COMPLETED or FAILED.',
          headers: taskIdHeader,
          content: json(envelope(recordOf('ExecuteRecord', set.result))),
        },
      ];
    case 'options':
      return [
        '200',
        {
          description: 'What a run would cost; `{}` when no monetization is configured.',
          content: json(envelope(schemaRef('OptionsResult'))),
        },
      ];
    default:
      return endpoint satisfies never;
  }
}

/** The operation of `endpoint` in `set`. */
function operation(
  endpoint: Endpoint,
  set: OperationSet,
  responseComponents: ResponseComponents,
): JsonSchema {
  const { summary, citation, text } = ENDPOINTS[endpoint];
  const parameters: JsonSchema[] = [];
  if (set.task === undefined) parameters.push({ $ref: '#/components/parameters/TaskName' });
  if (endpoint === 'result') parameters.push({ $ref: '#/components/parameters/TaskId' });
  parameters.push(
    { $ref: '#/components/parameters/Platform' },
    { $ref: '#/components/parameters/Touchpoint' },
  );
  if (endpoint === 'submit' || endpoint === 'stream')
    parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (endpoint === 'stream') parameters.push({ $ref: '#/components/parameters/Prefer' });
  const notes = [`${text} (${citation})`];
  if (set.task !== undefined && endpoint === 'options') notes.push(pricing(set.task));
  if (set.task?.notifies === true && endpoint === 'submit') {
    notes.push('This task sends a notification on completion when `notification.enabled` is true.');
  }
  const reasons = new Set([
    ...ENDPOINT_REASONS[endpoint],
    ...(set.task === undefined ? ANY_TASK_REASONS : []),
  ]);
  const [status, success] = successResponse(endpoint, set);
  return {
    operationId: `${set.idPrefix}${endpoint === 'result' ? 'getResult' : endpoint}`,
    summary: set.task === undefined ? summary : `${summary}: ${set.task.name}`,
    description: notes.join('\n\n'),
    tags: [set.tag],
    parameters,
    ...(endpoint === 'result'
      ? {}
      : { requestBody: requestBody(set.params, endpoint === 'submit') }),
    responses: {
      [status]: success,
      ...(endpoint === 'stream' ? { '202': shortStartResponse() } : {}),
      ...errorResponses(reasons, responseComponents),
    },
  };
}

/** The short start's answer: Submit's, plus `Preference-Applied`. */
function shortStartResponse(): JsonSchema {
  return {
    description:
      'The short start (`Prefer: respond-async`): accepted, as Submit answers; read the task with the events reads.',
    headers: {
      Location: { $ref: '#/components/headers/Location' },
      'x-task-id': { $ref: '#/components/headers/TaskId' },
      'Preference-Applied': { $ref: '#/components/headers/PreferenceApplied' },
    },
    content: json(envelope(schemaRef('SubmitAnswer'))),
  };
}

/** An event stream of `item`s, described by `text`. */
function eventStream(text: string, item: JsonSchema): JsonSchema {
  return {
    'text/event-stream': {
      schema: { type: 'string', description: `${EVENT_STREAM_TEXT} ${text}` },
      'x-itemSchema': item,
    },
  };
}

/** The events read of `set`'s tasks (docs/protocol.md, "Resumable streams (0.4)"). */
function eventsOperation(set: OperationSet, responseComponents: ResponseComponents): JsonSchema {
  const parameters: JsonSchema[] = [];
  if (set.task === undefined) parameters.push({ $ref: '#/components/parameters/TaskName' });
  parameters.push(
    { $ref: '#/components/parameters/TaskId' },
    { $ref: '#/components/parameters/LastEventId' },
    { $ref: '#/components/parameters/Platform' },
    { $ref: '#/components/parameters/Touchpoint' },
  );
  const reasons = new Set([
    ...EVENTS_READ_REASONS,
    ...(set.task === undefined ? ANY_TASK_REASONS : []),
  ]);
  return {
    operationId: `${set.idPrefix}events`,
    summary: set.task === undefined ? 'Events read' : `Events read: ${set.task.name}`,
    description:
      "The task's stream messages after the position in `Last-Event-ID` (from its first message " +
      'without one), each with its position as its `id:`, then the live ones, closed right after ' +
      "the final event. Another user's task, an unknown id and a task with no log are 404 " +
      "`RESULT_NOT_FOUND`, as Get Result; a read past the log's limits is 410 `EVENTS_EXPIRED`, " +
      'and the task is then read with Get Result (docs/protocol.md, "Resumable streams (0.4)")',
    tags: [set.tag],
    parameters,
    responses: {
      '200': {
        description: "The task's messages after the position.",
        headers: { 'Cache-Control': { schema: { type: 'string', const: 'no-cache' } } },
        content: eventStream(
          'Every message has its position as its `id:` line; the read ends after `task.completed` or `task.failed`.',
          streamItemSchema(set),
        ),
      },
      '204': {
        description:
          'The log has ended and holds nothing after the position: the reader has the final event.',
      },
      ...errorResponses(reasons, responseComponents),
    },
  };
}

/** The multiplexed read: one connection for all of a page's tasks. */
function followPathItem(responseComponents: ResponseComponents): Record<string, unknown> {
  return {
    post: {
      operationId: 'followEvents',
      summary: 'Multiplexed events read',
      description:
        `The messages of 1 to ${MAX_FOLLOWED_TASKS} tasks, each after the position the page has, interleaved as ` +
        'they happen, closed once every followed task has ended (its final message or its error). ' +
        'A task whose final message the page already has gets nothing (docs/protocol.md, ' +
        '"Resumable streams (0.4)").',
      tags: [ANY_TASK_TAG],
      parameters: [
        { $ref: '#/components/parameters/Platform' },
        { $ref: '#/components/parameters/Touchpoint' },
      ],
      requestBody: { required: true, content: json(schemaRef('FollowRequest')) },
      responses: {
        '200': {
          description: "The followed tasks' messages.",
          headers: { 'Cache-Control': { schema: { type: 'string', const: 'no-cache' } } },
          content: eventStream(
            'Messages carry no `id:` line: each names its task, its id and its position.',
            schemaRef('FollowMessage'),
          ),
        },
        ...errorResponses(FOLLOW_REASONS, responseComponents),
      },
    },
  };
}

/** The path items of every endpoint of `set`. */
function pathItems(
  set: OperationSet,
  responseComponents: ResponseComponents,
): Record<string, Record<string, unknown>> {
  const endpoints: readonly Endpoint[] = ['submit', 'result', 'stream', 'execute', 'options'];
  const items: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    items[pathOfSegments(endpoint, set.pathName, '{id}')] = {
      [methodOf(endpoint).toLowerCase()]: operation(endpoint, set, responseComponents),
    };
  }
  items[pathOfSegments('events', set.pathName, '{id}')] = {
    get: eventsOperation(set, responseComponents),
  };
  return items;
}

/** The operations of a registered task, with its schemas added to `schemas`. */
function taskOperations(task: AnyTaskDefinition, schemas: SchemaComponents): OperationSet {
  const object = { type: 'object' };
  return {
    pathName: task.name,
    idPrefix: `${task.name}.`,
    tag: task.name,
    task,
    params: addTaskSchema(task.params, `${task.name}.Params`, object, schemas),
    result:
      task.result === undefined
        ? schemaRef('JsonObject')
        : addTaskSchema(task.result, `${task.name}.Result`, object, schemas),
    events:
      task.events === undefined
        ? schemaRef('CustomEvent')
        : addTaskSchema(task.events, `${task.name}.Event`, schemaRef('CustomEvent'), schemas),
  };
}

/** What a task's tag says about it. */
function taskTagDescription(task: AnyTaskDefinition): string {
  const parts = [`The task \`${task.name}\`: its params, result and events.`];
  if (task.events !== undefined) {
    parts.push('Its custom events are declared for clients; the service does not check them.');
  }
  return parts.join(' ');
}

/** The shared parameters, headers and responses of the document. */
function sharedComponents(): Record<string, Record<string, unknown>> {
  return {
    parameters: {
      TaskName: {
        name: 'task',
        in: 'path',
        required: true,
        description: 'The task name; an unknown one is 404 `TASK_NOT_FOUND`.',
        schema: inlineSchema(taskNameSchema),
      },
      TaskId: {
        name: 'id',
        in: 'path',
        required: true,
        description: 'The task id, from Submit, Stream (`x-task-id`) or Execute.',
        schema: schemaRef('TaskId'),
      },
      Platform: {
        name: 'platform',
        in: 'header',
        required: false,
        description: 'The calling platform; a malformed value is 400 `INVALID_HEADER`.',
        schema: schemaRef('ClientLabel'),
      },
      Touchpoint: {
        name: 'x-touchpoint',
        in: 'header',
        required: false,
        description: 'The calling touchpoint; a malformed value is 400 `INVALID_HEADER`.',
        schema: schemaRef('ClientLabel'),
      },
      IdempotencyKey: {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'A malformed key is 400 `INVALID_HEADER`; the same key from the same user for the same ' +
          `task within ${IDEMPOTENCY_WINDOW} answers the first answer again.`,
        schema: schemaRef('IdempotencyKey'),
      },
      LastEventId: {
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        description:
          'The position of the last message the reader has; the read answers the messages after ' +
          'it. One that is no position of this service is 400 `INVALID_HEADER`.',
        schema: schemaRef('Position'),
      },
      Prefer: {
        name: 'Prefer',
        in: 'header',
        required: false,
        description: `\`${RESPOND_ASYNC}\` asks for the short start: 202 with the task's id instead of the stream.`,
        schema: { type: 'string' },
      },
    },
    headers: {
      Location: {
        description: "The path of the task's Get Result, below the service's base path.",
        required: true,
        schema: { type: 'string' },
      },
      TaskId: { description: 'The id of the task.', required: true, schema: schemaRef('TaskId') },
      RetryAfter: {
        description: 'Whole seconds to wait before the next request, at least 1.',
        schema: { type: 'integer', minimum: 1 },
      },
      PreferenceApplied: {
        description: `\`${RESPOND_ASYNC}\`: the short start was applied.`,
        required: true,
        schema: { type: 'string', const: RESPOND_ASYNC },
      },
    },
    responses: {
      MethodNotAllowed: {
        description:
          'A method the path does not take: `METHOD_NOT_ALLOWED`, with `Allow` naming the methods it takes.',
        headers: {
          Allow: {
            description: 'Such as `POST, OPTIONS`.',
            required: true,
            schema: { type: 'string' },
          },
        },
        content: json({
          allOf: [
            schemaRef('ErrorBody'),
            { properties: { statusCode: { const: 405 }, reason: { const: 'METHOD_NOT_ALLOWED' } } },
          ],
        }),
      },
      Preflight: {
        description:
          'A CORS preflight, which needs no token: `Access-Control-Allow-Origin`, ' +
          `\`Access-Control-Allow-Methods\`, \`Access-Control-Allow-Headers\` and \`Access-Control-Max-Age: ${PREFLIGHT_MAX_AGE_SECONDS}\`.`,
      },
    },
    securitySchemes: {
      userToken: {
        type: 'http',
        scheme: 'bearer',
        description: '`Authorization: Bearer <user token>`: who the user is.',
      },
      clientToken: {
        type: 'apiKey',
        in: 'header',
        name: 'x-app-authorization',
        description:
          '`x-app-authorization: Bearer <client token>` (with the word `Bearer`): which application calls.',
      },
    },
  };
}

/** The path item of the document itself, which needs no token. */
function documentPathItem(responseComponents: ResponseComponents): Record<string, unknown> {
  return {
    get: {
      operationId: 'openApiDocument',
      summary: 'This document',
      description: "The OpenAPI document of the service's own tasks; no token is needed.",
      tags: [SERVICE_TAG],
      security: [],
      responses: {
        '200': {
          description: 'The document.',
          content: json({ type: 'object', required: ['openapi', 'info', 'paths'] }),
        },
        ...errorResponses(['INTERNAL'], responseComponents),
      },
    },
  };
}

/**
 * The OpenAPI 3.1 document of the protocol (docs/protocol.md) for `tasks`: every endpoint for any
 * task, then each task's own paths (`/workflows/<task>/…`) with the JSON Schemas of its params,
 * result and events, generated from its zod schemas. A new object on every call; the reference
 * service answers the same at `GET /openapi.json`.
 *
 * @example
 * const document = createOpenApiDocument({ tasks: [myTask, ...demoTasks] });
 */
export function createOpenApiDocument(options: OpenApiDocumentOptions = {}): OpenApiDocument {
  const tasks = options.tasks ?? demoTasks;
  const schemas = protocolSchemas();
  const shared = sharedComponents();
  const responses = shared.responses as ResponseComponents;
  const paths: Record<string, Record<string, unknown>> = {
    '/openapi.json': documentPathItem(responses),
    ...pathItems(
      {
        pathName: '{task}',
        idPrefix: '',
        tag: ANY_TASK_TAG,
        task: undefined,
        params: schemaRef('JsonObject'),
        result: schemaRef('JsonObject'),
        events: schemaRef('CustomEvent'),
      },
      responses,
    ),
  };
  paths[FOLLOW_PATH] = followPathItem(responses);
  for (const task of tasks) {
    Object.assign(paths, pathItems(taskOperations(task, schemas), responses));
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'taskwire reference service',
      version: DOCUMENT_VERSION,
      description: DESCRIPTION,
    },
    servers: [
      {
        url: '.',
        description:
          "The service's base URL: where this document is served, without `/openapi.json`.",
      },
    ],
    security: [{ userToken: [], clientToken: [] }],
    tags: [
      { name: ANY_TASK_TAG, description: 'Every endpoint, for any task name.' },
      { name: SERVICE_TAG, description: 'The service itself.' },
      ...tasks.map((task) => ({ name: task.name, description: taskTagDescription(task) })),
    ],
    paths,
    components: { schemas, ...shared },
  };
}
