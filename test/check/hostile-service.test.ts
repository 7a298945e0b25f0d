/**
 * checkService cannot be turned against its user: a service that writes escape sequences, carriage
 * returns and C1 controls into its answers gets them shown escaped in every output (the report, the
 * table, JSON, JUnit), and a service that echoes a token where an excerpt is cut never gets a part
 * of it printed.
 */
import { describe, expect, it } from 'vitest';
import { checkService, formatCheckReport, toJUnitXml } from '../../src/check/index.js';
import { TaskwireError } from '../../src/client/index.js';
import { checkedService, FAST, TOKENS, USER_TOKEN } from './check-fixtures.js';

/** What a terminal would act on: C0 controls, DEL, C1 controls. */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
/** The same, line feeds allowed: the table and the XML have lines. */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL_BUT_LINE_FEED = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/;

/** Writes the clipboard (OSC 52), retitles the window, and rewrites the line as a PASS. */
const HOSTILE_TEXT =
  '\u001B]52;c;cm0gLXJmIH4=\u0007\u001B]0;owned\u0007\r\u001B[2KPASS  unknown.task  fine \u009B31m';

type Send = (request: Request) => Promise<Response>;

function isUnknownTask(request: Request): boolean {
  return new URL(request.url).pathname.includes('/taskwire-check-no-such-task/');
}

/** The reference service, but its unknown-task answers and its streams carry raw control characters. */
function hostile(send: Send): Send {
  return async (request) => {
    if (isUnknownTask(request))
      return new Response(
        `{"status":"error","statusCode":404,"reason":"NOT_FOUND","message":"${HOSTILE_TEXT}"}`,
        { status: 404, headers: { 'content-type': 'application/json' } },
      );
    const response = await send(request);
    if (!new URL(request.url).pathname.endsWith('/stream') || response.status !== 200)
      return response;
    const prefix = new TextEncoder().encode(`data: ${HOSTILE_TEXT}\n\n`);
    const body = response.body!.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        start(controller) {
          controller.enqueue(prefix);
        },
      }),
    );
    return new Response(body, { status: 200, headers: response.headers });
  };
}

/** 1 MiB, the most of one answer or one stream the checks read. */
const MIB = 1024 * 1024;

