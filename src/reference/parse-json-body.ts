/**
 * Turns the bytes of a POST body into `{ params, notification }`, refusing everything that is not a
 * well-formed, reasonably shallow JSON object with 400 `MALFORMED_BODY`.
 *
 * Safety: the text is decoded with a fatal UTF-8 decoder (invalid bytes are refused, never replaced);
 * its nesting depth is measured by a linear scan before `JSON.parse` sees it, so a 100k-deep body
 * costs one pass and never reaches a recursive parser or validator; `JSON.parse` turns a `"__proto__"`
 * key into an ordinary own property, and nothing here copies parsed members into other objects, so
 * the prototype of no object can be changed through a body.
 */
import { ServiceError } from './service-error.js';

/** How deeply objects and arrays may nest in a body; deeper bodies are refused with 400. */
export const MAX_JSON_DEPTH = 64;

/** A parsed POST body: its `params` object and its raw `notification`, when present. */
export interface ParsedBody {
  /** The `params` member: a JSON object, not yet checked against the task's schema. */
  params: Record<string, unknown>;
  /** The `notification` member as sent, or `undefined` when absent. */
  notification: unknown;
}

function malformed(message: string): ServiceError {
  return new ServiceError(400, 'MALFORMED_BODY', message);
}

/** The deepest nesting of `[` and `{` outside strings in `text`, stopping once past `limit`. */
export function jsonNestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c /* \ */) index += 1;
      else if (code === 0x22 /* " */) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b /* [ */ || code === 0x7b /* { */) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (code === 0x5d /* ] */ || code === 0x7d /* } */) {
      depth -= 1;
    }
  }
  return deepest;
}

/** Whether `value` is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Decodes and parses a POST body that must be a JSON object; throws a 400 {@link ServiceError} for
 * anything malformed.
 */
export function parseJsonObject(bytes: Uint8Array): Record<string, unknown> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw malformed('The body is not valid UTF-8.');
  }
  if (jsonNestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw malformed(`The body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // A SyntaxError, or a RangeError from an engine limit: either way the body is not usable JSON.
    throw malformed('The body is not valid JSON.');
  }
  if (!isJsonObject(body)) throw malformed('The body must be a JSON object.');
  return body;
}

/** Decodes and parses a task's POST body; throws a 400 {@link ServiceError} for anything malformed. */
export function parseJsonBody(bytes: Uint8Array): ParsedBody {
  const body = parseJsonObject(bytes);
  const params = Object.hasOwn(body, 'params') ? body.params : undefined;
  if (!isJsonObject(params)) throw malformed('The body must have a `params` object.');
  const notification = Object.hasOwn(body, 'notification') ? body.notification : undefined;
  return { params, notification };
}
