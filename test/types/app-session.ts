// app-session.ts: stands for your app's own sessions (Auth.js, iron-session, a session table…).

/** What the app keeps for a signed-in user: here, the user's token at the task service. */
export interface AppSession {
  userId: string;
  taskwireToken: string;
}

const sessions = new Map<string, AppSession>();

/** The session with this id (the value of the app's `session` cookie), or `undefined`. */
export async function sessionById(id: string | undefined): Promise<AppSession | undefined> {
  return id === undefined ? undefined : sessions.get(id);
}

/** The session of a request, from the app's own session cookie, or `undefined` when signed out. */
export async function readSession(request: Request): Promise<AppSession | undefined> {
  return sessionById(/(?:^|;\s*)session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1]);
}
