/**
 * A stable text for a JSON value: object keys sorted at every depth, so `{a, b}` and `{b, a}` give
 * the same text. Used to tell whether two calls carry the same params.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (member === null || typeof member !== 'object' || Array.isArray(member)) return member;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(member).sort())
      sorted[key] = (member as Record<string, unknown>)[key];
    return sorted;
  });
}
