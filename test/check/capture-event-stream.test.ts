/**
 * The stream reader of the checks: messages, ids and comments as the client's parser reads them, in
 * any chunking, and a last message cut off before its blank line.
 */
import { describe, expect, it } from 'vitest';
import { captureEventStream, typeOf } from '../../src/check/capture-event-stream.js';

function bodyOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

const limits = { closeWithinMs: 1000, maxDurationMs: 5000, maxBytes: 1024 * 1024 };

describe('captureEventStream', () => {
  it('reads messages, their ids and comments in any chunking and line ending', async () => {
    const captured = await captureEventStream(
      bodyOf(
        ': keep-alive\r\n\r\nid: 7f0',
        '1\r\ndata: {"type":"event.frame",\ndata: "frame":1}\n\nda',
        'ta: {"type":"task.completed","result":null}\r\r',
      ),
      limits,
    );
    expect(captured.messages.map((message) => [typeOf(message), message.id])).toEqual([
      ['event.frame', '7f01'],
      ['task.completed', undefined],
    ]);
    expect(captured.messages[0]!.data).toBe('{"type":"event.frame",\n"frame":1}');
    expect(captured.comments.map((comment) => comment.text)).toEqual(['keep-alive']);
    expect(captured).toMatchObject({ end: 'closed', unterminated: false });
    expect(captured.finalAt).toBe(captured.messages[1]!.at);
  });

  it('tells a last message without its blank line apart', async () => {
    const captured = await captureEventStream(
      bodyOf('data: {"type":"task.progress","percent":1,"estimatedSecondsLeft":1}\n\ndata: {"ty'),
      limits,
    );
    expect(captured.messages).toHaveLength(1);
    expect(captured.unterminated).toBe(true);

    // A CRLF split between two chunks is one line end, not a blank line.
    const split = await captureEventStream(bodyOf('data: {"type":"task.x"}\r', '\n'), limits);
    expect(split).toMatchObject({ messages: [], unterminated: true });
    const whole = await captureEventStream(bodyOf('data: {"type":"task.x"}\r', '\n\r\n'), limits);
    expect(whole.messages).toHaveLength(1);
    expect(whole.unterminated).toBe(false);
  });

  it('gives up on a body that stays open after its final event', async () => {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('data: {"type":"task.failed","result":{}}\n\n'));
      },
    });
    const captured = await captureEventStream(body, { ...limits, closeWithinMs: 50 });
    expect(captured.end).toBe('still-open');
    expect(captured.messages).toHaveLength(1);
  });
});
