/**
 * Maps a request path onto one of the service's endpoints (docs/protocol.md, "Paths and names"),
 * purely by its shape, and back: the reference service routes with it (whether the task name exists
 * is checked later, in the order of docs/protocol.md, "Headers and tokens"), and the server proxy
 * forwards only what it matches, along the path it rebuilds.
 */

/** The endpoints of the service. */
export type Endpoint = 'submit' | 'result' | 'stream' | 'execute' | 'options';

/** A request path matched to an endpoint, with its decoded task name and task id. */
export interface Route {
  /** Which endpoint the path names. */
  endpoint: Endpoint;
  /** The task name, percent-decoded but not yet checked. */
  taskName: string;
  /** The task id of Get Result, percent-decoded but not yet checked; empty for the others. */
  taskId: string;
}

/** The method each endpoint answers. */
export function methodOf(endpoint: Endpoint): 'GET' | 'POST' {
  switch (endpoint) {
    case 'result':
      return 'GET';
    case 'submit':
    case 'stream':
    case 'execute':
    case 'options':
      return 'POST';
    default:
      return endpoint satisfies never;
  }
}

const POST_ENDPOINTS: ReadonlySet<string> = new Set(['submit', 'stream', 'execute', 'options']);

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A malformed escape such as `%E0%A4%A` names no endpoint.
    return undefined;
  }
}

/**
 * The endpoint that `pathname` (still percent-encoded, as in `URL.pathname`) names below
 * `basePath`, or `undefined` when it names none. An encoded slash stays inside its segment, so
 * `a%2Fb` is one (unknown) task name, never two path segments.
 */
export function matchRoute(pathname: string, basePath: string): Route | undefined {
  if (!pathname.startsWith(`${basePath}/`)) return undefined;
  const segments = pathname.slice(basePath.length + 1).split('/');
  if (segments[0] !== 'workflows') return undefined;
  if (segments.length === 3 && POST_ENDPOINTS.has(segments[2] ?? '')) {
    const taskName = decodeSegment(segments[1] ?? '');
    if (taskName === undefined || taskName === '') return undefined;
    return { endpoint: segments[2] as Endpoint, taskName, taskId: '' };
  }
  if (segments.length === 4 && segments[3] === 'result') {
    const taskName = decodeSegment(segments[1] ?? '');
    const taskId = decodeSegment(segments[2] ?? '');
    if (!taskName || !taskId) return undefined;
    return { endpoint: 'result', taskName, taskId };
  }
  return undefined;
}

/**
 * A read of resumable streams (docs/protocol.md, "Resumable streams (0.4)"): one task's events
 * (`GET /workflows/<TASK>/<ID>/events`, names decoded but not yet checked) or the multiplexed read
 * (`POST /workflows/events`). Not an {@link Endpoint}: the interface document has no such reads.
 */
export type EventsRoute = { read: 'events'; taskName: string; taskId: string } | { read: 'follow' };

/** The method each read of resumable streams answers. */
export function methodOfEventsRead(route: EventsRoute): 'GET' | 'POST' {
  return route.read === 'events' ? 'GET' : 'POST';
}

/** The read of resumable streams that `pathname` names below `basePath`, or `undefined`. */
export function matchEventsRoute(pathname: string, basePath: string): EventsRoute | undefined {
  if (!pathname.startsWith(`${basePath}/`)) return undefined;
  const segments = pathname.slice(basePath.length + 1).split('/');
  if (segments[0] !== 'workflows') return undefined;
  if (segments.length === 2 && segments[1] === 'events') return { read: 'follow' };
  if (segments.length === 4 && segments[3] === 'events') {
    const taskName = decodeSegment(segments[1] ?? '');
    const taskId = decodeSegment(segments[2] ?? '');
    if (!taskName || !taskId) return undefined;
    return { read: 'events', taskName, taskId };
  }
  return undefined;
}

/** The last segment of a task's path: one of its endpoints, or its events read (0.4). */
export type TaskPathEnd = Endpoint | 'events';

/**
 * The path of a task's endpoint or events read below a base path, from its segments as they go on
 * the wire: each already percent-encoded, or a template such as the OpenAPI document's `{task}` and
 * `{id}` (docs/protocol.md, "Paths and names"). The one place the paths are written.
 */
export function pathOfSegments(end: TaskPathEnd, taskSegment: string, idSegment: string): string {
  return end === 'result' || end === 'events'
    ? `/workflows/${taskSegment}/${idSegment}/${end}`
    : `/workflows/${taskSegment}/${end}`;
}

/**
 * The path of a task's endpoint or events read below a base path, its name and id (for Get Result
 * and the events read) encoded, so that the path holds exactly these names, never a path step.
 */
export function taskPath(end: TaskPathEnd, taskName: string, taskId = ''): string {
  return pathOfSegments(end, encodeURIComponent(taskName), encodeURIComponent(taskId));
}

/**
 * The path of `route` below a base path, each part encoded again, so that a proxy sends exactly the
 * names that were matched, never a path step the browser smuggled in.
 */
export function routePath(route: Route): string {
  return taskPath(route.endpoint, route.taskName, route.taskId);
}
