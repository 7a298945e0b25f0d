// The little of Hono, Express and Next.js that the guides' samples use, so that `tsc -p test/types`
// compiles them without installing these frameworks.
declare module 'hono' {
  export interface Context {
    req: { raw: Request };
  }
  export class Hono {
    all(path: string, handler: (context: Context) => Response | Promise<Response>): this;
    fetch(request: Request): Response | Promise<Response>;
  }
}

declare module 'express' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  interface Application {
    use(
      path: string,
      handler: (request: IncomingMessage, response: ServerResponse) => unknown,
    ): this;
    listen(port: number): unknown;
  }
  export default function express(): Application;
}

// The part of Next.js's `next/headers` that the server page of docs/server-rendering.md uses.
declare module 'next/headers' {
  export function cookies(): Promise<{
    get(name: string): { name: string; value: string } | undefined;
  }>;
}

// The part of Next.js's `next/server` that the proxy with a log uses on a serverless host.
declare module 'next/server' {
  export function after(task: Promise<unknown> | (() => unknown)): void;
}

// What Vite's vue-ts template declares in env.d.ts, so the Vue guide's main.ts can import its App.vue.
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent;
  export default component;
}
