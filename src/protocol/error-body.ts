/**
 * The body of every error answer (docs/protocol.md, "Error bodies"). Apart from the record schemas,
 * so that it loads with the client's reading of error answers, not with every client.
 */
import * as z from 'zod/mini';
import { failureSchema, taskIdSchema } from './records.js';

/**
 * The body of a non-2xx answer (docs/protocol.md, "Error bodies"); `taskId` is set on
 * `EXECUTE_TIMEOUT`.
 */
export const errorBodySchema = z.extend(failureSchema, { taskId: z.optional(taskIdSchema) });
/** The body of an error answer. */
export type ErrorBody = z.infer<typeof errorBodySchema>;
