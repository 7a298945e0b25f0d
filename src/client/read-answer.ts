/**
 * Reading an answer's body: at most so many bytes while it arrives, a 2xx JSON answer checked
 * against its schema, and a non-2xx answer turned into its `TaskwireError` (docs/protocol.md,
 * "Error bodies").
 */
import * as z from 'zod/mini';
import { errorBodySchema, type ErrorBody } from '../protocol/error-body.js';
import { parseRetryAfter } from '../protocol/retry-after.js';
import { readCappedBody } from '../protocol/read-limited-body.js';
import { describeIssues } from '../protocol/describe-issues.js';
import { failureSchema, jsonObjectSchema, type TaskStatus } from '../protocol/records.js';
import { TaskwireError } from './errors.js';
import { abortedError } from './abort.js';
import { protocolError } from './error-factories.js';

/** The most of an error body kept in `TaskwireError.body`: 64 KiB, enough for any proxy's page. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** An answer, and the request it answers as messages name it: `GET https://…/result`. */
export interface Sent {
  response: Response;
  /** The method and the URL (origin and path, never the query), for messages. */
  where: string;
}

/** Drops an answer's body so its connection can be reused or closed. */
export async function discardBody(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Nothing to release.
  }
}

/**
 * Reads at most `limit` bytes of a body as text, while it arrives: a larger body is cancelled there,
 * never read whole, and `cut` is true. An abort or a connection that breaks mid-body become typed
 * errors.
 */
async function readCapped(
  response: Response,
  limit: number,
  signal: AbortSignal,
  taskId: string | undefined,
): Promise<{ text: string; cut: boolean }> {
  try {
    const { bytes, cut } = await readCappedBody(response.body, limit, signal);
    return { text: new TextDecoder().decode(bytes), cut };
  } catch (error) {
    if (signal.aborted) throw abortedError(signal, taskId);
    throw new TaskwireError('network', 'The connection broke while the answer was being read.', {
      taskId,
      cause: error,
    });
  }
}

/**
 * Why an answer is not the service's, for messages: which request it answered, and what to check
 * (docs/protocol.md, "Error bodies").
 */
function notTheService(where: string): string {
  return `${where} did not answer as a taskwire service does: the baseUrl may be wrong, or something in between (a proxy, a dev server) answered.`;
}

/**
 * The error for a non-2xx answer: `http` with status, reason and body (the parsed error body, or the
 * raw text when it is not one, such as a proxy's HTML page, cut at 64 KiB and marked so), or
 * `timeout` for `EXECUTE_TIMEOUT`. An answer that is not the error body, a wrong base URL's 404 say,
 * has the reason `NOT_A_TASKWIRE_ANSWER` and a message that names the URL that answered.
 */
export async function errorFromResponse(
  { response, where }: Sent,
  signal: AbortSignal,
  taskId?: string,
): Promise<TaskwireError> {
  const { text, cut } = await readCapped(response, MAX_ERROR_BODY_BYTES, signal, taskId);
  let body: ErrorBody | undefined;
  try {
    if (!cut) body = errorBodySchema.safeParse(JSON.parse(text)).data;
  } catch {
    // Not JSON: the text itself is the body.
  }
  const { status } = response;
  const type = response.headers.get('content-type') ?? 'no content type';
  const message = body
    ? `The service answered ${status} ${body.reason}: ${body.message}`
    : `The answer was ${status}${response.statusText ? ` ${response.statusText}` : ''} (${type}). ${notTheService(where)}`;
  return new TaskwireError(body?.reason === 'EXECUTE_TIMEOUT' ? 'timeout' : 'http', message, {
    status,
    body:
      body ??
      (cut ? `${text}\n[cut: the body was larger than ${MAX_ERROR_BODY_BYTES} bytes]` : text),
    reason: body?.reason ?? 'NOT_A_TASKWIRE_ANSWER',
    taskId: body?.taskId ?? taskId,
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
  });
}

/** How to read one JSON answer. */
interface ReadOptions {
  signal: AbortSignal;
  /** Which answer this is, for messages: "The answer to Get Result 'echo'". */
  what: string;
  /** The largest answer read, in bytes. */
  maxBytes: number;
  /** The task the answer concerns, when known. */
  taskId?: string | undefined;
}

/**
 * Reads a 2xx JSON answer and validates its envelope and response, resolving to the response.
 * A non-2xx answer rejects with {@link errorFromResponse}; one larger than `maxBytes` is refused as
 * `protocol` while it is read.
 */
export async function readEnvelope<Schema extends z.ZodMiniType>(
  sent: Sent,
  schema: Schema,
  { signal, what, maxBytes, taskId }: ReadOptions,
): Promise<z.infer<Schema>> {
  const { response } = sent;
  if (!response.ok) throw await errorFromResponse(sent, signal, taskId);
  const { text, cut } = await readCapped(response, maxBytes, signal, taskId);
  if (cut) throw protocolError(what, `the answer is larger than ${maxBytes} bytes.`, taskId);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const type = response.headers.get('content-type') ?? 'no content type';
    throw notTaskwireAnswer(what, `the answer is not JSON (${type}).`, sent.where, taskId, error);
  }
  const parsed = z.safeParse(schema, json);
  if (!parsed.success) throw protocolError(what, describeIssues(parsed.error.issues), taskId);
  return parsed.data;
}

/**
 * The `protocol` error of a 2xx answer that is not the service's at all (HTML from a single-page
 * app's fallback route, say): reason `NOT_A_TASKWIRE_ANSWER`, naming the URL that answered.
 */
export function notTaskwireAnswer(
  what: string,
  problem: string,
  where: string,
  taskId?: string,
  cause?: unknown,
): TaskwireError {
  return new TaskwireError(
    'protocol',
    `${what} breaks the contract: ${problem} ${notTheService(where)}`,
    {
      reason: 'NOT_A_TASKWIRE_ANSWER',
      taskId,
      cause,
    },
  );
}

/**
 * The `protocol` error of an answer whose `x-task-id` is no task id (docs/protocol.md, "Paths and
 * names"): the client could not read that task again.
 */
export function badTaskIdHeader(what: string): TaskwireError {
  return protocolError(what, 'its x-task-id header is not a task id.');
}

/** Where a result sits in an answer, for naming a bad field of it. */
const RESULT_PATH = ['response', 'result'];

/**
 * Checks a record's result against the contract: the failure object when FAILED, else null or a
 * JSON object (`schema`, the task's result schema, when the client has one).
 */
export function checkResult(
  schema: z.core.$ZodType | undefined,
  status: TaskStatus,
  result: unknown,
  what: string,
  taskId: string,
): unknown {
  const parsed =
    status === 'FAILED'
      ? failureSchema.safeParse(result)
      : result === null
        ? { success: true as const, data: null }
        : z.safeParse(schema ?? jsonObjectSchema, result);
  if (!parsed.success)
    throw protocolError(what, describeIssues(parsed.error.issues, RESULT_PATH), taskId);
  return parsed.data;
}