describe('checkService against a hostile service', () => {
  it('shows the control characters a service sent escaped, never raw, in every output', async () => {
    const service = checkedService();
    const report = await checkService({
      ...FAST,
      baseUrl: 'http://taskwire.test',
      fetch: hostile((request) => service.fetch(request)),
    });

    const unknownTask = report.results.find((result) => result.id === 'unknown.task')!;
    expect(unknownTask.outcome).toBe('fail');
    expect(unknownTask.observed).toContain('\\x1B]52;c;cm0gLXJmIH4=\\x07');
    expect(unknownTask.observed).toContain('\\r\\x1B[2KPASS');
    expect(unknownTask.observed).toContain('\\x9B31m');
    const framing = report.results.find((result) => result.id === 'stream.framing')!;
    expect(framing.outcome).toBe('fail');
    expect(framing.observed).toContain('\\x1B]0;owned\\x07');

    for (const result of report.results)
      for (const [field, value] of Object.entries(result)) {
        if (typeof value !== 'string') continue;
        // The curl command's own lines are the one place a line feed belongs.
        const lines = field === 'curl' ? value.split('\n') : [value];
        for (const line of lines) expect(line, `${result.id} ${field}`).not.toMatch(RAW_CONTROL);
      }
    expect(formatCheckReport(report)).not.toMatch(RAW_CONTROL_BUT_LINE_FEED);
    expect(toJUnitXml(report)).not.toMatch(RAW_CONTROL_BUT_LINE_FEED);
    // JSON.stringify escapes C0 by itself, but writes C1 controls raw.
    expect(JSON.stringify(report)).not.toMatch(/[\u007F-\u009F]/);
  });

  it('hides a token before it cuts an excerpt, so no part of one straddling the cut is printed', async () => {
    const service = checkedService();
    const opening = '{"status":"error","statusCode":404,"reason":"NOT_FOUND","message":"';
    const echoing: Send = async (request) => {
      if (!isUnknownTask(request)) return service.fetch(request);
      // The token the request carried, starting 10 characters before the 300th.
      const token = (request.headers.get('authorization') ?? '').replace(/^Bearer /, '');
      const padding = 'x'.repeat(290 - opening.length);
      return new Response(`${opening}${padding}${token} was not expected here"}`, {
        status: 404,
        headers: { 'content-type': 'application/json' },
      });
    };
    const report = await checkService({ ...FAST, baseUrl: 'http://taskwire.test', fetch: echoing });

    const unknownTask = report.results.find((result) => result.id === 'unknown.task')!;
    expect(unknownTask.outcome).toBe('fail');
    // Hidden first, then cut: the variable is cut, not the token.
    expect(unknownTask.observed).toMatch(/x\$TASKWIRE_[A-Z_]*…$/);
    const text = `${JSON.stringify(report)}\n${formatCheckReport(report)}\n${toJUnitXml(report)}`;
    expect(text).not.toContain(USER_TOKEN.slice(0, 8));
    for (const token of TOKENS) expect(text).not.toContain(token);
  });

  it('reads at most 1 MiB of an answer, and fails the check that needed it', async () => {
    const service = checkedService();
    const huge: Send = async (request) => {
      const response = await service.fetch(request);
      if (request.method !== 'GET' || !new URL(request.url).pathname.endsWith('/result'))
        return response;
      if (response.status !== 200) return response;
      const body = (await response.json()) as { response: Record<string, unknown> };
      // A valid record, 2 MiB long.
      const padded = { ...body, response: { ...body.response, padding: 'x'.repeat(2 * MIB) } };
      return new Response(JSON.stringify(padded), { status: 200, headers: response.headers });
    };
    const report = await checkService({ ...FAST, baseUrl: 'http://taskwire.test', fetch: huge });
    const record = report.results.find((result) => result.id === 'result.record')!;
    expect(record.outcome).toBe('fail');
    expect(record.observed).toMatch(/larger than 1 MiB/);
  });

  it('stops reading a stream at 1 MiB: an endless line fails stream.framing and grows no memory', async () => {
    const service = checkedService();
    let pulled = 0;
    const endless: Send = async (request) => {
      const response = await service.fetch(request);
      if (!new URL(request.url).pathname.endsWith('/stream') || response.status !== 200)
        return response;
      await response.body?.cancel();
      const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
      // One line with no end: 8 MiB are offered, then the body stays open.
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('data: '));
        },
        pull(controller) {
          if (pulled >= 8 * MIB) return new Promise(() => undefined);
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
          return undefined;
        },
      });
      return new Response(body, { status: 200, headers: response.headers });
    };
    const report = await checkService({
      ...FAST,
      taskTimeoutMs: 3000,
      baseUrl: 'http://taskwire.test',
      fetch: endless,
    });
    const framing = report.results.find((result) => result.id === 'stream.framing')!;
    expect(framing.outcome).toBe('fail');
    expect(framing.observed).toMatch(/larger than 1 MiB/);
    expect(framing.observed).toMatch(/KiB are one line that never ended/);
    // Read up to the cap (a queued chunk or two ahead of it), not the 8 MiB offered.
    expect(pulled).toBeLessThanOrEqual(MIB + 4 * 64 * 1024);
  });

  it('reads at most 1 MiB of any answer it reads whole: a refused stream’s body, a started task’s answer', async () => {
    const service = checkedService();
    const pulled: number[] = [];
    /** `bytes` of JSON-ish text in 64 KiB chunks, counting what the reader pulled of it. */
    const offered = (bytes: number) => {
      const index = pulled.push(0) - 1;
      const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled[index]! >= bytes) return controller.close();
          pulled[index]! += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
    };
    const huge: Send = async (request) => {
      const path = new URL(request.url).pathname;
      const response = await service.fetch(request);
      if (request.method !== 'POST') return response;
      if (path === '/workflows/render-video/stream') {
        // A refusal of the stream, 8 MiB long: the check reads it for its excerpt.
        await response.body?.cancel();
        return new Response(offered(8 * MIB), {
          status: 500,
          headers: { 'content-type': 'application/json' },
        });
      }
      if (path.endsWith('/submit') && response.status === 202) {
        // A Submit answered without x-task-id, 8 MiB long: the check looks for the id in it.
        await response.body?.cancel();
        return new Response(offered(8 * MIB), {
          status: 202,
          headers: { 'content-type': 'application/json' },
        });
      }
      return response;
    };
    const report = await checkService({ ...FAST, baseUrl: 'http://taskwire.test', fetch: huge });
    expect(report.results.find((result) => result.id === 'stream.headers')?.outcome).toBe('fail');
    expect(pulled.length).toBeGreaterThan(1);
    // Each read up to the cap (a queued chunk or two ahead of it), never the 8 MiB offered.
    for (const bytes of pulled) expect(bytes).toBeLessThanOrEqual(MIB + 4 * 64 * 1024);
  });

  it('ends a run that passes its deadline, whatever the service does not answer', async () => {
    // Never answers: the request only ends when the checker aborts it.
    const silent: Send = (request) =>
      new Promise((_, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason as Error));
      });
    const startedAt = performance.now();
    const run = checkService({
      ...FAST,
      requestTimeoutMs: 60_000,
      runTimeoutMs: 300,
      baseUrl: 'http://taskwire.test',
      fetch: silent,
    });
    await expect(run).rejects.toSatisfy(
      (error) => TaskwireError.isInstance(error) && error.code === 'timeout',
    );
    await expect(run).rejects.toThrow(
      /did not end within its deadline of 0\.3 s \(runTimeoutMs, --run-timeout\)/,
    );
    expect(performance.now() - startedAt).toBeLessThan(5000);
  });

  it('ends a run whose service answers the first requests and then hangs, saying how far it got', async () => {
    const service = checkedService();
    const hangsStreams: Send = (request) =>
      new URL(request.url).pathname.endsWith('/stream') && request.method === 'POST'
        ? new Promise((_, reject) => {
            request.signal.addEventListener('abort', () => reject(request.signal.reason as Error));
          })
        : service.fetch(request);
    const run = checkService({
      ...FAST,
      requestTimeoutMs: 60_000,
      runTimeoutMs: 1500,
      baseUrl: 'http://taskwire.test',
      fetch: hangsStreams,
    });
    await expect(run).rejects.toMatchObject({ code: 'timeout' });
    await expect(run).rejects.toThrow(/\d+ of \d+ checks had ended; the last was [a-z-]+\.[a-z-]+/);
  });

  it('refuses a deadline that is not a positive number', async () => {
    await expect(
      checkService({ ...FAST, runTimeoutMs: 0, baseUrl: 'http://taskwire.test' }),
    ).rejects.toThrow(/runTimeoutMs/);
  });

  it('escapes the control characters of a refusal it stops on, in the error it rejects with', async () => {
    const refusing: Send = () =>
      Promise.resolve(
        new Response(
          `{"status":"error","statusCode":401,"reason":"UNAUTHENTICATED","message":"${HOSTILE_TEXT}"}`,
          { status: 401, headers: { 'content-type': 'application/json' } },
        ),
      );
    const run = checkService({ ...FAST, baseUrl: 'http://taskwire.test', fetch: refusing });
    await expect(run).rejects.toMatchObject({ code: 'http', status: 401 });
    const error = (await run.catch((caught: unknown) => caught)) as Error;
    expect(error.message).toContain('\\x1B]52;c;');
    expect(error.message).not.toMatch(RAW_CONTROL);
  });
});
