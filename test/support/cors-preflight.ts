/**
 * The CORS preflight a browser on another origin (Storybook's, here) sends before a Submit, and
 * the checks that its answer lets that page POST with the headers the client needs
 * (docs/protocol.md, "Headers and tokens"). Shared by the in-process and the loopback tests, so both ask and
 * check the same thing.
 */
import { expect } from 'vitest';

/** An OPTIONS preflight for a POST to `url` from another origin, asking for `requestHeaders`. */
export function preflightRequest(url: string, requestHeaders: string): Request {
  return new Request(url, {
    method: 'OPTIONS',
    headers: {
      origin: 'http://localhost:6006',
      'access-control-request-method': 'POST',
      'access-control-request-headers': requestHeaders,
    },
  });
}

/** Checks that a preflight's answer lets any origin POST with every one of `allowedHeaders`. */
export function expectPreflightAllows(response: Response, allowedHeaders: readonly string[]): void {
  expect(response.status).toBe(204);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('access-control-allow-methods')).toContain('POST');
  const allowed = response.headers.get('access-control-allow-headers') ?? '';
  for (const header of allowedHeaders) {
    expect(allowed).toContain(header);
  }
}
