/**
 * Writing server-sent events (docs/protocol.md, "Streams"): one message, and the keep-alive
 * comment. Shared by the reference service's stream and the reads of the event log.
 */

/** The comment sent when a stream has been silent. */
export const KEEP_ALIVE_COMMENT = ': keep-alive\n\n';

/**
 * One SSE message: an `id:` line when given, then one `data:` line per line of `data` (so a value
 * with line breaks survives), then a blank line.
 */
export function formatServerSentEvent(data: string, id?: string): string {
  if (id !== undefined && /[\r\n\0]/.test(id)) {
    throw new TypeError('An SSE id cannot hold CR, LF or NUL.');
  }
  const head = id === undefined ? '' : `id: ${id}\n`;
  // Most data is one line (JSON escapes its line breaks): written as it is, in one template (a
  // relay writes one per message; building it piece by piece took twice as long).
  if (data.indexOf('\n') === -1 && data.indexOf('\r') === -1) return `${head}data: ${data}\n\n`;
  let message = head;
  for (const line of data.split(/\r\n|\r|\n/)) message += `data: ${line}\n`;
  return `${message}\n`;
}
