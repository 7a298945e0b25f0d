/**
 * The record and event types are written out (so the API reference shows their fields, not
 * `z.infer<typeof …Schema>` of a schema it does not export), and held here to the schemas that check
 * every answer: each written type equals what its schema parses to. Checked by `tsc` (tsconfig
 * includes test/).
 */
import { expectTypeOf } from 'vitest';
import type * as z from 'zod/mini';
import type { ErrorBody } from '../../src/protocol/error-body.js';
import type {
  eventReferenceSchema,
  failureSchema,
  EventReference,
  JsonObject,
  jsonObjectSchema,
  Progress,
  progressSchema,
  TaskFailure,
  TaskRecord,
  taskRecordSchema,
  TaskStatus,
  taskStatusSchema,
} from '../../src/protocol/records.js';
import type { errorBodySchema } from '../../src/protocol/error-body.js';
import type {
  ExecuteRecord,
  executeRecordSchema,
  OptionsResult,
  optionsResultSchema,
  SubmitAnswer,
  submitAnswerSchema,
} from '../../src/protocol/start-answers.js';
import type { FailedEvent, ProgressEvent } from '../../src/protocol/stream-events.js';
import type {
  failedEventSchema,
  progressEventSchema,
} from '../../src/protocol/stream-event-schemas.js';
import type {
  Usage,
  UsageDetail,
  usageDetailSchema,
  usageShapeSchema,
} from '../../src/protocol/usage.js';

expectTypeOf<z.infer<typeof taskStatusSchema>>().toEqualTypeOf<TaskStatus>();
expectTypeOf<z.infer<typeof jsonObjectSchema>>().toEqualTypeOf<JsonObject>();
expectTypeOf<z.infer<typeof progressSchema>>().toEqualTypeOf<Progress>();
expectTypeOf<z.infer<typeof eventReferenceSchema>>().toEqualTypeOf<EventReference>();
expectTypeOf<z.infer<typeof failureSchema>>().toEqualTypeOf<TaskFailure>();
expectTypeOf<z.infer<typeof errorBodySchema>>().toEqualTypeOf<ErrorBody>();
expectTypeOf<z.infer<typeof usageDetailSchema>>().toEqualTypeOf<UsageDetail>();
expectTypeOf<z.infer<typeof usageShapeSchema>>().toEqualTypeOf<Usage>();
expectTypeOf<z.infer<typeof submitAnswerSchema>>().toEqualTypeOf<SubmitAnswer>();
expectTypeOf<z.infer<typeof optionsResultSchema>>().toEqualTypeOf<OptionsResult>();
expectTypeOf<z.infer<typeof progressEventSchema>>().toEqualTypeOf<ProgressEvent>();
expectTypeOf<z.infer<typeof failedEventSchema>>().toEqualTypeOf<FailedEvent>();

// The records are unions on status; their other fields are the schema's.
type Parsed = z.infer<typeof taskRecordSchema>;
expectTypeOf<Omit<TaskRecord, 'status' | 'result'>>().toEqualTypeOf<
  Omit<Parsed, 'status' | 'result'>
>();
expectTypeOf<TaskRecord['status']>().toEqualTypeOf<Parsed['status']>();
type ParsedExecute = z.infer<typeof executeRecordSchema>;
expectTypeOf<Omit<ExecuteRecord, 'status' | 'result'>>().toEqualTypeOf<
  Omit<ParsedExecute, 'status' | 'result'>
>();
expectTypeOf<ExecuteRecord['status']>().toEqualTypeOf<ParsedExecute['status']>();
