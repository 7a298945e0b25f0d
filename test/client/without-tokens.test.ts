import { afterEach, describe, expect, it } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  type ReferenceService,
} from '../../src/reference/index.js';

let service: ReferenceService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

/**
 * The reference service behind a recording `fetch` that stands in for a proxy: it keeps the
 * headers each request arrived with, then adds what the proxy would add on the server.
 */
function behindProxy(adds: { user: boolean; client: boolean }) {
  service = createReferenceService({ timeScale: 0.01 });
  const reference = service;
  const arrived: Headers[] = [];
  const fetch = (request: Request): Promise<Response> => {
    arrived.push(new Headers(request.headers));
    const headers = new Headers(request.headers);
    if (adds.client) headers.set('x-app-authorization', `Bearer ${DEMO_CLIENT_TOKEN}`);
    if (adds.user) headers.set('authorization', `Bearer ${DEMO_USER_TOKEN}`);
    return reference.fetch(new Request(request, { headers }));
  };
  return { fetch, arrived };
}

describe('createTaskClient without tokens', () => {
  it('sends no x-app-authorization without a clientToken, in every mode', async () => {
    const proxy = behindProxy({ user: false, client: true });
    const client = createTaskClient({
      baseUrl: 'http://taskwire.test',
      userToken: DEMO_USER_TOKEN,
      fetch: proxy.fetch,
    });
    const { id } = await client.submit('echo', { message: 'a' });
    expect((await client.getResult('echo', id)).id).toBe(id);
    const types: string[] = [];
    for await (const event of client.stream('echo', { message: 'b' })) types.push(event.type);
    expect(types.at(-1)).toBe('task.completed');
    expect((await client.execute('echo', { message: 'c' })).status).toBe('COMPLETED');
    expect(await client.options('echo', { message: 'd' })).toEqual({});
    expect(proxy.arrived).toHaveLength(5);
    for (const headers of proxy.arrived) {
      expect(headers.has('x-app-authorization')).toBe(false);
      expect(headers.get('authorization')).toBe(`Bearer ${DEMO_USER_TOKEN}`);
    }
  });

  it('sends neither token header when the proxy supplies both, in every mode', async () => {
    const proxy = behindProxy({ user: true, client: true });
    const client = createTaskClient({ baseUrl: 'http://taskwire.test', fetch: proxy.fetch });
    const { id } = await client.submit('echo', { message: 'a' });
    expect((await client.getResult('echo', id)).status).toMatch(/IN_PROGRESS|COMPLETED/);
    const types: string[] = [];
    for await (const event of client.stream('echo', { message: 'b' })) types.push(event.type);
    expect(types.at(-1)).toBe('task.completed');
    expect((await client.execute('echo', { message: 'c' })).result).toEqual({ echo: 'c' });
    expect(await client.options('echo', { message: 'd' })).toEqual({});
    expect(proxy.arrived).toHaveLength(5);
    for (const headers of proxy.arrived) {
      expect(headers.has('x-app-authorization')).toBe(false);
      expect(headers.has('authorization')).toBe(false);
    }
  });

  it('is answered 401 by a service that needs the token nobody supplied', async () => {
    const proxy = behindProxy({ user: false, client: false });
    const client = createTaskClient({
      baseUrl: 'http://taskwire.test',
      userToken: DEMO_USER_TOKEN,
      fetch: proxy.fetch,
    });
    await expect(client.options('echo', { message: 'a' })).rejects.toMatchObject({
      code: 'http',
      status: 401,
      reason: 'UNAUTHENTICATED',
    });
  });
});

describe('client.scopeIsExplicit', () => {
  it('is true only when the config gave a scope', () => {
    const implicit = createTaskClient({ baseUrl: 'http://taskwire.test' });
    expect(implicit.scope).toBe('http://taskwire.test');
    expect(implicit.scopeIsExplicit).toBe(false);
    const explicit = createTaskClient({ baseUrl: 'http://taskwire.test', scope: 'user-1' });
    expect(explicit.scope).toBe('user-1');
    expect(explicit.scopeIsExplicit).toBe(true);
  });
});
