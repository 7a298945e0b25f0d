import { describe, expect, it } from 'vitest';
import { AUTH, BASE, get, post, submit } from './service-requests.js';
import { expectPreflightAllows, preflightRequest } from '../support/cors-preflight.js';
import { openService } from './open-service.js';

interface ErrorBody {
  status: string;
  statusCode: number;
  reason: string;
  message: string;
}

async function errorOf(response: Response): Promise<ErrorBody> {
  const body = (await response.json()) as ErrorBody;
  expect(body.status).toBe('error');
  expect(body.statusCode).toBe(response.status);
  expect(typeof body.message).toBe('string');
  return body;
}

describe('routing', () => {
  it('answers 404 NOT_FOUND for a path that is no endpoint', async () => {
    const service = openService();
    for (const path of [
      '/',
      '/workflows',
      '/workflows/echo',
      '/workflows/echo/submit/',
      '/workflows/echo/run',
      '/workflows/echo/id/results',
      '/workflows//submit',
      '/other/echo/submit',
      '/workflows/%E0%A4%A/submit',
    ]) {
      const response = await post(service, path, { params: {} });
      expect(response.status, path).toBe(404);
      expect((await errorOf(response)).reason, path).toBe('NOT_FOUND');
    }
  });

  it('answers 405 with Allow for the wrong method on a known path', async () => {
    const service = openService();
    const getSubmit = await get(service, '/workflows/echo/submit');
    expect(getSubmit.status).toBe(405);
    expect(getSubmit.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await errorOf(getSubmit)).reason).toBe('METHOD_NOT_ALLOWED');
    const postResult = await post(service, '/workflows/echo/abc/result', { params: {} });
    expect(postResult.status).toBe(405);
    expect(postResult.headers.get('allow')).toBe('GET, OPTIONS');
    const deleted = await service.fetch(
      new Request(`${BASE}/workflows/echo/stream`, { method: 'DELETE', headers: AUTH }),
    );
    expect(deleted.status).toBe(405);
  });

  it('never answers 500 to path tricks', async () => {
    const service = openService({ timeScale: 0.001 });
    const paths = [
      '/workflows/ec%2Fho/submit',
      '/workflows/..%2F..%2Fetc%2Fpasswd/submit',
      '/workflows/echo%00/submit',
      '/workflows/%00/submit',
      `/workflows/${'a'.repeat(5000)}/submit`,
      '/workflows/constructor/submit',
      '/workflows/__proto__/submit',
      '/workflows/%F0%9F%92%A9/submit',
      '/workflows/echo/..%2Fsubmit',
      `/workflows/echo/${'%2F'.repeat(100)}/result`,
      '/workflows/echo/%00/result',
    ];
    for (const path of paths) {
      const response = await post(service, path, { params: { message: 'x' } });
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
      const body = await errorOf(response);
      expect(body.message.length, path).toBeLessThan(200);
    }
    const longName = await post(service, `/workflows/${'a'.repeat(5000)}/submit`, {
      params: {},
    });
    expect(longName.status).toBe(404);
    expect((await errorOf(longName)).reason).toBe('TASK_NOT_FOUND');
    const slash = await post(service, '/workflows/ec%2Fho/submit', { params: { message: 'x' } });
    expect((await errorOf(slash)).reason).toBe('TASK_NOT_FOUND');
  });

  it('serves under a base path when one is configured', async () => {
    const service = openService({ basePath: '/api/taskwire/', timeScale: 0.001 });
    const response = await post(service, '/api/taskwire/workflows/echo/submit', {
      params: { message: 'x' },
    });
    expect(response.status).toBe(202);
    const { response: answer } = (await response.json()) as { response: { id: string } };
    expect(response.headers.get('location')).toBe(
      `/api/taskwire/workflows/echo/${answer.id}/result`,
    );
    expect(
      (await post(service, '/workflows/echo/submit', { params: { message: 'x' } })).status,
    ).toBe(404);
  });
});

