/**
 * Raw HTTP/1.1 over `node:net` for the tests of what node's own parser sees: the bytes are sent as
 * written, with no client library to fix them up, and the answers are parsed here, byte for byte.
 */
import net from 'node:net';

/** One HTTP/1.1 answer: status, headers by lower-case name, and the body (de-chunked) as text. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What came back on a connection. */
export interface RawExchange {
  /** Every complete answer, in order. */
  answers: RawAnswer[];
  /** Whether the server closed the connection (rather than the test, once it had its answers). */
  closedByServer: boolean;
}

/** Options of {@link rawExchange}. */
export interface RawExchangeOptions {
  /** Wait for the server to close the connection, or for this many answers. Defaults to `'close'`. */
  until?: 'close' | number;
  /** The pause between two pieces, so that the server reads them apart. Defaults to `20`. */
  pauseMs?: number;
  /** How long to wait for it all, in milliseconds, before failing. Defaults to `5000`. */
  timeoutMs?: number;
}

/**
 * The answers in `bytes` (read as latin1, one character a byte): the complete ones, stopping at the
 * first that has not fully arrived.
 */
export function parseAnswers(bytes: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let offset = 0;
  for (;;) {
    const headEnd = bytes.indexOf('\r\n\r\n', offset);
    if (headEnd === -1) return answers;
    const [statusLine = '', ...lines] = bytes.slice(offset, headEnd).split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let cursor = headEnd + 4;
    let body = '';
    if (headers['transfer-encoding'] === 'chunked') {
      for (;;) {
        const sizeEnd = bytes.indexOf('\r\n', cursor);
        if (sizeEnd === -1) return answers;
        const size = Number.parseInt(bytes.slice(cursor, sizeEnd), 16);
        if (bytes.length < sizeEnd + 2 + size + 2) return answers;
        body += bytes.slice(sizeEnd + 2, sizeEnd + 2 + size);
        cursor = sizeEnd + 2 + size + 2;
        if (size === 0) break;
      }
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (bytes.length < cursor + length) return answers;
      body = bytes.slice(cursor, cursor + length);
      cursor += length;
    }
    answers.push({ status, headers, body: Buffer.from(body, 'latin1').toString('utf8') });
    offset = cursor;
  }
}

/**
 * Connects to `port` on loopback, writes `pieces` one after the other, and resolves with the answers
 * once the server closed the connection, or once `until` answers came.
 */
export function rawExchange(
  port: number,
  pieces: readonly string[],
  { until = 'close', pauseMs = 20, timeoutMs = 5000 }: RawExchangeOptions = {},
): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let bytes = '';
    let settled = false;
    const finish = (closedByServer: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ answers: parseAnswers(bytes), closedByServer });
    };
    const timer = setTimeout(() => {
      settled = true;
      socket.destroy();
      reject(
        new Error(`No end of the exchange within ${timeoutMs} ms; got ${bytes.slice(0, 300)}`),
      );
    }, timeoutMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      bytes += chunk;
      if (typeof until === 'number' && parseAnswers(bytes).length >= until) finish(false);
    });
    socket.on('end', () => finish(true));
    // A reset after the answer arrived still ends the exchange; the answers are what counts.
    socket.on('error', () => finish(true));
    void (async () => {
      for (const [index, piece] of pieces.entries()) {
        if (index > 0) await new Promise((wait) => setTimeout(wait, pauseMs));
        if (socket.destroyed) return;
        socket.write(piece, 'latin1');
      }
    })();
  });
}

/** The parsed JSON body of an answer. */
export function jsonOf(answer: RawAnswer | undefined): Record<string, unknown> {
  if (answer === undefined) throw new Error('No answer came.');
  return JSON.parse(answer.body) as Record<string, unknown>;
}
