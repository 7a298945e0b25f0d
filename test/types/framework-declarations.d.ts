// The little of Hono and Express that the guide's samples use, so that `tsc -p test/types` compiles
// them without installing either framework.
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
