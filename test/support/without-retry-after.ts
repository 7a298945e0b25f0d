/**
 * The service's answer without its `Retry-After` hint (docs/protocol.md, "Get Result"), as a
 * transport can reshape it: the service hints at least a second, and without the hint the polling
 * policy of the test or benchmark alone sets the pace.
 */
export function withoutRetryAfter(response: Response): Response {
  if (!response.headers.has('retry-after')) return response;
  const headers = new Headers(response.headers);
  headers.delete('retry-after');
  return new Response(response.body, { status: response.status, headers });
}
