/**
 * Development-only warnings for invalid props (the Radix progress style: say what was wrong and what
 * is rendered instead, then render the default rather than throw).
 */

/**
 * Whether this is a development build. Bundlers replace `process.env.NODE_ENV` with a string, so a
 * production bundle drops the warnings; where there is no `process` at all (an unbundled browser
 * import) the environment is unknown, and staying quiet is the safe side.
 */
function isDevelopment(): boolean {
  try {
    return process.env.NODE_ENV !== 'production';
  } catch {
    return false;
  }
}

/** Logs, in development only, that `component` got an invalid `prop` and renders `fallback` instead. */
export function warnInvalidProp(
  component: string,
  prop: string,
  value: unknown,
  fallback: string,
): void {
  if (!isDevelopment()) return;
  let shown: string;
  try {
    shown = typeof value === 'string' ? `'${value}'` : String(JSON.stringify(value) ?? value);
  } catch {
    shown = String(value);
  }
  console.error(
    `Invalid prop \`${prop}\` of value \`${shown}\` supplied to \`${component}\`; rendering ${fallback} instead.`,
  );
}
