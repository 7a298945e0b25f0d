/**
 * The demo tokens of the reference service, as the headers a request without the client sends
 * (`docs/protocol.md, "Headers and tokens"`) and as the tokens a client of the test's own is made with:
 * one copy for every test that talks to the service, in-process or on loopback.
 */
import { DEMO_CLIENT_TOKEN, DEMO_USER_TOKEN, OTHER_USER_TOKEN } from '../../src/reference/index.js';

/** The demo user's and the demo client's headers. */
export const AUTH: Readonly<Record<string, string>> = Object.freeze({
  authorization: `Bearer ${DEMO_USER_TOKEN}`,
  'x-app-authorization': `Bearer ${DEMO_CLIENT_TOKEN}`,
});

/** The other demo user's headers, with the same client token. */
export const OTHER_AUTH: Readonly<Record<string, string>> = Object.freeze({
  authorization: `Bearer ${OTHER_USER_TOKEN}`,
  'x-app-authorization': `Bearer ${DEMO_CLIENT_TOKEN}`,
});

/** {@link AUTH} with a JSON content type, for a POST with a JSON body. */
export const JSON_AUTH: Readonly<Record<string, string>> = Object.freeze({
  ...AUTH,
  'content-type': 'application/json',
});

/** The demo user's and client's tokens, for `createTaskClient({ baseUrl, ...DEMO_TOKENS })`. */
export const DEMO_TOKENS = Object.freeze({
  userToken: DEMO_USER_TOKEN,
  clientToken: DEMO_CLIENT_TOKEN,
});
