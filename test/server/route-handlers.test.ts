/**
 * `routeHandlers` turns one `fetch` handler into the per-method exports of a Next.js App Router
 * route file: each passes its request, unchanged, to the handler, for the reference service and the
 * proxy alike (docs/protocol.md, "The server proxy").
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
} from '../../src/reference/index.js';
import { createTaskProxy, routeHandlers } from '../../src/server/index.js';

describe('routeHandlers', () => {
  it('passes the very request each method gets to fetch, and answers with its Response', async () => {
    const seen: Request[] = [];
    const answers: Response[] = [];
    const handlers = routeHandlers({
      fetch(request) {
        seen.push(request);
        const answer = new Response(request.method);
        answers.push(answer);
        return answer;
      },
    });

    for (const method of ['GET', 'POST', 'OPTIONS', 'HEAD'] as const) {
      const request = new Request(`http://app.test/api/taskwire/x/${method}`, { method });
      const answer = await handlers[method](request);
      expect(seen.at(-1)).toBe(request);
      expect(answer).toBe(answers.at(-1));
    }
    expect(seen).toHaveLength(4);
  });

  it('serves the reference service mounted under a base path, as a Next.js route file would', async () => {
    const service = createReferenceService({ basePath: '/api/taskwire' });
    onTestFinished(() => service.close());
    const { POST, GET, OPTIONS } = routeHandlers(service);
    const headers = {
      authorization: `Bearer ${DEMO_USER_TOKEN}`,
      'x-app-authorization': `Bearer ${DEMO_CLIENT_TOKEN}`,
    };

    const submitted = await POST(
      new Request('http://app.test/api/taskwire/workflows/echo/submit', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ params: { message: 'hi' } }),
      }),
    );
    const location = submitted.headers.get('location');
    const read = await GET(new Request(`http://app.test${location}`, { headers }));
    const preflight = await OPTIONS(
      new Request(`http://app.test${location}`, {
        method: 'OPTIONS',
        headers: { 'access-control-request-method': 'GET' },
      }),
    );

    expect(submitted.status).toBe(202);
    expect(location).toMatch(/^\/api\/taskwire\/workflows\/echo\/[^/]+\/result$/);
    expect(read.status).toBe(200);
    expect(preflight.status).toBe(204);
  });

  it('serves a proxy: its own refusals come back from the handler of the method', async () => {
    const { POST } = routeHandlers(
      createTaskProxy({
        target: 'http://127.0.0.1:9',
        clientToken: DEMO_CLIENT_TOKEN,
        tasks: ['echo'],
        basePath: '/api/taskwire',
      }),
    );

    const answer = await POST(
      new Request('http://app.test/api/taskwire/workflows/not-allowed/submit', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"params":{}}',
      }),
    );

    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ reason: 'TASK_NOT_FOUND' });
  });
});
