import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { defineTask } from '../../src/reference/index.js';
import { AUTH, BASE, post, waitForEnd } from './service-requests.js';
import { openService } from './open-service.js';

function rawPost(body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request(`${BASE}/workflows/echo/submit`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
}

async function reasonOf(response: Response): Promise<string> {
  return ((await response.json()) as { reason: string }).reason;
}

describe('body parsing', () => {
  it('answers 400 MALFORMED_BODY for bodies that are not a JSON object with a params object', async () => {
    const service = openService();
    for (const body of [
      '',
      '{',
      'not json',
      'null',
      '[]',
      '[{"params":{}}]',
      '"params"',
      '42',
      '{}',
      '{"params":null}',
      '{"params":[]}',
      '{"params":"x"}',
      '{"params":{}} trailing',
      '{"params":{"message":"x",}}',
    ]) {
      const response = await service.fetch(rawPost(body));
      expect(response.status, body).toBe(400);
      expect(await reasonOf(response), body).toBe('MALFORMED_BODY');
    }
  });

  it('refuses 100k-deep nesting with 400, without a crash or a stack overflow', async () => {
    const service = openService();
    const depth = 100_000;
    const arrays = `{"params":{"message":"x","deep":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    const objects = `{"params":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    const unclosed = `{"params":${'['.repeat(depth)}`;
    for (const body of [arrays, objects, unclosed]) {
      const response = await service.fetch(rawPost(body));
      expect(response.status).toBe(400);
      expect(await reasonOf(response)).toBe('MALFORMED_BODY');
    }
    // Brackets inside strings are text, not nesting.
    const inString = JSON.stringify({ params: { message: '[{'.repeat(4000) } });
    expect((await service.fetch(rawPost(inString))).status).toBe(202);
  });

  it('turns a RangeError from a params schema into 400, not 500', async () => {
    const deep = defineTask({
      name: 'echo',
      params: z.object({}).check(
        z.refine(() => {
          throw new RangeError('Maximum call stack size exceeded');
        }),
      ),
      run: () => null,
    });
    const service = openService({ tasks: [deep] });
    const response = await service.fetch(rawPost('{"params":{}}'));
    expect(response.status).toBe(400);
    expect(await reasonOf(response)).toBe('MALFORMED_BODY');
  });

  it('answers 500 INTERNAL without a stack for any other failure inside the service', async () => {
    const broken = defineTask({
      name: 'echo',
      params: z.object({}).check(
        z.refine(() => {
          throw new Error('boom at /srv/secret.ts:1');
        }),
      ),
      run: () => null,
    });
    const service = openService({ tasks: [broken] });
    const response = await service.fetch(rawPost('{"params":{}}'));
    expect(response.status).toBe(500);
    const body = (await response.json()) as { reason: string; message: string };
    expect(body.reason).toBe('INTERNAL');
    expect(body.message).not.toMatch(/boom|srv|at /);
  });

  it('refuses invalid UTF-8 with 400 instead of replacing it', async () => {
    const service = openService();
    const prefix = new TextEncoder().encode('{"params":{"message":"');
    const suffix = new TextEncoder().encode('"}}');
    for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xe2, 0x28, 0xa1]]) {
      const bytes = new Uint8Array([...prefix, ...bad, ...suffix]);
      const response = await service.fetch(rawPost(bytes));
      expect(response.status).toBe(400);
      expect(await reasonOf(response)).toBe('MALFORMED_BODY');
    }
  });

  it('accepts a UTF-8 byte order mark and multi-byte text', async () => {
    const service = openService({ timeScale: 0.001 });
    const text = new TextEncoder().encode('\uFEFF{"params":{"message":"héllo 💩"}}');
    const response = await service.fetch(rawPost(text));
    expect(response.status).toBe(202);
    const { response: answer } = (await response.json()) as { response: { id: string } };
    const record = await waitForEnd(service, 'echo', answer.id);
    expect(record.result).toEqual({ echo: 'héllo 💩' });
  });

  it('never lets __proto__ or constructor keys change a prototype', async () => {
    const service = openService({ timeScale: 0.001 });
    const body =
      '{"__proto__":{"polluted":"body"},"constructor":{"prototype":{"polluted":"ctor"}},' +
      '"params":{"message":"x","__proto__":{"polluted":"params"}},' +
      '"notification":{"__proto__":{"polluted":"notification"},"enabled":true}}';
    const response = await service.fetch(rawPost(body, { 'idempotency-key': 'proto' }));
    expect(response.status).toBe(202);
    const again = await service.fetch(rawPost(body, { 'idempotency-key': 'proto' }));
    expect(again.status).toBe(202);
    const { response: answer } = (await response.json()) as { response: { id: string } };
    const record = await waitForEnd(service, 'echo', answer.id);
    expect(record.result).toEqual({ echo: 'x' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
    // The task reports what it was given: a params object whose prototype a `__proto__` key had
    // replaced would show `polluted` without any own key holding it.
    const proto = defineTask({
      name: 'echo',
      params: z.record(z.string(), z.unknown()),
      run: (_context, params) => ({
        plainPrototype: Object.getPrototypeOf(params) === Object.prototype,
        polluted: 'polluted' in params,
      }),
    });
    const protoService = openService({ tasks: [proto] });
    const recordTask = await protoService.fetch(rawPost('{"params":{"__proto__":{"polluted":1}}}'));
    expect(recordTask.status).toBe(202);
    const { response: recordAnswer } = (await recordTask.json()) as { response: { id: string } };
    const recordRun = await waitForEnd(protoService, 'echo', recordAnswer.id);
    expect(recordRun.result).toEqual({ plainPrototype: true, polluted: false });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers 422 INVALID_PARAMS naming the first bad field', async () => {
    const service = openService();
    const response = await post(service, '/workflows/render-video/submit', {
      params: { frames: 501 },
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { reason: string; message: string };
    expect(body.reason).toBe('INVALID_PARAMS');
    expect(body.message).toContain('frames');
    const missing = await post(service, '/workflows/echo/submit', { params: {} });
    expect(((await missing.json()) as { message: string }).message).toContain('message');
  });
});

describe('body size limit', () => {
  it('refuses a declared Content-Length over the limit without reading the body', async () => {
    const service = openService({ limits: { bodyBytes: 1024 } });
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        controller.enqueue(new Uint8Array(512));
      },
    });
    const response = await service.fetch(rawPost(body, { 'content-length': '5000' }));
    expect(response.status).toBe(413);
    expect(await reasonOf(response)).toBe('PAYLOAD_TOO_LARGE');
    // The stream's start may have primed one pull; none was needed to decide.
    expect(pulls).toBeLessThanOrEqual(1);
  });

  it('stops reading a chunked body without Content-Length once it passes the limit', async () => {
    const service = openService({ limits: { bodyBytes: 1024 * 1024 } });
    let pulls = 0;
    let cancelled = false;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = rawPost(endless);
    expect(request.headers.get('content-length')).toBeNull();
    const response = await service.fetch(request);
    expect(response.status).toBe(413);
    expect(await reasonOf(response)).toBe('PAYLOAD_TOO_LARGE');
    // 1 MiB is 16 chunks of 64 KiB; the 17th passes the limit. A few more may be buffered ahead.
    expect(pulls).toBeGreaterThanOrEqual(17);
    expect(pulls).toBeLessThan(24);
    expect(cancelled).toBe(true);
  });

  it('accepts a body of exactly the limit', async () => {
    const body = JSON.stringify({ params: { message: 'x' } });
    const exact = new TextEncoder().encode(body).byteLength;
    const service = openService({ limits: { bodyBytes: exact }, timeScale: 0.001 });
    expect((await service.fetch(rawPost(body))).status).toBe(202);
    expect((await service.fetch(rawPost(`${body} `))).status).toBe(413);
  });

  it('defaults to 1 MiB', async () => {
    const service = openService({ timeScale: 0.001 });
    const fits = JSON.stringify({ params: { message: 'x'.repeat(10_000) } }).padEnd(
      1024 * 1024,
      ' ',
    );
    expect((await service.fetch(rawPost(fits))).status).toBe(202);
    expect((await service.fetch(rawPost(`${fits} `))).status).toBe(413);
  });

  it('answers 400 when the body breaks off while being read', async () => {
    const service = openService();
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"params":'));
        controller.error(new Error('connection reset'));
      },
    });
    const response = await service.fetch(rawPost(broken));
    expect(response.status).toBe(400);
    expect(await reasonOf(response)).toBe('MALFORMED_BODY');
  });
});
