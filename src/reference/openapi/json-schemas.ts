/**
 * The JSON Schemas of the OpenAPI document, generated from zod schemas with zod 4's own JSON Schema
 * output (draft 2020-12), never written a second time by hand: the shared records of src/protocol
 * as components that refer to each other, and each task's params, result and events.
 *
 * Every schema is generated with `io: 'input'`: the document describes the wire, and what travels is
 * what the schemas accept, not what parsing makes of it. A client parses records with these schemas
 * and drops unknown fields (docs/protocol.md, "Records"), and the service sends a task's result as
 * the task returned it, once it passed the result schema; so objects are open
 * (`additionalProperties` left out), and params with a default are optional.
 */
import * as z from 'zod/mini';
import { errorBodySchema } from '../../protocol/error-body.js';
import {
  followMessageSchema,
  followRequestSchema,
  positionSchema,
} from '../../protocol/follow-schemas.js';
import { clientLabelSchema, idempotencyKeySchema } from '../../protocol/headers.js';
import { EVENT_ACTION_PATTERN } from '../../protocol/names.js';
import { REFUSED_LINK_SCHEMES } from '../../protocol/links.js';
import { notificationRequestSchema } from '../../protocol/notification.js';
import {
  envelopeSchema,
  eventReferenceSchema,
  failureSchema,
  jsonObjectSchema,
  progressSchema,
  taskIdSchema,
  taskRecordSchema,
  taskStatusSchema,
} from '../../protocol/records.js';
import {
  executeRecordSchema,
  optionsResultSchema,
  submitAnswerSchema,
} from '../../protocol/start-answers.js';
import { knownStreamEventSchemas } from '../../protocol/stream-event-schemas.js';
import { CREDITS_TOLERANCE, usageDetailSchema, usageSchema } from '../../protocol/usage.js';
import { ERROR_REASON_STATUSES, type ErrorReason } from '../service-error.js';

/** A JSON Schema (draft 2020-12), as a plain object. */
export type JsonSchema = Record<string, unknown>;

/** The JSON Schemas of a document's `components.schemas`, by component name. */
export type SchemaComponents = Record<string, JsonSchema>;

