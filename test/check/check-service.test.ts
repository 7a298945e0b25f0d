/**
 * checkService against the reference service, which keeps every rule: in-process through its
 * `fetch` and over loopback, every check passes; what it cannot run it skips and says why; what
 * stops it from running at all is a typed error; no token's value is ever in its report.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CHECKS, checkService, toJUnitXml, type CheckReport } from '../../src/check/index.js';
import { TaskwireError } from '../../src/client/index.js';
import { startReferenceServer } from '../../src/reference/node/index.js';
import {
  checkedService,
  CLIENT_TOKEN,
  FAST,
  TOKENS,
  USER_TOKEN,
  WITH_KEEP_ALIVE,
} from './check-fixtures.js';
import { elementsNamed, parseXml } from './parse-xml.js';
import { brokenServices, REQUIRED_HEADERS, requiresHeaders } from './broken-services.js';

const protocol = readFileSync(path.resolve(import.meta.dirname, '../../docs/protocol.md'), 'utf8');
const guide = readFileSync(
  path.resolve(import.meta.dirname, '../../docs/checking-your-service.md'),
  'utf8',
);

/** The anchors of docs/protocol.md's `##` headings, as GitHub and Storybook make them. */
const anchors = new Set(
  [...protocol.matchAll(/^## (.+)$/gm)].map(([, heading = '']) =>
    heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N} -]/gu, '')
      .replace(/ /g, '-'),
  ),
);

function outcomes(report: CheckReport): Record<string, string> {
  return Object.fromEntries(report.results.map((result) => [result.id, result.outcome]));
}

function expectNoToken(report: CheckReport): void {
  const text = JSON.stringify(report);
  for (const token of TOKENS) expect(text).not.toContain(token);
}

