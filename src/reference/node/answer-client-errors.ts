/**
 * Makes a `node:http` server answer the errors its own HTTP parser finds (`clientError`: a broken
 * request line, oversize headers, broken chunked encoding) with the protocol's JSON error body
 * (docs/protocol.md, "Error bodies") instead of node's bare text, so that a client gets the same
 * kind of answer whichever part of the server refused its request.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ServiceError } from '../service-error.js';
import { parserErrorAnswer, rawErrorAnswer } from './parser-error-answer.js';

/**
 * How long a connection stays open after its error answer, in milliseconds: closing it at once,
 * while the client may still be sending, could reset it before the client read the answer; keeping
 * it open longer would let a client that never closes hold a socket.
 */
const LINGER_MS = 5_000;

/** The last request a connection handed to the server, and its answer. */
interface Exchange {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

/** Sends `error` as the connection's last answer, then closes it; destroys one that cannot write. */
function answerAndClose(socket: Duplex, error: ServiceError): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(rawErrorAnswer(error));
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/**
 * Adds a `clientError` listener to `server` that answers each parser error with the JSON error body:
 * at once when nothing is being answered on that connection, or when the error is in the body of the
 * request being answered (its answer is then this one); after the answers already under way when the
 * error is in a later, pipelined request, so that answers stay in the order of their requests. A
 * connection that failed by itself (`ECONNRESET`), or cannot be written, is destroyed.
 */
export function answerClientErrors(server: Server): void {
  const exchanges = new WeakMap<Duplex, Exchange>();
  const answered = new WeakSet<Duplex>();
  server.on('request', (incoming: IncomingMessage, outgoing: ServerResponse) => {
    exchanges.set(incoming.socket, { incoming, outgoing });
  });
  server.on('clientError', (cause: NodeJS.ErrnoException, socket: Duplex) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    const exchange = exchanges.get(socket);
    const readingBody = exchange !== undefined && !exchange.incoming.complete;
    const error = parserErrorAnswer(cause.code, readingBody);
    const pending = exchange?.outgoing;
    if (error === undefined || (readingBody && pending?.headersSent === true)) {
      // Nobody to answer, or an answer already under way that another one cannot replace.
      socket.destroy();
    } else if (!readingBody && pending !== undefined && !pending.writableFinished) {
      pending.once('close', () => answerAndClose(socket, error));
    } else {
      answerAndClose(socket, error);
    }
  });
}
