/**
 * `routeHandlers`: one Web `fetch` handler as the per-method functions that frameworks such as
 * Next.js App Router want a route file to export (`export const { GET, POST } = …`).
 */

/** Anything that answers a Web `Request`: a proxy from {@link createTaskProxy}, the reference service. */
export interface FetchHandlerObject {
  /** Answers one request. */
  fetch(request: Request): Response | Promise<Response>;
}

/** One route handler: takes the framework's request, answers with the handler's `Response`. */
export type RouteHandler = (request: Request) => Promise<Response>;

/** The per-method route handlers {@link routeHandlers} returns. */
export interface RouteHandlers {
  /** Get Result. */
  GET: RouteHandler;
  /** Submit, Stream, Execute and Options. */
  POST: RouteHandler;
  /** A CORS preflight, or a question about the methods. */
  OPTIONS: RouteHandler;
  /** Answered by the handler like any other method (405 on the protocol's endpoints). */
  HEAD: RouteHandler;
}

/**
 * Route handlers for `GET`, `POST`, `OPTIONS` and `HEAD` that each pass the request, unchanged, to
 * `handler.fetch`: for a Next.js App Router catch-all route (`app/api/taskwire/[...path]/route.ts`)
 * in front of a proxy or the reference service alike.
 */
export function routeHandlers(handler: FetchHandlerObject): RouteHandlers {
  const answer: RouteHandler = async (request) => handler.fetch(request);
  return { GET: answer, POST: answer, OPTIONS: answer, HEAD: answer };
}