/** The `$ref` of the component schema `name`. */
export function schemaRef(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** The options of every conversion: the dialect of OpenAPI 3.1, and the wire's side of a schema. */
const CONVERSION = { target: 'draft-2020-12', io: 'input' } as const;

/**
 * Every reason an error answer can carry: those of `ERROR_REASON_STATUSES` answered with a status
 * (`TASK_ERROR` is only ever a failed task's reason).
 */
export const ANSWERED_REASONS = (Object.keys(ERROR_REASON_STATUSES) as ErrorReason[]).filter(
  (reason) => ERROR_REASON_STATUSES[reason].length > 0,
);

/** `items` as English lists them: `a, b, and c`. */
function listOf(items: readonly string[]): string {
  return new Intl.ListFormat('en', { type: 'conjunction' }).format(items);
}

/** A reason as the document names it with its status: 404 `RESULT_NOT_FOUND`. */
function answeredAs(reason: ErrorReason): string {
  return `${ERROR_REASON_STATUSES[reason].join(' or ')} \`${reason}\``;
}

/** The reasons a task of the multiplexed read may end with (docs/protocol.md, "Resumable streams (0.4)"). */
const FOLLOWED_TASK_REASONS: readonly ErrorReason[] = [
  'RESULT_NOT_FOUND',
  'EVENTS_EXPIRED',
  'EVENTS_UNAVAILABLE',
];

/** The schemas of src/protocol, by component name; a schema used inside another becomes a `$ref`. */
const PROTOCOL_SCHEMAS: ReadonlyArray<readonly [string, z.core.$ZodType]> = [
  ['TaskId', taskIdSchema],
  ['TaskStatus', taskStatusSchema],
  ['JsonObject', jsonObjectSchema],
  ['Progress', progressSchema],
  ['EventReference', eventReferenceSchema],
  ['UsageDetail', usageDetailSchema],
  ['Usage', usageSchema],
  ['Failure', failureSchema],
  ['TaskRecord', taskRecordSchema],
  ['Envelope', envelopeSchema(z.unknown())],
  ['SubmitAnswer', submitAnswerSchema],
  ['ExecuteRecord', executeRecordSchema],
  ['OptionsResult', optionsResultSchema],
  ['ErrorBody', errorBodySchema],
  ['NotificationRequest', notificationRequestSchema],
  ['ProgressEvent', knownStreamEventSchemas['task.progress']],
  ['PartialResultEvent', knownStreamEventSchemas['task.partial-result']],
  ['CompletedEvent', knownStreamEventSchemas['task.completed']],
  ['FailedEvent', knownStreamEventSchemas['task.failed']],
  ['Position', positionSchema],
  ['FollowRequest', followRequestSchema],
  ['FollowMessage', followMessageSchema],
  ['ClientLabel', clientLabelSchema],
  ['IdempotencyKey', idempotencyKeySchema],
];

/** What the zod schemas say only in code (refinements, the wire's rules around them). */
const PROTOCOL_DESCRIPTIONS: Readonly<Record<string, string>> = {
  TaskId:
    'A task id: opaque, made by the service; never `.` or `..`, which a URL parser reads as path steps.',
  JsonObject: 'Any JSON object: its members belong to the task.',
  Usage:
    'Credits charged for a task and their per-tool breakdown. Beyond this schema: each entry has ' +
    '`credits = price × amount` (a failed entry may carry 0), and `credits` is the sum of `credits` ' +
    `over the entries that did not fail, within a relative tolerance of ${CREDITS_TOLERANCE.toExponential()}. A total that ` +
    'disagrees with its entries is a protocol error (docs/protocol.md, "Usage and credits").',
  UsageDetail: 'One tool of a usage record; an entry with `failed: true` was not charged.',
  Failure:
    "A failed task's `result`: `reason` is `TASK_ERROR` or the task's own, and `statusCode` 500 " +
    'unless the task gave another from 400 to 599.',
  TaskRecord:
    'A task as Get Result answers it. `result` is null until there is one, the latest partial ' +
    'result while the task runs, the final result (or null) once COMPLETED, and a `Failure` once ' +
    'FAILED. Unknown fields may be added by a newer service and are ignored.',
  Envelope: 'Every successful JSON answer: `response` is the record of the endpoint.',
  ExecuteRecord: 'The outcome of Execute; a FAILED task carries its `Failure` in `result`.',
  OptionsResult:
    'What a run would cost. `{}` means that no monetization is configured, not that the task is free.',
  ErrorBody:
    'The body of every answer that is not 2xx; `statusCode` repeats the HTTP status, and `taskId` ' +
    'is set on `EXECUTE_TIMEOUT`. A client must accept a reason it does not know.',
  NotificationRequest:
    'A completion notification (Submit only). Beyond this schema: every action needs a `deeplink` ' +
    'or a `mobileDeeplink`; a `deeplink` must be `https:`, a `mobileDeeplink` `https:` or an app ' +
    `scheme; ${listOf(REFUSED_LINK_SCHEMES.map((scheme) => `\`${scheme}\``))} are refused (422 ` +
    '`INVALID_NOTIFICATION`).',
  Position:
    'A message\'s position in its task\'s log (docs/protocol.md, "Resumable streams (0.4)"): ' +
    'opaque, ordered as strings among the positions of one task; sent back as `Last-Event-ID`.',
  FollowRequest:
    'The body of the multiplexed read: the tasks to follow, each once (else 422 ' +
    '`INVALID_FOLLOW`), with the position the page has of each, or null for all its messages.',
  ClientLabel: 'A `platform` or `x-touchpoint` value (docs/protocol.md, "Headers and tokens").',
  IdempotencyKey:
    'An `Idempotency-Key` (docs/protocol.md, "Idempotency"): a key of the caller\'s, visible ASCII.',
  FollowMessage:
    "One message of the multiplexed read: a task's stream message at its position, or, for a " +
    `task that cannot be read, its error (${listOf(FOLLOWED_TASK_REASONS.map(answeredAs))}), after ` +
    'which that task sends nothing more.',
};

/** The schema of a custom `event.<action>` event: `type` is fixed, every other field the task's. */
function customEventSchema(): JsonSchema {
  return {
    type: 'object',
    description:
      "A custom event; every field but `type` is the task's. Its SSE message has an `id:` line, " +
      'the id Get Result lists for it.',
    properties: {
      type: { type: 'string', pattern: `^event\\.${EVENT_ACTION_PATTERN.source.slice(1)}` },
    },
    required: ['type'],
  };
}

/** The JSON Schema of a zod schema of src/protocol, to be written inline (a parameter's, say). */
export function inlineSchema(schema: z.core.$ZodType): JsonSchema {
  return embeddable(z.toJSONSchema(schema, CONVERSION) as JsonSchema);
}

/** Removes the keywords that only a schema document's root may carry. */
function embeddable(schema: JsonSchema): JsonSchema {
  const rest = { ...schema };
  delete rest.$schema;
  delete rest.$id;
  return rest;
}

/**
 * The component schemas generated from src/protocol: the records, the answers, the error body
 * (its `reason` an enum of the service's reasons), the notification and the stream events.
 */
export function protocolSchemas(): SchemaComponents {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of PROTOCOL_SCHEMAS) registry.add(schema, { id });
  const generated = z.toJSONSchema(registry, {
    ...CONVERSION,
    uri: (id) => `#/components/schemas/${id}`,
  }).schemas as SchemaComponents;
  const schemas: SchemaComponents = {};
  for (const [name, schema] of Object.entries(generated)) {
    const description = PROTOCOL_DESCRIPTIONS[name];
    schemas[name] =
      description === undefined ? embeddable(schema) : { description, ...embeddable(schema) };
  }
  const errorBody = schemas.ErrorBody as { properties: Record<string, JsonSchema> };
  errorBody.properties.reason = {
    type: 'string',
    enum: ANSWERED_REASONS,
    description: 'Why the request was refused (docs/protocol.md, "Error bodies").',
  };
  schemas.CustomEvent = customEventSchema();
  return schemas;
}

