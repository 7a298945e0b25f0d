// The imports name the sources; the guide shows them as the package's entries.
import { expect, it } from 'vitest';
import { checkService } from '../../../src/check/index.js';
import { startReferenceServer } from '../../../src/reference/node/index.js';

it('keeps the contract taskwire relies on', async () => {
  // Here the reference service; in your CI, your own service's URL and a test user's tokens.
  const server = await startReferenceServer();
  try {
    const report = await checkService({
      baseUrl: server.url,
      userToken: 'demo-user-token',
      clientToken: 'demo-client-token',
      otherUserToken: 'other-user-token',
    });
    const failed = report.results.filter((result) => result.outcome === 'fail');
    expect(failed).toEqual([]);
    expect(report.tasksStarted).toBeLessThanOrEqual(20);
  } finally {
    await server.close();
  }
}, 60_000);
