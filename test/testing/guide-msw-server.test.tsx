/**
 * The guide's screen over Mock Service Worker in jsdom: msw's Node server catches the global
 * `fetch` (test/testing/guide/screen-over-msw.tsx holds the tests).
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { describeScreenOverMsw } from './guide/screen-over-msw.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describeScreenOverMsw(server);