/** Whether `value` is a plain object (not null, not an array). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A component name made of the characters OpenAPI allows (`^[a-zA-Z0-9._-]+$`). */
function componentName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_');
}

/**
 * `schema`, a schema document of its own, made into the component `name`: its `$defs` become
 * components named `<name>.<def>`, and its `$ref`s (to its root, or to its `$defs`) point at them.
 */
function asComponent(schema: JsonSchema, name: string, components: SchemaComponents): JsonSchema {
  const target = (ref: string): string => {
    if (ref === '#') return `#/components/schemas/${name}`;
    const definition = /^#\/\$defs\/(.+)$/.exec(ref)?.[1];
    return definition === undefined
      ? ref
      : `#/components/schemas/${componentName(`${name}.${definition}`)}`;
  };
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!isObject(value)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => [
        key,
        key === '$ref' && typeof member === 'string' ? target(member) : rewrite(member),
      ]),
    );
  };
  const { $defs, ...root } = embeddable(schema);
  if (isObject($defs)) {
    for (const [definition, value] of Object.entries($defs)) {
      components[componentName(`${name}.${definition}`)] = rewrite(value) as JsonSchema;
    }
  }
  return rewrite(root) as JsonSchema;
}

/**
 * Adds the JSON Schema of a task's zod `schema` to `components` as `name` and returns its `$ref`. A
 * schema that JSON Schema cannot represent (a transform, a date, a bigint…) is generated with those
 * parts open (`{}`) and says so in its `description`; one that cannot be generated at all accepts
 * `fallback` and says why. Refinements are never shown: the service still checks them.
 */
export function addTaskSchema(
  schema: z.core.$ZodType,
  name: string,
  fallback: JsonSchema,
  components: SchemaComponents,
): JsonSchema {
  let generated: JsonSchema;
  try {
    generated = z.toJSONSchema(schema, CONVERSION) as JsonSchema;
  } catch (error) {
    const why = error instanceof Error ? error.message : 'it cannot be represented';
    try {
      generated = z.toJSONSchema(schema, { ...CONVERSION, unrepresentable: 'any' }) as JsonSchema;
      generated.description = joinSentences(
        generated.description,
        `Parts of the task's zod schema have no JSON Schema (${why}); they accept any value here, and the service still checks them.`,
      );
    } catch {
      generated = {
        ...fallback,
        description: `The task's zod schema has no JSON Schema (${why}); the service still checks it.`,
      };
    }
  }
  components[name] = asComponent(generated, name, components);
  return schemaRef(name);
}

function joinSentences(first: unknown, second: string): string {
  return typeof first === 'string' && first !== '' ? `${first} ${second}` : second;
}
