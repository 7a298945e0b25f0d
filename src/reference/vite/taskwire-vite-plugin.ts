/**
 * `taskwireReference()`: a Vite plugin that mounts the reference service on the Vite dev server (and
 * on `vite preview`) under a path prefix, so a page, a Storybook or a demo app talks real,
 * same-origin HTTP to it: no CORS preflight, no second port.
 */
import type { Connect, Plugin } from 'vite';
import { createReferenceService, type ReferenceServiceConfig } from '../index.js';
import { createNodeHandler } from '../node/node-handler.js';
import type { MountableService } from '../node/start-reference-server.js';

/** Options of {@link taskwireReference}. */
export interface TaskwireReferenceOptions {
  /**
   * The path the service is mounted under: `/taskwire/workflows/echo/submit` reaches the service as
   * `/workflows/echo/submit`, so a client's `baseUrl` is `/taskwire` (or the page origin plus it).
   * Slashes around it do not matter; `'/'` is refused, since the service would hide the app.
   * Defaults to `'/taskwire'`.
   */
  prefix?: string;
  /**
   * The service to mount; it is closed when the last server it is mounted on closes (a restart of
   * the dev server keeps it). Defaults to a `createReferenceService(config)` made when the first
   * server starts and closed, like a given one, with the last.
   */
  service?: MountableService;
  /** The configuration of the service made when `service` is not given. Defaults to `{}`. */
  config?: ReferenceServiceConfig;
}

/**
 * A Vite plugin serving the reference service under `prefix` on the dev server and the preview
 * server. A static build (`vite build`, `storybook build`) has no server, so nothing is mounted
 * there: pages that must run from static files use the service in-process instead, giving a client
 * `fetch: (request) => service.fetch(request)`, since `service.fetch` runs in a browser as well.
 */
export function taskwireReference(options: TaskwireReferenceOptions = {}): Plugin {
  const prefix = normalizePrefix(options.prefix ?? '/taskwire');
  const suppliedService = options.service;
  let ownService: MountableService | undefined;
  // How many servers serve the service now. A restart mounts it on the new server before it closes
  // the old one, so the service is closed only when the last server using it closes.
  let mounts = 0;

  function currentService(): MountableService {
    if (suppliedService !== undefined) return suppliedService;
    ownService ??= createReferenceService(options.config ?? {});
    return ownService;
  }

  async function unmount(): Promise<void> {
    mounts = Math.max(0, mounts - 1);
    if (mounts > 0) return;
    const service = ownService ?? suppliedService;
    ownService = undefined;
    await service?.close?.();
  }

  function mount(middlewares: Connect.Server): void {
    mounts += 1;
    const service = currentService();
    const handler = createNodeHandler((request) => service.fetch(request), {
      pathPrefix: prefix,
    });
    // Connect strips `prefix` from `incoming.url` before calling us, and matches only whole path
    // segments (`/taskwire/…`, never `/taskwirex`). Every request under the prefix is the service's
    // to answer, so `next` is never called.
    middlewares.use(prefix, (incoming, outgoing) => {
      void handler(incoming, outgoing);
    });
  }

  return {
    name: 'taskwire-reference',
    // Registered directly (not as a post hook), so it runs before Vite's own middlewares, which
    // would answer an unknown path with the SPA's index.html.
    configureServer(server) {
      mount(server.middlewares);
    },
    configurePreviewServer(server) {
      mount(server.middlewares);
    },
    // Both run after the server's sockets are destroyed, so open streams have ended already.
    async closeServer() {
      await unmount();
    },
    async closePreviewServer() {
      await unmount();
    },
  };
}

/** `taskwire/` → `/taskwire`; the prefix always starts with one slash and never ends with one. */
function normalizePrefix(prefix: string): string {
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') throw new TypeError('The taskwire prefix must not be empty or `/`.');
  return `/${trimmed}`;
}
