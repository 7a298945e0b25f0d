/**
 * The fingerprint of a Submit's body for its `Idempotency-Key` (docs/protocol.md, "Idempotency"):
 * the SHA-256 digest of the canonical JSON of its `params` and `notification`, so that two bodies
 * that differ only in the order of their members, or in a `notification` of `null` rather than
 * none, have the same fingerprint, and the idempotency store keeps 64 characters, not the body.
 */
import { canonicalJson } from '../protocol/canonical-json.js';
import type { ParsedBody } from './parse-json-body.js';

/** The SHA-256 digest of the canonical `params` and `notification` of `body`, in lower-case hex. */
export async function submitFingerprint(body: ParsedBody): Promise<string> {
  const canonical = canonicalJson({ params: body.params, notification: body.notification ?? null });
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