describe('authentication', () => {
  it('answers 401 for a missing, malformed or unknown token of either kind', async () => {
    const service = openService();
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer demo-user-token' },
      { 'x-app-authorization': 'Bearer demo-client-token' },
      { ...AUTH, authorization: 'demo-user-token' },
      { ...AUTH, authorization: 'Basic ZGVtbzpkZW1v' },
      { ...AUTH, authorization: 'Bearer ' },
      { ...AUTH, authorization: 'Bearer unknown-token' },
      { ...AUTH, 'x-app-authorization': 'Bearer demo-user-token' },
      { ...AUTH, authorization: 'Bearer demo-client-token' },
      { ...AUTH, authorization: 'Bearer constructor' },
      { ...AUTH, authorization: 'Bearer __proto__' },
      { ...AUTH, 'x-app-authorization': 'Bearer toString' },
    ];
    for (const headers of cases) {
      const response = await post(
        service,
        '/workflows/echo/submit',
        { params: { message: 'x' } },
        headers,
      );
      expect(response.status, JSON.stringify(headers)).toBe(401);
      const body = await errorOf(response);
      expect(body.reason).toBe('UNAUTHENTICATED');
      expect(JSON.stringify(body)).not.toMatch(
        /unknown-token|demo-user-token|demo-client-token|ZGVtbz/,
      );
    }
  });

  it('accepts the bearer scheme in any case', async () => {
    const service = openService({ timeScale: 0.001 });
    const response = await post(
      service,
      '/workflows/echo/submit',
      { params: { message: 'x' } },
      {
        authorization: 'bearer demo-user-token',
        'x-app-authorization': 'BEARER demo-client-token',
      },
    );
    expect(response.status).toBe(202);
  });

  it('takes configured tokens instead of the demo set', async () => {
    const service = openService({
      clientTokens: ['app-1'],
      userTokens: { 'alice-token': 'alice' },
      timeScale: 0.001,
    });
    expect(
      (await post(service, '/workflows/echo/submit', { params: { message: 'x' } })).status,
    ).toBe(401);
    const headers = { authorization: 'Bearer alice-token', 'x-app-authorization': 'Bearer app-1' };
    expect(
      (await post(service, '/workflows/echo/submit', { params: { message: 'x' } }, headers)).status,
    ).toBe(202);
  });
});

describe('token rule', () => {
  it('answers 401 to a token of characters past visible ASCII, even a configured one, as the proxy refuses it', async () => {
    const service = openService({ clientTokens: ['app-1'], userTokens: { tökén: 'alice' } });
    const headers = { authorization: 'Bearer tökén', 'x-app-authorization': 'Bearer app-1' };
    const response = await post(service, '/workflows/echo/submit', { params: {} }, headers);
    expect(response.status).toBe(401);
    expect((await errorOf(response)).reason).toBe('UNAUTHENTICATED');
  });
});

