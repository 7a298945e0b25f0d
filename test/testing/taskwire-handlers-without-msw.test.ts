/**
 * `taskwire/testing` in an app that has not installed msw (an optional peer): everything loads
 * and works but `taskwireHandlers`, which says what is missing and how to install it. msw stands
 * in absent here by a module that fails to load as a missing package does; the consumer test
 * (test/consumer/check-testing-without-msw.mjs) installs the packed package without msw for real.
 */
import { afterEach, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('msw');
  vi.resetModules();
});

it('loads without msw, and taskwireHandlers says how to install it', async () => {
  vi.resetModules();
  vi.doMock('msw', () => {
    throw new Error("Cannot find package 'msw' imported from taskwire/testing");
  });
  const testing = await import('../../src/testing/index.js');
  const { createReferenceService } = await import('../../src/reference/index.js');
  const service = testing.withFaults(createReferenceService(), [
    { endpoint: 'submit', status: 429, retryAfter: 1 },
  ]);
  const answer = await service.fetch(
    new Request('http://taskwire.test/workflows/echo/submit', { method: 'POST' }),
  );
  expect(answer.status).toBe(429);
  expect(() => testing.taskwireHandlers(service, { baseUrl: 'http://taskwire.test' })).toThrow(
    /^taskwireHandlers needs Mock Service Worker \(msw 2\), an optional peer .*: npm install --save-dev msw@2\./,
  );
  await service.close();
});
