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
  let message = '';
  if (id !== undefined) {
    if (/[\r\n\0]/.test(id)) throw new TypeError('An SSE id cannot hold CR, LF or NUL.');
    message += `id: ${id}\n`;
  }
  // Most data is one line (JSON escapes its line breaks): written as it is, with no split.
  if (!data.includes('\n') && !data.includes('\r')) return `${message}data: ${data}\n\n`;
  for (const line of data.split(/\r\n|\r|\n/)) message += `data: ${line}\n`;
  return `${message}\n`;
}
