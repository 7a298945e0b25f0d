/**
 * How taskwire-check reads an answer whole: at most 1 MiB of it, with the one capped reader of
 * src/protocol, so that no service can make a run hold more (docs/checking-your-service.md).
 */
import { readCappedBody } from '../protocol/read-limited-body.js';

/**
 * The most of one answer or one stream a check reads: 1 MiB is more than any answer of the
 * protocol needs, and a service cannot make a run hold more (docs/checking-your-service.md).
 */
export const MAX_CAPTURED_BYTES = 1024 * 1024;

/** What a check says of an answer or stream past {@link MAX_CAPTURED_BYTES}. */
export const TOO_LARGE =
  'larger than 1 MiB, more than the protocol needs: taskwire-check read no further';

/**
 * Reads an answer's body as text, at most {@link MAX_CAPTURED_BYTES} of it; a larger one is
 * cancelled there. Every answer a check reads whole is read with it, so no service can make a run
 * hold more.
 */
export async function readText(response: Response): Promise<{ text: string; tooLarge: boolean }> {
  const { bytes, cut } = await readCappedBody(response.body, MAX_CAPTURED_BYTES);
  return { text: new TextDecoder().decode(bytes), tooLarge: cut };
}
