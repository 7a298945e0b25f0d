/**
 * Checks a task record that did not come from this tab's own client (another tab's message), as
 * the client checks a Get Result answer (docs/protocol.md, "Records"): the record's shape, its id,
 * and its result against the task's own result schema in the client's task map (a failure's shape
 * when FAILED). What fails is not used.
 */
import * as z from 'zod/mini';
import { schemaOfTask } from '../client/call-checks.js';
import {
  failureSchema,
  jsonObjectSchema,
  taskRecordSchema,
  type TaskRecord,
} from '../protocol/records.js';
import type { TaskSchemas } from '../protocol/task-schemas.js';

/** The part of a task client a shared poll needs: its scope and its task map. */
export interface SharedPollClient {
  /** The client's scope (`client.scope`), which keeps one user's tabs apart from another's. */
  readonly scope: string;
  /** The client's task map, whose result schemas a record from another tab must pass. */
  readonly tasks?: TaskSchemas | undefined;
}

/** Checks `data` as a record of task `id` of `task`; the record, or `undefined` when it fails. */
export type CheckSharedRecord<Record> = (data: unknown) => Record | undefined;

/** The check of records of task `id` of `task`, by the schemas of `client`'s task map. */
export function sharedRecordCheck<Record extends TaskRecord<unknown>>(
  client: SharedPollClient,
  task: string,
  id: string,
): CheckSharedRecord<Record> {
  const resultSchema = schemaOfTask(client.tasks, task)?.result ?? jsonObjectSchema;
  return (data) => {
    const parsed = taskRecordSchema.safeParse(data);
    if (!parsed.success || parsed.data.id !== id) return undefined;
    const record = parsed.data;
    const result =
      record.status === 'FAILED'
        ? failureSchema.safeParse(record.result)
        : record.result === null
          ? { success: true as const, data: null }
          : z.safeParse(resultSchema, record.result);
    if (!result.success) return undefined;
    return { ...record, result: result.data } as Record;
  };
}
