/**
 * A service that breaks one rule of the interface document: its stream's `task.completed` carries
 * no `usage` although Get Result has it (docs/protocol.md, "Streams"). The reference service's own
 * stream passes through, line by line, with only that field taken out of that one event.
 */
import type { FetchService } from '../../src/testing/fetch-service.js';

/** The `data:` line without `usage` when it is `task.completed`'s, else the line as it came. */
function dropCompletedUsage(line: string): string {
  if (!line.startsWith('data:')) return line;
  const data = JSON.parse(line.slice('data:'.length)) as { type?: unknown; usage?: unknown };
  if (data.type !== 'task.completed') return line;
  delete data.usage;
  return `data: ${JSON.stringify(data)}`;
}

/** `response`'s event stream with `task.completed`'s `usage` taken out; other answers untouched. */
function withoutCompletedUsage(response: Response): Response {
  const type = response.headers.get('content-type') ?? '';
  if (response.body === null || !type.startsWith('text/event-stream')) return response;
  let rest = '';
  const lines = new TransformStream<string, string>({
    transform(chunk, controller) {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      for (const part of parts) controller.enqueue(`${dropCompletedUsage(part)}\n`);
    },
    flush(controller) {
      if (rest !== '') controller.enqueue(dropCompletedUsage(rest));
    },
  });
  const body = response
    .body!.pipeThrough(new TextDecoderStream())
    .pipeThrough(lines)
    .pipeThrough(new TextEncoderStream());
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(body, { status: response.status, headers });
}

/** `service` with the `usage` of every stream's `task.completed` taken out. */
export function withoutStreamUsage(service: FetchService): FetchService {
  return { fetch: async (request) => withoutCompletedUsage(await service.fetch(request)) };
}
