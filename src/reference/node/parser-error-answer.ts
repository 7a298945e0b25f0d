/**
 * What to answer for an error that node's own HTTP parser finds before, or while, a request reaches
 * the handler (a broken request line, oversize headers, broken chunked encoding): the protocol's
 * JSON error body (docs/protocol.md, "Error bodies"), written as a whole HTTP/1.1 answer, since such
 * an error has no `ServerResponse` to write it with.
 */
import { STATUS_CODES } from 'node:http';
import { JSON_HEADERS, errorBody } from '../json-response.js';
import { ServiceError } from '../service-error.js';

/** Parser errors about how the body is framed: its length or its chunked encoding. */
const BODY_FRAMING_CODES: ReadonlySet<string> = new Set([
  'HPE_INVALID_CHUNK_SIZE',
  'HPE_INVALID_CONTENT_LENGTH',
  'HPE_UNEXPECTED_CONTENT_LENGTH',
  'HPE_INVALID_TRANSFER_ENCODING',
  'HPE_INVALID_EOF_STATE',
]);

/** Parser errors in the request line: its method, target or version. */
const REQUEST_LINE_CODES: ReadonlySet<string> = new Set([
  'HPE_INVALID_METHOD',
  'HPE_INVALID_URL',
  'HPE_INVALID_VERSION',
  'HPE_INVALID_CONSTANT',
]);

/**
 * The error to answer for node's client error `code`, or `undefined` when it is a failure of the
 * connection itself (`ECONNRESET`), which nobody would read an answer to. `readingBody` says that a
 * request's headers were already handed on and its body was being read: any parser error then is
 * in that body.
 */
export function parserErrorAnswer(
  code: string | undefined,
  readingBody: boolean,
): ServiceError | undefined {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new ServiceError(408, 'REQUEST_TIMEOUT', 'The request took too long to arrive.');
  }
  if (code === undefined || !code.startsWith('HPE_')) return undefined;
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ServiceError(431, 'INVALID_HEADER', 'The request headers are too large.');
  }
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') {
    return new ServiceError(413, 'PAYLOAD_TOO_LARGE', 'The chunk extensions are too large.');
  }
  if (readingBody || BODY_FRAMING_CODES.has(code)) {
    return new ServiceError(
      400,
      'MALFORMED_BODY',
      'The body is not framed as HTTP/1.1 requires: a broken chunked encoding or length.',
    );
  }
  if (code === 'HPE_INVALID_HEADER_TOKEN') {
    return new ServiceError(400, 'INVALID_HEADER', 'A request header is malformed.');
  }
  if (REQUEST_LINE_CODES.has(code)) {
    return new ServiceError(400, 'MALFORMED_REQUEST', 'The request line is not valid HTTP/1.1.');
  }
  return new ServiceError(400, 'MALFORMED_REQUEST', 'The request is not valid HTTP/1.1.');
}

/**
 * The whole HTTP/1.1 answer carrying `error`'s JSON error body, with `connection: close`, since the
 * parser cannot find where the next request would start.
 */
export function rawErrorAnswer(error: ServiceError): string {
  const body = JSON.stringify(errorBody(error));
  const headers = {
    ...JSON_HEADERS,
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  return [
    `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode] ?? 'Error'}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    '',
    body,
  ].join('\r\n');
}
