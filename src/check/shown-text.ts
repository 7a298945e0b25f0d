/**
 * What the checks show of text they did not write (docs/checking-your-service.md, "What it never
 * shows"): a service's answers and a user's secrets pass through here before they reach a report,
 * so a hostile or broken service cannot write to the terminal, and no secret is ever printed, not
 * even a part of one cut off at the end of an excerpt. Durations are written here too, one way.
 */

/**
 * A secret's value and the shell variable that stands for it in everything shown: a token
 * (`$TASKWIRE_USER_TOKEN`, `$TASKWIRE_CLIENT_TOKEN`, `$TASKWIRE_OTHER_USER_TOKEN`) or the value of a
 * header given with `--header` (`$TASKWIRE_HEADER_<NAME>`).
 */
export interface Secret {
  value: string;
  variable: `$TASKWIRE_${string}`;
}

/** `text` with every secret's value replaced by its variable, the longest values first. */
export function redact(text: string, secrets: readonly Secret[]): string {
  let redacted = text;
  for (const { value, variable } of [...secrets].sort((a, b) => b.value.length - a.value.length)) {
    if (value !== '') redacted = redacted.split(value).join(variable);
  }
  return redacted;
}

/**
 * Characters a terminal acts on instead of showing: C0 controls (line ends and ESC among them), DEL,
 * C1 controls (U+009B is a CSI by itself), the Unicode line separators, and the bidirectional
 * overrides that make text read otherwise than it is.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(character: string): string {
  const named = NAMED[character];
  if (named !== undefined) return named;
  const code = character.charCodeAt(0);
  const hex = code.toString(16).toUpperCase();
  return code <= 0xff ? `\\x${hex.padStart(2, '0')}` : `\\u${hex.padStart(4, '0')}`;
}

/**
 * `text` with every control character written out as an escape (`\x1B`, `\r`, `\u202E`), so that
 * what a service sent is shown and never acted on: no escape sequence reaches a terminal, and no
 * carriage return rewrites a line. Text with none is returned as it is; escaping twice changes
 * nothing more.
 */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, escapeOne);
}

/**
 * The start of `text` for a message: its secrets hidden first, then cut at `max` characters (with
 * `…`), so a secret that straddles the cut is never printed in part.
 */
export function excerpt(text: string, max: number, secrets: readonly Secret[]): string {
  const redacted = redact(text, secrets);
  return redacted.length > max ? `${redacted.slice(0, max)}…` : redacted;
}

/** A duration in milliseconds as messages show it: `1.25 s`. */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))} s`;
}