describe('header rules', () => {
  it('answers 400 INVALID_HEADER for a malformed platform, x-touchpoint or Idempotency-Key', async () => {
    const service = openService();
    const cases: Array<Record<string, string>> = [
      { platform: '' },
      { platform: 'web site' },
      { platform: 'a'.repeat(65) },
      { platform: 'web/site' },
      { 'x-touchpoint': 'é' },
      { 'x-touchpoint': 'a'.repeat(65) },
      { 'idempotency-key': 'has space' },
      { 'idempotency-key': 'k'.repeat(256) },
      { 'idempotency-key': '' },
    ];
    for (const extra of cases) {
      const response = await post(
        service,
        '/workflows/echo/submit',
        { params: { message: 'x' } },
        {
          ...AUTH,
          ...extra,
        },
      );
      expect(response.status, JSON.stringify(extra)).toBe(400);
      expect((await errorOf(response)).reason).toBe('INVALID_HEADER');
    }
  });

  it('accepts well-formed optional headers', async () => {
    const service = openService({ timeScale: 0.001 });
    const response = await post(
      service,
      '/workflows/echo/submit',
      { params: { message: 'x' } },
      {
        ...AUTH,
        platform: 'website',
        'x-touchpoint': 'a'.repeat(64),
        'idempotency-key': '!'.repeat(255),
      },
    );
    expect(response.status).toBe(202);
  });

  it('answers 415 for a POST without a JSON content type', async () => {
    const service = openService({ timeScale: 0.001 });
    for (const contentType of [
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json-seq',
      'application/jsonx',
      'application/json; charset=latin1',
    ]) {
      const headers: Record<string, string> = { ...AUTH };
      if (contentType !== undefined) headers['content-type'] = contentType;
      const response = await service.fetch(
        new Request(`${BASE}/workflows/echo/submit`, {
          method: 'POST',
          headers,
          body: new Blob([JSON.stringify({ params: { message: 'x' } })]),
        }),
      );
      expect(response.status, String(contentType)).toBe(415);
      expect((await errorOf(response)).reason).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    for (const contentType of ['Application/JSON', 'application/json; charset=UTF-8']) {
      const response = await post(
        service,
        '/workflows/echo/submit',
        { params: { message: 'x' } },
        {
          ...AUTH,
          'content-type': contentType,
        },
      );
      expect(response.status, contentType).toBe(202);
    }
  });
});

describe('check order', () => {
  it('answers the first failing check in the order of docs/protocol.md, "Headers and tokens"', async () => {
    const service = openService({
      limits: { bodyBytes: 100, rateLimit: { perSecond: 0.001, burst: 1000 } },
    });
    const bad = {
      ...AUTH,
      platform: 'bad value',
      'idempotency-key': 'k',
      'content-type': 'text/plain',
    };
    const big = JSON.stringify({ params: { message: 'x'.repeat(200) } });
    const send = (path: string, headers: Record<string, string>, body: string, method = 'POST') =>
      service.fetch(new Request(`${BASE}${path}`, { method, headers, body }));
    const reasonOf = async (response: Promise<Response>) => (await errorOf(await response)).reason;

    // route < method < tokens < headers < content type < size < body < task name < params
    expect(await reasonOf(send('/nowhere', {}, big))).toBe('NOT_FOUND');
    expect(await reasonOf(send('/workflows/nope/submit', {}, big, 'PUT'))).toBe(
      'METHOD_NOT_ALLOWED',
    );
    expect(
      await reasonOf(send('/workflows/nope/submit', { ...bad, authorization: 'x' }, big)),
    ).toBe('UNAUTHENTICATED');
    expect(await reasonOf(send('/workflows/nope/submit', bad, big))).toBe('INVALID_HEADER');
    expect(await reasonOf(send('/workflows/nope/submit', { ...bad, platform: 'web' }, big))).toBe(
      'UNSUPPORTED_MEDIA_TYPE',
    );
    const json = { ...bad, platform: 'web', 'content-type': 'application/json' };
    expect(await reasonOf(send('/workflows/nope/submit', json, big))).toBe('PAYLOAD_TOO_LARGE');
    expect(await reasonOf(send('/workflows/nope/submit', json, '{"params":'))).toBe(
      'MALFORMED_BODY',
    );
    expect(await reasonOf(send('/workflows/nope/submit', json, '{"params":{}}'))).toBe(
      'TASK_NOT_FOUND',
    );
    const badNotification = JSON.stringify({
      params: {},
      notification: { actions: [{ deeplink: 'javascript:alert(1)' }] },
    });
    expect(await reasonOf(send('/workflows/echo/submit', json, badNotification))).toBe(
      'INVALID_PARAMS',
    );
    const goodParams = JSON.stringify({
      params: { message: 'a' },
      notification: { actions: [{ deeplink: 'javascript:alert(1)' }] },
    });
    expect(await reasonOf(send('/workflows/echo/submit', json, goodParams))).toBe(
      'INVALID_NOTIFICATION',
    );
    expect((await send('/workflows/echo/submit', json, '{"params":{"message":"a"}}')).status).toBe(
      202,
    );
    expect(await reasonOf(send('/workflows/echo/submit', json, '{"params":{"message":"b"}}'))).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
  });

  it('puts the rate limit after the tokens and before the headers', async () => {
    let now = 0;
    const service = openService({
      now: () => now,
      limits: { rateLimit: { perSecond: 1, burst: 1 } },
    });
    const badHeader = { ...AUTH, platform: 'bad value' };
    expect((await get(service, '/workflows/echo/x/result', badHeader)).status).toBe(400);
    const limited = await get(service, '/workflows/echo/x/result', badHeader);
    expect(limited.status).toBe(429);
    // A request with unknown tokens is refused before it can spend anyone's bucket.
    expect((await get(service, '/workflows/echo/x/result', {})).status).toBe(401);
    now += 1000;
    expect((await get(service, '/workflows/echo/x/result', badHeader)).status).toBe(400);
  });
});

describe('rate limit', () => {
  it('is off by default', async () => {
    const service = openService({ timeScale: 0.001 });
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => get(service, '/workflows/echo/x/result')),
    );
    expect(answers.every((answer) => answer.status === 404)).toBe(true);
  });

  it('answers 429 RATE_LIMITED with Retry-After past the burst, per user, and refills over time', async () => {
    let now = 0;
    const service = openService({
      now: () => now,
      timeScale: 0.001,
      limits: { rateLimit: { perSecond: 0.5, burst: 3 } },
    });
    for (let index = 0; index < 3; index += 1) {
      expect((await get(service, '/workflows/echo/x/result')).status).toBe(404);
    }
    const limited = await get(service, '/workflows/echo/x/result');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect((await errorOf(limited)).reason).toBe('RATE_LIMITED');
    // Other users have buckets of their own.
    const other = {
      authorization: 'Bearer other-user-token',
      'x-app-authorization': 'Bearer demo-client-token',
    };
    expect((await get(service, '/workflows/echo/x/result', other)).status).toBe(404);
    now += 1000;
    expect((await get(service, '/workflows/echo/x/result')).status).toBe(429);
    now += 1000;
    expect((await get(service, '/workflows/echo/x/result')).status).toBe(404);
    expect(
      await submit(service, 'echo', { message: 'x' }).catch((error: Error) => error.message),
    ).toBe('submit answered 429');
  });
});

