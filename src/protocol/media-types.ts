/**
 * The media types of the wire, read from a `Content-Type` value with its parameters aside: JSON for
 * every answer but a stream (docs/protocol.md, "Error bodies"), `text/event-stream` for a stream
 * (docs/protocol.md, "Streams"), and JSON in UTF-8 for the body of every POST (docs/protocol.md,
 * "Headers and tokens").
 */

/** The media type of a stream's answer, and of what its reader accepts. */
export const EVENT_STREAM = 'text/event-stream';

/** The media type of a `Content-Type` value, in lower case and without parameters; `''` for none. */
export function mediaTypeOf(contentType: string | null): string {
  if (contentType === null) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** Whether a `Content-Type` is JSON: `application/json`, or a `+json` type such as `application/problem+json`. */
export function isJsonMediaType(contentType: string | null): boolean {
  return /^application\/(?:[\w.-]+\+)?json$/.test(mediaTypeOf(contentType));
}

/** Whether a `Content-Type` is `text/event-stream`, the media type of a stream. */
export function isEventStreamMediaType(contentType: string | null): boolean {
  return mediaTypeOf(contentType) === EVENT_STREAM;
}

/**
 * Whether a request's `Content-Type` is the one every POST must have (docs/protocol.md, "Headers and
 * tokens"): `application/json`, in any case, with a `charset` parameter, if any, of UTF-8.
 */
export function isJsonRequestContentType(contentType: string | null): boolean {
  if (mediaTypeOf(contentType) !== 'application/json') return false;
  const parameters = (contentType ?? '').split(';').slice(1);
  return parameters.every((parameter) => {
    const [name = '', value = ''] = parameter.split('=').map((part) => part.trim());
    return name.toLowerCase() !== 'charset' || /^"?utf-8"?$/i.test(value);
  });
}
