/**
 * Request builders for the reference service tests: they only assemble Web `Request`s and read
 * answers; every behaviour under test happens inside the real service. Streams are read with
 * eventsource-parser, an SSE parser independent of taskwire's own client.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ReferenceService } from '../../src/reference/index.js';
import { AUTH } from '../support/demo-auth.js';

export { AUTH, OTHER_AUTH } from '../support/demo-auth.js';

/** A base URL for in-process requests; nothing listens there. */
export const BASE = 'http://reference.test';

/** A POST with a JSON body (or a raw string/stream when `rawBody` is given). */
export function postRequest(
  path: string,
  body: unknown,
  headers: Record<string, string> = AUTH,
): Request {
  return new Request(`${BASE}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Sends a POST with a JSON body to the service. */
export function post(
  service: ReferenceService,
  path: string,
  body: unknown,
  headers: Record<string, string> = AUTH,
): Promise<Response> {
  return service.fetch(postRequest(path, body, headers));
}

/** Sends a GET to the service. */
export function get(
  service: ReferenceService,
  path: string,
  headers: Record<string, string> = AUTH,
): Promise<Response> {
  return service.fetch(new Request(`${BASE}${path}`, { headers }));
}

/** Submits a task and returns its id. */
export async function submit(
  service: ReferenceService,
  task: string,
  params: unknown,
  headers: Record<string, string> = AUTH,
): Promise<string> {
  const response = await post(service, `/workflows/${task}/submit`, { params }, headers);
  if (response.status !== 202) throw new Error(`submit answered ${response.status}`);
  const body = (await response.json()) as { response: { id: string } };
  return body.response.id;
}

/** A task record as Get Result answers it. */
export interface RecordBody {
  id: string;
  status: string;
  result: unknown;
  progress: { percent: number; estimatedSecondsLeft: number };
  events: Array<{ type: string; id: string }>;
  usage?: {
    credits: number;
    details: Array<{
      toolId: string;
      price: number;
      amount: number;
      credits: number;
      failed: boolean;
    }>;
  };
}

/** Reads a task's record with Get Result. */
export async function readRecord(
  service: ReferenceService,
  task: string,
  id: string,
): Promise<RecordBody> {
  const response = await get(service, `/workflows/${task}/${id}/result`);
  if (response.status !== 200) throw new Error(`get result answered ${response.status}`);
  return ((await response.json()) as { response: RecordBody }).response;
}

/** Polls Get Result every few milliseconds until the task is COMPLETED or FAILED. */
export async function waitForEnd(
  service: ReferenceService,
  task: string,
  id: string,
): Promise<RecordBody> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const record = await readRecord(service, task, id);
    if (record.status === 'COMPLETED' || record.status === 'FAILED') return record;
    if (Date.now() > deadline) throw new Error(`task ${id} did not end: ${record.status}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Submits a task and returns its final record, once it is COMPLETED or FAILED. */
export async function runToEnd(
  service: ReferenceService,
  task: string,
  params: unknown,
): Promise<RecordBody> {
  return waitForEnd(service, task, await submit(service, task, params));
}

/** What an SSE body held: its messages and its comments, in order. */
export interface ReadStream {
  messages: EventSourceMessage[];
  comments: string[];
  /** The raw text, for format checks. */
  text: string;
}

/** Reads an SSE body to its end with eventsource-parser. */
export async function readStream(response: Response): Promise<ReadStream> {
  const messages: EventSourceMessage[] = [];
  const comments: string[] = [];
  const parser = createParser({
    onEvent: (message) => messages.push(message),
    onComment: (comment) => comments.push(comment),
  });
  const decoder = new TextDecoder();
  let text = '';
  if (response.body === null) throw new Error('no body');
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const part = decoder.decode(value, { stream: true });
    text += part;
    parser.feed(part);
  }
  return { messages, comments, text };
}

/** The JSON data of every message of a read stream. */
export function eventsOf(stream: ReadStream): Array<Record<string, unknown> & { type: string }> {
  return stream.messages.map(
    (message) => JSON.parse(message.data) as Record<string, unknown> & { type: string },
  );
}
