/** Joins class names, skipping empty ones, so a caller's `className` adds to the component's own. */
export function classNames(...names: readonly (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}
