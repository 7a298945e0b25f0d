/**
 * A stable text for a JSON value: object members sorted by key at every depth, no spaces, so
 * `{a, b}` and `{b, a}` give the same text. Used to tell whether two calls carry the same params
 * (the hooks' deduplication, the reference service's `Idempotency-Key` comparison).
 */

/** The canonical JSON text of `value` (object members sorted by key; `undefined` members left out). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  }
  // Built as text, never as an object: a `__proto__` member stays a member.
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined) continue;
    members.push(`${JSON.stringify(key)}:${canonicalJson(member)}`);
  }
  return `{${members.join(',')}}`;
}
