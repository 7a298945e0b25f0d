/**
 * A Web Storage stand-in backed by a Map, which a test can read, spoil and hand to several journal
 * objects in turn, as sessionStorage outlives a reload. Like a Web Storage area it lists its keys
 * (`length`, `key(index)`), and it keeps every value ever written (`writes`), so a test can say
 * that something never reached the storage, not only that it is gone now.
 */
export function mapStorage() {
  const values = new Map<string, string>();
  const writes: string[] = [];
  return {
    values,
    writes,
    get length() {
      return values.size;
    },
    key: (index: number) => [...values.keys()][index] ?? null,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => {
      writes.push(value);
      values.set(key, value);
    },
    removeItem: (key: string) => void values.delete(key),
  };
}
