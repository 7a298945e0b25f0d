import { afterEach, describe, expect, it } from 'vitest';
import { parserErrorAnswer } from '../../src/reference/node/parser-error-answer.js';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/node/index.js';
import { jsonOf, type RawAnswer, rawExchange } from './raw-http.js';

let server: ReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const AUTH_LINES =
  'authorization: Bearer demo-user-token\r\nx-app-authorization: Bearer demo-client-token\r\n';

/** A fresh reference server on loopback, and its port. */
async function listen(): Promise<number> {
  server = await startReferenceServer();
  return Number(new URL(server.url).port);
}

/** Checks that `answer` is a whole JSON error answer of `status` and `reason`, closing the connection. */
function expectJsonError(answer: RawAnswer | undefined, status: number, reason: string): void {
  expect(answer?.status).toBe(status);
  expect(answer?.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer?.headers.connection).toBe('close');
  expect(jsonOf(answer)).toEqual({
    status: 'error',
    statusCode: status,
    reason,
    message: expect.any(String),
  });
}

describe("startReferenceServer, on errors of node's HTTP parser", () => {
  it('answers a broken chunked body with 400 MALFORMED_BODY as JSON and closes the connection', async () => {
    const port = await listen();
    const { answers, closedByServer } = await rawExchange(port, [
      `POST /workflows/echo/submit HTTP/1.1\r\nhost: x\r\n${AUTH_LINES}` +
        'content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n',
      '5\r\n{"par\r\n',
      'zz\r\nnot a chunk size\r\n0\r\n\r\n',
    ]);
    expect(answers).toHaveLength(1);
    expectJsonError(answers[0], 400, 'MALFORMED_BODY');
    expect(closedByServer).toBe(true);
  });

  it('answers a Content-Length that is no number with 400 MALFORMED_BODY as JSON', async () => {
    const port = await listen();
    const { answers } = await rawExchange(port, [
      `POST /workflows/echo/submit HTTP/1.1\r\nhost: x\r\ncontent-length: ten\r\n\r\n`,
    ]);
    expectJsonError(answers[0], 400, 'MALFORMED_BODY');
  });

  it('answers headers past node’s size limit with 431 INVALID_HEADER as JSON', async () => {
    const port = await listen();
    const { answers, closedByServer } = await rawExchange(port, [
      `GET /workflows/echo/x/result HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
    ]);
    expect(answers).toHaveLength(1);
    expectJsonError(answers[0], 431, 'INVALID_HEADER');
    expect(closedByServer).toBe(true);
  });

  it('answers a malformed header name with 400 INVALID_HEADER as JSON', async () => {
    const port = await listen();
    const { answers } = await rawExchange(port, [
      'GET /workflows/echo/x/result HTTP/1.1\r\nhost: x\r\nbad header: 1\r\n\r\n',
    ]);
    expectJsonError(answers[0], 400, 'INVALID_HEADER');
  });

  it.each([
    ['an unknown method', 'HELLO /workflows/echo/submit HTTP/1.1'],
    ['a space inside the target', 'GET /workflows/echo/x y/result HTTP/1.1'],
    ['an unknown HTTP version', 'GET /workflows/echo/x/result HTTP/7.0'],
  ])('answers a request line with %s with 400 MALFORMED_REQUEST as JSON', async (_, line) => {
    const port = await listen();
    const { answers, closedByServer } = await rawExchange(port, [`${line}\r\nhost: x\r\n\r\n`]);
    expect(answers).toHaveLength(1);
    expectJsonError(answers[0], 400, 'MALFORMED_REQUEST');
    expect(closedByServer).toBe(true);
  });

  it('answers a malformed pipelined request after the answer to the request before it', async () => {
    const port = await listen();
    const { answers, closedByServer } = await rawExchange(port, [
      `GET /workflows/echo/unknown-id/result HTTP/1.1\r\nhost: x\r\n${AUTH_LINES}\r\n` +
        'HELLO / HTTP/1.1\r\nhost: x\r\n\r\n',
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([404, 400]);
    expect(jsonOf(answers[0]).reason).toBe('RESULT_NOT_FOUND');
    expectJsonError(answers[1], 400, 'MALFORMED_REQUEST');
    expect(closedByServer).toBe(true);
  });

  it('keeps serving other connections after a parser error', async () => {
    const port = await listen();
    await rawExchange(port, ['HELLO / HTTP/1.1\r\n\r\n']);
    const { answers } = await rawExchange(
      port,
      [`GET /workflows/echo/unknown-id/result HTTP/1.1\r\nhost: x\r\n${AUTH_LINES}\r\n`],
      { until: 1 },
    );
    expect(answers[0]?.status).toBe(404);
  });
});

describe('parserErrorAnswer', () => {
  it('answers a request that took too long to arrive with 408 REQUEST_TIMEOUT', () => {
    const error = parserErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT', false);
    expect([error?.statusCode, error?.reason]).toEqual([408, 'REQUEST_TIMEOUT']);
  });

  it('answers nothing to a connection that failed by itself', () => {
    expect(parserErrorAnswer('ECONNRESET', false)).toBeUndefined();
    expect(parserErrorAnswer(undefined, true)).toBeUndefined();
  });

  it('reads any parser error while a body is being read as an error in that body', () => {
    expect(parserErrorAnswer('HPE_CR_EXPECTED', true)?.reason).toBe('MALFORMED_BODY');
    expect(parserErrorAnswer('HPE_CR_EXPECTED', false)?.reason).toBe('MALFORMED_REQUEST');
  });

  it('answers oversize chunk extensions with 413 PAYLOAD_TOO_LARGE, as node does', () => {
    const error = parserErrorAnswer('HPE_CHUNK_EXTENSIONS_OVERFLOW', true);
    expect([error?.statusCode, error?.reason]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });
});
