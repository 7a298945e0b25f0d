/**
 * A transport fault, not a mock: the service's real stream is passed through, but its body is cut (a
 * network error) after `chunks` chunks, as a dropped connection would. Used by the hook tests and the
 * live stories.
 */
export function cutStreamBody(
  response: Response,
  chunks: number,
  options: { dropTaskId?: boolean } = {},
): Response {
  if (!response.body) return response;
  const reader = response.body.getReader();
  let passed = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (passed >= chunks) {
        await reader.cancel();
        controller.error(new TypeError('terminated: other side closed'));
        return;
      }
      const { done, value } = await reader.read();
      if (done) controller.close();
      else {
        passed += 1;
        controller.enqueue(value);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const headers = new Headers(response.headers);
  if (options.dropTaskId) headers.delete('x-task-id');
  return new Response(body, { status: response.status, headers });
}
