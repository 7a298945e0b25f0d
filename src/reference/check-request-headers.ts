/**
 * The header rules of docs/protocol.md, "Headers and tokens": both bearer tokens, the optional
 * `platform` and `x-touchpoint`, the optional `Idempotency-Key`, and the JSON content type of a
 * POST. No message ever repeats a header's value, so a token cannot leak through an error body.
 */
import { bearerToken, isClientLabel, isIdempotencyKey } from '../protocol/headers.js';
import { isJsonRequestContentType } from '../protocol/media-types.js';
import { ServiceError } from './service-error.js';

/**
 * The user id that the request's two tokens authenticate; throws 401 when a token is missing,
 * malformed or unknown.
 */
export function authenticate(
  headers: Headers,
  clientTokens: ReadonlySet<string>,
  userTokens: ReadonlyMap<string, string>,
): string {
  const clientToken = bearerToken(headers.get('x-app-authorization'));
  if (clientToken === undefined || !clientTokens.has(clientToken)) {
    throw new ServiceError(
      401,
      'UNAUTHENTICATED',
      'The x-app-authorization header must be `Bearer <client token>` with a known client token.',
    );
  }
  const userToken = bearerToken(headers.get('authorization'));
  const userId = userToken === undefined ? undefined : userTokens.get(userToken);
  if (userId === undefined) {
    throw new ServiceError(
      401,
      'UNAUTHENTICATED',
      'The Authorization header must be `Bearer <user token>` with a known user token.',
    );
  }
  return userId;
}

/**
 * Checks `platform`, `x-touchpoint` and (on Submit) `Idempotency-Key`; returns the idempotency key,
 * or `undefined` when none was sent.
 */
export function checkOptionalHeaders(
  headers: Headers,
  readsIdempotencyKey: boolean,
): string | undefined {
  for (const name of ['platform', 'x-touchpoint']) {
    const value = headers.get(name);
    if (value !== null && !isClientLabel(value)) {
      throw new ServiceError(
        400,
        'INVALID_HEADER',
        `The ${name} header must be 1 to 64 characters of A-Z, a-z, 0-9, '.', '_' or '-'.`,
      );
    }
  }
  if (!readsIdempotencyKey) return undefined;
  const key = headers.get('idempotency-key');
  if (key === null) return undefined;
  if (!isIdempotencyKey(key)) {
    throw new ServiceError(
      400,
      'INVALID_HEADER',
      'The Idempotency-Key header must be 1 to 255 visible ASCII characters.',
    );
  }
  return key;
}

/** Throws 415 unless the request declares `application/json` (with at most a UTF-8 charset). */
export function checkJsonContentType(headers: Headers): void {
  if (!isJsonRequestContentType(headers.get('content-type'))) {
    throw new ServiceError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'A POST must have `Content-Type: application/json` (UTF-8).',
    );
  }
}
