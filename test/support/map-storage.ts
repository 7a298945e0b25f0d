/**
 * A Web Storage stand-in backed by a Map, which a test can read, spoil and hand to several journal
 * objects in turn, as sessionStorage outlives a reload.
 */
export function mapStorage() {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
}
