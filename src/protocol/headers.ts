/**
 * The rules of the request headers (docs/protocol.md, "Headers and tokens"), written once for the
 * reference service that refuses a header breaking them, the server proxy that checks the tokens
 * and labels it adds, and the OpenAPI document that shows them: the two bearer tokens,
 * `platform` and `x-touchpoint`, and `Idempotency-Key`. `Last-Event-ID` carries a position
 * (resumable-streams.ts).
 */
import * as z from 'zod/mini';

/** What a token holds: visible ASCII and no spaces, so that `Bearer <token>` carries it as it is. */
const TOKEN_PATTERN = /^[\x21-\x7e]+$/;

/** `Bearer` in any case, spaces, then the rest of the value: the token. */
const BEARER_PATTERN = /^Bearer +(.*)$/i;

/** The rule of `platform` and `x-touchpoint`. */
const CLIENT_LABEL_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** The rule of `Idempotency-Key`: 1 to 255 visible ASCII characters (`0x21`–`0x7E`). */
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Whether `token` can be sent as `Bearer <token>` as it is: visible ASCII, no spaces. */
export function isBearerToken(token: unknown): token is string {
  return typeof token === 'string' && TOKEN_PATTERN.test(token);
}

/** The token of a `Bearer <token>` header value, or `undefined` when the value has no such shape. */
export function bearerToken(value: string | null): string | undefined {
  if (value === null) return undefined;
  const token = BEARER_PATTERN.exec(value.trim())?.[1];
  return isBearerToken(token) ? token : undefined;
}

/** A `platform` or `x-touchpoint` value: 1 to 64 characters of `[A-Za-z0-9._-]`. */
export const clientLabelSchema = z.string().check(z.regex(CLIENT_LABEL_PATTERN));

/** Whether `value` may be sent as `platform` or `x-touchpoint`. */
export function isClientLabel(value: unknown): value is string {
  return typeof value === 'string' && CLIENT_LABEL_PATTERN.test(value);
}

/** An `Idempotency-Key` value: 1 to 255 visible ASCII characters. */
export const idempotencyKeySchema = z.string().check(z.regex(IDEMPOTENCY_KEY_PATTERN));

/** Whether `value` may be sent as `Idempotency-Key`. */
export function isIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && IDEMPOTENCY_KEY_PATTERN.test(value);
}
