/**
 * Who owns a stream's log in the proxy (docs/protocol.md, "Resumable streams (0.4)"): the id of
 * the user that `authorize` gave (`userId`), or else a SHA-256 digest of the user's token, so that
 * no token is ever kept in the log. Only the owner reads a log.
 */

/** The hexadecimal SHA-256 digest of `text`. */
export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The owner of the logs of the user behind `authorization` (the `Authorization` value sent
 * upstream), or `userId` when `authorize` named the user; `undefined` when the request names no
 * user at all.
 */
export async function logOwner(
  authorization: string | null,
  userId: string | undefined,
): Promise<string | undefined> {
  if (userId !== undefined) return `user:${userId}`;
  if (authorization === null) return undefined;
  return `token:${await sha256(authorization.trim())}`;
}