describe('CORS', () => {
  it('answers a preflight without tokens', async () => {
    const service = openService();
    const response = await service.fetch(
      preflightRequest(`${BASE}/workflows/echo/submit`, 'authorization, content-type'),
    );
    expectPreflightAllows(response, [
      'authorization',
      'x-app-authorization',
      'content-type',
      'platform',
      'x-touchpoint',
      'idempotency-key',
      'last-event-id',
      'prefer',
    ]);
    expect(response.headers.get('access-control-expose-headers')).toBe(
      'x-task-id, location, retry-after, x-taskwire-resumable, preference-applied',
    );
  });

  it('allows and exposes only the headers of 0.3 when it offers no resumable streams', async () => {
    const service = openService({ events: false });
    const response = await service.fetch(
      preflightRequest(`${BASE}/workflows/echo/submit`, 'authorization, content-type'),
    );
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'authorization, x-app-authorization, content-type, platform, x-touchpoint, idempotency-key',
    );
    expect(response.headers.get('access-control-expose-headers')).toBe(
      'x-task-id, location, retry-after',
    );
    expect(response.headers.get('x-taskwire-resumable')).toBeNull();
  });

  it('exposes x-task-id, location, retry-after and the resumable header on every answer, errors included', async () => {
    const service = openService({ timeScale: 0.001 });
    const answers = [
      await post(service, '/workflows/echo/submit', { params: { message: 'x' } }),
      await post(service, '/workflows/echo/submit', { params: {} }),
      await get(service, '/nowhere'),
      await get(service, '/workflows/echo/x/result', {}),
      await post(service, '/workflows/echo/stream', { params: { message: 'x' } }),
    ];
    for (const answer of answers) {
      expect(answer.headers.get('access-control-expose-headers')).toBe(
        'x-task-id, location, retry-after, x-taskwire-resumable, preference-applied',
      );
      expect(answer.headers.get('x-taskwire-resumable')).toBe('1');
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      await answer.body?.cancel();
    }
  });

  it('allows only the configured origins when a list is given', async () => {
    const service = openService({ corsOrigins: ['http://localhost:6006'] });
    const preflight = (origin: string) =>
      service.fetch(
        new Request(`${BASE}/workflows/echo/submit`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST' },
        }),
      );
    const allowed = await preflight('http://localhost:6006');
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:6006');
    expect(allowed.headers.get('vary')).toBe('Origin');
    const refused = await preflight('https://evil.example');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a plain OPTIONS with the allowed methods', async () => {
    const service = openService();
    const response = await service.fetch(
      new Request(`${BASE}/workflows/echo/x/result`, { method: 'OPTIONS' }),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('GET, OPTIONS');
  });
});
