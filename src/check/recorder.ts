/**
 * Every request a check run sends goes through one recording `fetch`: it adds the `Origin` a
 * browser on the app's page would send, keeps what was sent and what came back (status and
 * headers; bodies are read by the checks), counts the tasks the service started, and refuses to
 * start more than 20. A failure's `curl` command is written from what it kept.
 */
import { matchRoute } from '../protocol/match-route.js';
import { readText } from './read-text.js';
import { redact, type Secret } from './shown-text.js';

/** A request as it was sent. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Array<[name: string, value: string]>;
  body?: string;
}

/** One request and what came of it. */
export interface Exchange {
  request: RecordedRequest;
  /** The answer's status, once it came. */
  status?: number;
  /** The answer's headers, once they came. */
  headers?: Headers;
}

/** The most tasks one run may start, whatever a broken service answers. */
export const MAX_TASKS = 20;

/** What a {@link Recorder} adds to every request, and where the service is. */
export interface RecorderOptions {
  /** The `Origin` a browser on the app's page would send. */
  origin: string;
  /** Headers given for every request but a preflight. */
  headers?: ReadonlyArray<[name: string, value: string]>;
  /** The service's base URL. */
  baseUrl: string;
}

/** Records the requests of one run. */
export class Recorder {
  readonly exchanges: Exchange[] = [];
  /** The ids of the tasks the service started for this run (or a stand-in when it sent none). */
  readonly startedTasks = new Set<string>();
  readonly #send: (request: Request) => Promise<Response>;
  readonly #origin: string;
  readonly #headers: ReadonlyArray<[name: string, value: string]>;
  readonly #basePath: string;

  /**
   * `headers` go on every request but the CORS preflights, which a browser sends without them;
   * `baseUrl` is the service's, below which the endpoints that start a task are found.
   */
  constructor(
    send: (request: Request) => Promise<Response>,
    { origin, headers = [], baseUrl }: RecorderOptions,
  ) {
    this.#send = send;
    this.#origin = origin;
    this.#headers = headers;
    this.#basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  }

  /** The recording `fetch`. */
  readonly fetch = async (incoming: Request): Promise<Response> => {
    const { response, error } = await this.record(incoming);
    if (response === undefined) throw error;
    return response;
  };

  /**
   * Sends `incoming` and resolves to its exchange and answer, or to its exchange and the error
   * when no answer came; rejects only past the task budget.
   */
  async record(
    incoming: Request,
  ): Promise<{ exchange: Exchange; response?: Response; error?: unknown }> {
    const headers = new Headers(incoming.headers);
    if (!headers.has('origin')) headers.set('origin', this.#origin);
    if (incoming.method !== 'OPTIONS')
      for (const [name, value] of this.#headers) headers.set(name, value);
    const body =
      incoming.method === 'GET' || incoming.method === 'HEAD' || incoming.body === null
        ? undefined
        : await incoming.clone().text();
    const request = new Request(incoming.url, {
      method: incoming.method,
      headers,
      body,
      signal: incoming.signal,
      redirect: 'manual',
    });
    const route = matchRoute(new URL(request.url).pathname, this.#basePath);
    // Submit, Stream and Execute start a task (docs/protocol.md, "Paths and names").
    const startsTask =
      request.method === 'POST' &&
      route !== undefined &&
      route.endpoint !== 'options' &&
      route.endpoint !== 'result';
    if (startsTask && this.startedTasks.size >= MAX_TASKS) {
      throw new Error(`taskwire-check starts at most ${MAX_TASKS} tasks.`);
    }
    const exchange: Exchange = {
      request: { method: request.method, url: request.url, headers: [...headers], body },
    };
    this.exchanges.push(exchange);
    try {
      const response = await this.#send(request);
      exchange.status = response.status;
      exchange.headers = response.headers;
      if (startsTask && response.ok) await this.#noteStartedTask(response);
      return { exchange, response };
    } catch (error) {
      return { exchange, error };
    }
  }

  /** The latest exchange whose request matches `method` and ends with `pathEnd`. */
  latest(method: string, pathEnd: string): Exchange | undefined {
    for (let index = this.exchanges.length - 1; index >= 0; index -= 1) {
      const exchange = this.exchanges[index]!;
      if (
        exchange.request.method === method &&
        new URL(exchange.request.url).pathname.endsWith(pathEnd)
      )
        return exchange;
    }
    return undefined;
  }

  async #noteStartedTask(response: Response): Promise<void> {
    let id = response.headers.get('x-task-id') ?? undefined;
    const type = response.headers.get('content-type') ?? '';
    if (id === undefined && type.includes('json')) {
      try {
        // Read as every answer is, at most 1 MiB: the clone would otherwise hold all of a body
        // that never ends.
        const { text, tooLarge } = await readText(response.clone());
        const body = tooLarge ? {} : (JSON.parse(text) as { response?: { id?: unknown } });
        if (typeof body.response?.id === 'string') id = body.response.id;
      } catch {
        // Not JSON after all: the task is counted under a stand-in below.
      }
    }
    this.startedTasks.add(id ?? `unnamed task ${this.exchanges.length}`);
  }
}

function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** One shell word for `text`, in which the secrets' variables are left for the shell to expand. */
function shellWord(text: string): string {
  const parts = text.split(/(\$TASKWIRE_[A-Z0-9_]+)/);
  if (parts.length === 1) return singleQuoted(text);
  const literal = parts.filter((_, index) => index % 2 === 0).join('');
  if (!/["\\$`]/.test(literal)) return `"${text}"`;
  return parts
    .map((part, index) => (index % 2 === 1 ? `"${part}"` : part === '' ? '' : singleQuoted(part)))
    .join('');
}

/**
 * A `curl` command that sends `request` again, with its secrets (tokens, headers given) written as
 * shell variables, so the command can be pasted into an issue without leaking them.
 */
export function curlOf(request: RecordedRequest, secrets: readonly Secret[]): string {
  const lines = [
    `curl -i${request.url.endsWith('/stream') ? ' -N' : ''}${request.method === 'GET' ? '' : ` -X ${request.method}`} ${singleQuoted(request.url)}`,
  ];
  for (const [name, value] of request.headers) {
    lines.push(`-H ${shellWord(redact(`${name}: ${value}`, secrets))}`);
  }
  if (request.body !== undefined)
    lines.push(`--data-raw ${shellWord(redact(request.body, secrets))}`);
  return lines.join(' \\\n  ');
}
