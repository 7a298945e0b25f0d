/**
 * A canonical JSON text of a value: object keys sorted, no spaces. Two bodies that mean the same
 * (members in another order) give the same text, which is what an `Idempotency-Key` compares.
 */

/** The canonical JSON text of `value` (object members sorted by key; `undefined` members left out). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined) continue;
    members.push(`${JSON.stringify(key)}:${canonicalJson(member)}`);
  }
  return `{${members.join(',')}}`;
}
