/**
 * Which of the protocol's five endpoints a request path names below the proxy's `basePath`
 * (docs/protocol.md, "Paths and names"). Anything else is no endpoint, and the proxy never asks the
 * service about it.
 */

/** The endpoints the proxy forwards. */
export type ProxyEndpoint = 'submit' | 'result' | 'stream' | 'execute' | 'options';

/** A request path matched to an endpoint, with its decoded task name and task id. */
export interface ProxyRoute {
  /** Which endpoint the path names. */
  endpoint: ProxyEndpoint;
  /** The task name, percent-decoded but not yet checked. */
  taskName: string;
  /** The task id of Get Result, percent-decoded but not yet checked; empty for the others. */
  taskId: string;
}

const POST_ENDPOINTS: ReadonlySet<string> = new Set(['submit', 'stream', 'execute', 'options']);

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * The endpoint `pathname` (percent-encoded, as in `URL.pathname`) names below `basePath`, or
 * `undefined`. Each segment is decoded on its own, so an encoded slash stays inside its task name.
 */
export function matchProxyRoute(pathname: string, basePath: string): ProxyRoute | undefined {
  if (!pathname.startsWith(`${basePath}/workflows/`)) return undefined;
  const segments = pathname.slice(basePath.length + '/workflows/'.length).split('/');
  const taskName = decodeSegment(segments[0] ?? '');
  if (taskName === undefined || taskName === '') return undefined;
  if (segments.length === 2 && POST_ENDPOINTS.has(segments[1] ?? '')) {
    return { endpoint: segments[1] as ProxyEndpoint, taskName, taskId: '' };
  }
  if (segments.length === 3 && segments[2] === 'result') {
    const taskId = decodeSegment(segments[1] ?? '');
    if (taskId === undefined || taskId === '') return undefined;
    return { endpoint: 'result', taskName, taskId };
  }
  return undefined;
}

/** The method each endpoint takes. */
export function proxyMethodOf(endpoint: ProxyEndpoint): 'GET' | 'POST' {
  return endpoint === 'result' ? 'GET' : 'POST';
}

/**
 * The path of `route` below a base path, each part encoded again, so the service gets exactly the
 * names that were checked, never a path step the browser smuggled in.
 */
export function routePath(route: ProxyRoute): string {
  const task = encodeURIComponent(route.taskName);
  return route.endpoint === 'result'
    ? `/workflows/${task}/${encodeURIComponent(route.taskId)}/result`
    : `/workflows/${task}/${route.endpoint}`;
}
