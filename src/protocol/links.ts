/**
 * Which links from the service may be followed or rendered (docs/protocol.md, "Notifications").
 * Used by the reference service to refuse notification deeplinks (422 `INVALID_NOTIFICATION`) and
 * by the components before they render a link, so a `javascript:` URL can never become a clickable
 * element.
 */

/** The schemes refused everywhere, whatever their case or the spaces around them. */
export const REFUSED_LINK_SCHEMES: readonly string[] = [
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
  'blob:',
  'http:',
];

const ALWAYS_REFUSED: ReadonlySet<string> = new Set(REFUSED_LINK_SCHEMES);

/** An app scheme such as `myapp:` (docs/protocol.md, "Notifications"). */
const APP_SCHEME = /^[a-z][a-z0-9+.-]*:$/;

/**
 * The scheme of `link` as a browser would read it (lower case, with the spaces, tabs and newlines a
 * URL parser ignores taken out), or `undefined` when it is no absolute URL.
 */
function schemeOf(link: string): string | undefined {
  try {
    return new URL(link).protocol.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Whether `link` is an absolute `https:` URL. */
export function isSafeWebLink(link: unknown): link is string {
  return typeof link === 'string' && schemeOf(link) === 'https:';
}

/**
 * Whether `link` is `https:` or an app scheme (`myapp:…`), and none of `javascript:`, `data:`,
 * `vbscript:`, `file:`, `blob:`, `http:`.
 */
export function isSafeAppLink(link: unknown): link is string {
  if (typeof link !== 'string') return false;
  const scheme = schemeOf(link);
  return scheme !== undefined && !ALWAYS_REFUSED.has(scheme) && APP_SCHEME.test(scheme);
}