describe('checkService', () => {
  it('passes every check against the reference service in-process, starting 5 tasks', async () => {
    const service = checkedService();
    const progress: string[] = [];
    const report = await checkService({
      ...FAST,
      ...WITH_KEEP_ALIVE,
      baseUrl: 'http://taskwire.test/',
      fetch: (request) => service.fetch(request),
      onProgress: ({ result, done, total }) => progress.push(`${done}/${total} ${result.id}`),
    });

    expect(report.results.map((result) => result.id)).toEqual(CHECKS.map((check) => check.id));
    expect(report.results.filter((result) => result.outcome !== 'pass')).toEqual([]);
    expect(report).toMatchObject({ passed: CHECKS.length, failed: 0, skipped: 0 });
    // Submit, Stream, Execute, the failing Execute and the silent task's stream.
    expect(report.tasksStarted).toBe(5);
    expect(report.baseUrl).toBe('http://taskwire.test');
    expect(progress).toHaveLength(CHECKS.length);
    expect(progress.at(-1)).toMatch(new RegExp(`^${CHECKS.length}/${CHECKS.length} `));
    expectNoToken(report);
  });

  it('passes every check against the reference service over loopback', async () => {
    const server = await startReferenceServer({ service: checkedService() });
    onTestFinished(() => server.close());
    const report = await checkService({ ...FAST, ...WITH_KEEP_ALIVE, baseUrl: server.url });

    expect(report.results.filter((result) => result.outcome !== 'pass')).toEqual([]);
    expect(report.tasksStarted).toBe(5);
  });

  it('skips the events checks, and fails none, for a service that offers no resumable streams', async () => {
    const { createReferenceService, demoTasks } = await import('../../src/reference/index.js');
    const service = createReferenceService({
      timeScale: 0.1,
      tasks: demoTasks,
      userTokens: { [USER_TOKEN]: 'alice', 'bob-token-x': 'bob' },
      clientTokens: [CLIENT_TOKEN],
      events: false,
    });
    onTestFinished(() => service.close());
    const report = await checkService({
      ...FAST,
      otherUserToken: 'bob-token-x',
      baseUrl: 'http://taskwire.test',
      fetch: (request) => service.fetch(request),
    });
    const events = report.results.filter((result) => result.id.startsWith('events.'));
    expect(events.map((result) => [result.id, result.outcome, result.why])).toEqual(
      ['events.after-position', 'events.other-user', 'events.final-event', 'events.follow'].map(
        (id) => [
          id,
          'skipped',
          'the service offers no resumable streams (no answer carried x-taskwire-resumable: 1)',
        ],
      ),
    );
    expect(report.failed).toBe(0);
  });

  it('checks a service below a base path, and a list of allowed origins', async () => {
    const { createReferenceService, demoTasks } = await import('../../src/reference/index.js');
    const service = createReferenceService({
      timeScale: 0.05,
      tasks: demoTasks,
      userTokens: { [USER_TOKEN]: 'alice', 'bob-token-x': 'bob' },
      clientTokens: [CLIENT_TOKEN],
      basePath: '/api/tasks',
      corsOrigins: ['https://app.example.com'],
    });
    onTestFinished(() => service.close());
    const report = await checkService({
      ...FAST,
      otherUserToken: 'bob-token-x',
      baseUrl: 'http://taskwire.test/api/tasks',
      origin: 'https://app.example.com',
      fetch: (request) => service.fetch(request),
    });
    expect(report.results.filter((result) => result.outcome === 'fail')).toEqual([]);

    // Another origin is not allowed: the CORS checks say so, the others still pass.
    const elsewhere = await checkService({
      ...FAST,
      otherUserToken: 'bob-token-x',
      baseUrl: 'http://taskwire.test/api/tasks',
      origin: 'https://other.example.com',
      fetch: (request) => service.fetch(request),
    });
    const failed = elsewhere.results.filter((result) => result.outcome === 'fail');
    expect(failed.map((result) => result.id)).toEqual(['cors.preflight', 'cors.expose-headers']);
    expect(failed[0]!.observed).toContain('Access-Control-Allow-Origin: (none)');
  });

  it('names the rule that broke, and never a wrong baseUrl when the URL was right', async () => {
    const service = checkedService();
    // Refusals in a shape of the service's own: { error: { code, message } }.
    const send = async (request: Request) => {
      const response = await service.fetch(request);
      if (response.ok || response.status === 204) return response;
      const body = (await response.json()) as { reason: string; message: string };
      const headers = new Headers(response.headers);
      headers.delete('content-length');
      return new Response(JSON.stringify({ error: { code: body.reason, message: body.message } }), {
        status: response.status,
        headers,
      });
    };
    const report = await checkService({ ...FAST, baseUrl: 'http://taskwire.test', fetch: send });

    const errorsBody = report.results.find((result) => result.id === 'errors.body')!;
    expect(errorsBody.outcome).toBe('fail');
    expect(errorsBody.observed).toMatch(/the body does not have the error shape/);
    const otherBody = report.results.find((result) => result.id === 'idempotency.other-body')!;
    expect(otherBody.outcome).toBe('fail');
    expect(otherBody.observed).toMatch(
      /^422 .*, not the error body \{ status: "error", statusCode, reason, message \}: \{"error":/,
    );
    for (const result of report.results) {
      expect(`${result.expected} ${result.observed}`, result.id).not.toMatch(/baseUrl|base URL/);
    }
  });

  it('links every check to a heading of docs/protocol.md', () => {
    for (const check of CHECKS) {
      const [file, anchor] = check.rule.split('#');
      expect(file).toBe('docs/protocol.md');
      expect(anchors, `${check.id} → #${anchor}`).toContain(anchor);
    }
    expect(new Set(CHECKS.map((check) => check.id)).size).toBe(CHECKS.length);
  });

  it("explains every check in the guide, under its id, marking those of taskwire's own contract", () => {
    const explained = [...guide.matchAll(/^- \*\*`([a-z-]+\.[a-z-]+)`\*\*( \(contract\))?:/gm)].map(
      ([, id, contract]) => `${id} ${contract ? 'contract' : 'required'}`,
    );
    const ids = CHECKS.map((check) => `${check.id} ${check.level}`);
    expect([...explained].sort()).toEqual([...ids].sort());
  });

  it('skips what it cannot run, and says what it needs', async () => {
    const service = checkedService();
    const report = await checkService({
      ...FAST,
      otherUserToken: undefined,
      task: 'echo',
      params: { message: 'hi' },
      baseUrl: 'http://taskwire.test',
      fetch: (request) => service.fetch(request),
    });
    const skipped = Object.fromEntries(
      report.results
        .filter((result) => result.outcome === 'skipped')
        .map((result) => [result.id, result.why]),
    );
    // echo ends at once, sends no custom event and charges nothing.
    expect(skipped).toEqual({
      'execute.failed': expect.stringContaining(
        'needs params that make echo fail (--failing-params)',
      ),
      'result.other-user': expect.stringContaining('--other-user-token'),
      'events.other-user': expect.stringContaining('--other-user-token'),
      'result.retry-after': expect.stringContaining('had ended by the first read'),
      'stream.event-ids': expect.stringContaining('no custom event'),
      'stream.live': expect.stringContaining('no progress below 100 %'),
      'stream.keep-alive': expect.stringContaining('--keep-alive-task'),
      'usage.arithmetic': expect.stringContaining('charges credits'),
      'usage.in-outcomes': expect.stringContaining('charges credits'),
    });
    expect(report.failed).toBe(0);
    expect(report.tasksStarted).toBe(3);
  });

  it("skips the other user's check when the service does not know that token", async () => {
    const service = checkedService();
    const report = await checkService({
      ...FAST,
      otherUserToken: 'nobody-knows-this-token',
      baseUrl: 'http://taskwire.test',
      fetch: (request) => service.fetch(request),
    });
    const result = report.results.find((candidate) => candidate.id === 'result.other-user');
    expect(result).toMatchObject({ outcome: 'skipped' });
    expect(result?.why).toMatch(/refused the other user's token \(401\)/);
    const events = report.results.find((candidate) => candidate.id === 'events.other-user');
    expect(events).toMatchObject({ outcome: 'skipped', why: result?.why });
    expect(JSON.stringify(report)).not.toContain('nobody-knows-this-token');
  });

  it('skips the keep-alive check when the named task is never silent long enough', async () => {
    const service = checkedService();
    const report = await checkService({
      ...FAST,
      keepAliveTask: { task: 'render-video', params: { frames: 10, frameMs: 200 } },
      baseUrl: 'http://taskwire.test',
      fetch: (request) => service.fetch(request),
    });
    expect(outcomes(report)['stream.keep-alive']).toBe('skipped');
    expect(report.results.find((result) => result.id === 'stream.keep-alive')?.why).toMatch(
      /never silent long enough/,
    );
  });

  it('cannot run against a service it cannot reach, nor with tokens, a task or params it refuses', async () => {
    const service = checkedService();
    const send = (request: Request) => service.fetch(request);
    const base = { ...FAST, baseUrl: 'http://taskwire.test', fetch: send };

    const unreachable = checkService({
      ...base,
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    await expect(unreachable).rejects.toSatisfy(
      (error) => TaskwireError.isInstance(error) && error.code === 'network',
    );
    await expect(unreachable).rejects.toThrow(/could not be reached at http:\/\/taskwire\.test/);

    const badToken = checkService({ ...base, userToken: 'not-a-known-token' });
    await expect(badToken).rejects.toMatchObject({ code: 'http', status: 401 });
    await expect(badToken).rejects.toThrow(/refused the tokens/);
    // The token given is not repeated, even when it was the problem.
    await expect(badToken).rejects.not.toThrow(/not-a-known-token/);
    // A service (not a proxy) needs the app's token too, and the message says none was given.
    const withoutClientToken = { ...base, clientToken: undefined };
    await expect(checkService(withoutClientToken)).rejects.toThrow(
      /refused the tokens given .*\(no client token was given\)/,
    );

    await expect(checkService({ ...base, task: 'no-such-task' })).rejects.toMatchObject({
      code: 'http',
      status: 404,
      reason: 'TASK_NOT_FOUND',
    });
    await expect(checkService({ ...base, params: { frames: 'many' } })).rejects.toMatchObject({
      code: 'http',
      status: 422,
      reason: 'INVALID_PARAMS',
    });
  });

  it('stops, saying why and what to give, when the first request is refused for a reason it cannot fix', async () => {
    const service = checkedService();
    const sent: Request[] = [];
    const send = requiresHeaders.wrap((request) => {
      sent.push(request);
      return service.fetch(request);
    });
    const run = checkService({ ...FAST, baseUrl: 'http://taskwire.test', fetch: send });
    await expect(run).rejects.toMatchObject({
      code: 'http',
      status: 400,
      reason: 'INVALID_HEADER',
    });
    await expect(run).rejects.toThrow(
      /refused the first request, Options .*400.*The header platform is required.*--header 'name: value'/,
    );
    // The refused Options was the last request: nothing reached the service, no task started.
    expect(sent.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([]);

    const forbidden = checkService({
      ...FAST,
      baseUrl: 'http://taskwire.test',
      fetch: async (request) =>
        new URL(request.url).pathname.endsWith('/options')
          ? new Response(
              JSON.stringify({
                status: 'error',
                statusCode: 403,
                reason: 'FORBIDDEN',
                message: 'No.',
              }),
              { status: 403, headers: { 'content-type': 'application/json' } },
            )
          : service.fetch(request),
    });
    await expect(forbidden).rejects.toMatchObject({ code: 'http', status: 403 });
    await expect(forbidden).rejects.toThrow(/refused the first request/);
  });

  it('sends the headers given on every request but the preflights, and hides their values', async () => {
    const service = checkedService();
    const sent: Request[] = [];
    const broken = brokenServices.find((candidate) => candidate.check === 'result.retry-after')!;
    const send = broken.wrap(
      requiresHeaders.wrap((request) => {
        sent.push(request.clone());
        return service.fetch(request);
      }),
    );
    const report = await checkService({
      ...FAST,
      headers: { ...REQUIRED_HEADERS, Cookie: 'session=s3cr3t-cookie-value; theme=dark' },
      baseUrl: 'http://taskwire.test',
      fetch: send,
    });

    expect(report.results.filter((result) => result.outcome === 'fail').map((r) => r.id)).toEqual([
      'result.retry-after',
    ]);
    for (const request of sent) {
      const preflight = request.method === 'OPTIONS';
      expect(request.headers.get('x-touchpoint')).toBe(preflight ? null : 'checkout-7f3k');
      expect(request.headers.get('cookie')).toBe(
        preflight ? null : 'session=s3cr3t-cookie-value; theme=dark',
      );
      // A preflight names the headers the request will carry, but the cookie a browser adds itself.
      if (preflight)
        expect(request.headers.get('access-control-request-headers')).toMatch(
          /platform,x-touchpoint/,
        );
      expect(request.headers.get('access-control-request-headers') ?? '').not.toContain('cookie');
    }
    const curl = report.results.find((result) => result.id === 'result.retry-after')!.curl!;
    expect(curl).toContain(`-H "x-touchpoint: $TASKWIRE_HEADER_X_TOUCHPOINT"`);
    expect(curl).toContain(`-H "cookie: $TASKWIRE_HEADER_COOKIE"`);
    const text = JSON.stringify(report);
    for (const value of ['checkout-7f3k', 's3cr3t-cookie-value', ...TOKENS])
      expect(text).not.toContain(value);
  });

  it('refuses headers it sets itself, or that cannot be sent', async () => {
    const base = {
      ...FAST,
      baseUrl: 'http://taskwire.test',
      fetch: () => Promise.reject(new Error()),
    };
    await expect(checkService({ ...base, headers: { Authorization: 'Bearer x' } })).rejects.toThrow(
      /'authorization' is sent by the checks themselves/,
    );
    await expect(checkService({ ...base, headers: { 'bad name': 'x' } })).rejects.toThrow(
      /not a header name/,
    );
    await expect(checkService({ ...base, headers: { platform: 'a\nb' } })).rejects.toThrow(
      /cannot be sent/,
    );
    await expect(checkService({ ...base, headers: { platform: '' } })).rejects.toThrow(
      /cannot be sent/,
    );
  });

  it('stops when its signal aborts, with an aborted error', async () => {
    const service = checkedService();
    const controller = new AbortController();
    const run = checkService({
      ...FAST,
      ...WITH_KEEP_ALIVE,
      baseUrl: 'http://taskwire.test',
      fetch: (request) => service.fetch(request),
      signal: controller.signal,
      onProgress: ({ result }) => {
        if (result.id === 'auth.no-user-token') controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'TaskwireError', code: 'aborted' });
  });

  it('refuses options it cannot use before sending anything', async () => {
    const sent: Request[] = [];
    const fetch = (request: Request) => {
      sent.push(request);
      return Promise.resolve(new Response(null, { status: 500 }));
    };
    const base = { ...FAST, baseUrl: 'http://taskwire.test', fetch };
    await expect(checkService({ ...base, baseUrl: 'ftp://taskwire.test' })).rejects.toThrow(
      TypeError,
    );
    await expect(
      checkService({ ...base, baseUrl: 'http://user:pass@taskwire.test' }),
    ).rejects.toThrow(/user name or password/);
    await expect(checkService({ ...base, userToken: '' })).rejects.toThrow(/userToken/);
    await expect(checkService({ ...base, task: '../admin' })).rejects.toThrow(/not a task name/);
    await expect(checkService({ ...base, pollIntervalMs: 0 })).rejects.toThrow(/pollIntervalMs/);
    await expect(checkService({ ...base, otherUserToken: base.userToken })).rejects.toThrow(
      /another user's token/,
    );
    expect(sent).toEqual([]);
  });
});

describe('toJUnitXml', () => {
  it('writes XML that parses, whatever the text of a result holds', () => {
    const report: CheckReport = {
      baseUrl: 'http://taskwire.test',
      task: 'echo',
      params: {},
      results: [
        {
          ...CHECKS[0],
          outcome: 'fail',
          expected: '401 & <nothing else>',
          observed: `200 "quoted" 'single' \u0001 <html>`,
          curl: "curl -i 'http://taskwire.test/a?b=1&c=2'",
        },
        { ...CHECKS[1], outcome: 'skipped', why: 'needs <this> & "that"' },
        { ...CHECKS[2], outcome: 'pass' },
      ],
      passed: 1,
      failed: 1,
      warned: 0,
      skipped: 1,
      tasksStarted: 0,
      durationMs: 12,
    };
    const suites = parseXml(toJUnitXml(report));
    const [failure] = elementsNamed(suites, 'failure');
    // A control character is shown escaped, as in every output.
    expect(failure!.attributes.message).toBe(`200 "quoted" 'single' \\x01 <html>`);
    expect(failure!.text).toContain("curl -i 'http://taskwire.test/a?b=1&c=2'");
    expect(elementsNamed(suites, 'skipped')[0]!.attributes.message).toBe('needs <this> & "that"');
    expect(elementsNamed(suites, 'testcase')).toHaveLength(3);
    // The reader refuses what a CI would refuse.
    expect(() => parseXml('<a><b></a></b>')).toThrow(SyntaxError);
    expect(() => parseXml('<a>1 < 2</a>')).toThrow(SyntaxError);
    expect(() => parseXml('<a>&nbsp;</a>')).toThrow(SyntaxError);
  });
});
