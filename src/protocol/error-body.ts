/** The body of every error answer (docs/protocol.md, "Error bodies"): its schema and its type. */
import * as z from 'zod/mini';
import { failureSchema, taskIdSchema } from './records.js';

/**
 * The body of a non-2xx answer (docs/protocol.md, "Error bodies"); `taskId` is set on
 * `EXECUTE_TIMEOUT`.
 */
export const errorBodySchema = z.extend(failureSchema, { taskId: z.optional(taskIdSchema) });
/** The body of an error answer: a task failure's fields, with the task's id on `EXECUTE_TIMEOUT`. */
export type ErrorBody = {
  /** Always `'error'`. */
  status: 'error';
  /** The answer's HTTP status. */
  statusCode: number;
  /** What went wrong, for programs (docs/protocol.md, "Error bodies"). */
  reason: string;
  /** What went wrong, for people. */
  message: string;
  /** The task that went on past Execute's limit (`EXECUTE_TIMEOUT` only). */
  taskId?: string | undefined;
};
