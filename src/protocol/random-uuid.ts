/**
 * Random ids for idempotency keys and the like, from `crypto.getRandomValues`, which every browser
 * and Node offer on any origin; `crypto.randomUUID` exists only in secure contexts, so a page served
 * over plain http from a LAN address would throw (docs/protocol.md, "Idempotency").
 */

/** A random version 4 UUID (`xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx`, N one of 8, 9, a, b). */
export function randomUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  // Version 4 in the high nibble of byte 6, the variant bits 10 in the top of byte 8 (RFC 9562).
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
