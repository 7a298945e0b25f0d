/**
 * checkService against a proxy of taskwire/server in front of the reference service, mounted on the
 * app's own origin: given no client token (the proxy adds it) and the app's origin, every check
 * passes but the three that do not apply to such a proxy, which are skipped, saying why.
 */
import { describe, expect, it } from 'vitest';
import { checkService } from '../../src/check/index.js';
import { createTaskProxy } from '../../src/server/index.js';
import {
  checkedService,
  CLIENT_TOKEN,
  FAST,
  silentTask,
  WITH_KEEP_ALIVE,
} from './check-fixtures.js';

describe('checkService against a proxy', () => {
  it('passes every check that applies, and skips the client token and CORS checks with why', async () => {
    const service = checkedService();
    const proxy = createTaskProxy({
      target: 'http://tasks.internal',
      clientToken: CLIENT_TOKEN,
      tasks: ['render-video', silentTask.name],
      basePath: '/api/tasks',
      fetch: (input, init) => service.fetch(new Request(input, init)),
      // Its reads from the log keep silences within a third of it: 500 ms, within the check's 3 s.
      streamIdleTimeoutMs: 1500,
    });
    const withoutClientToken = { ...FAST, clientToken: undefined };
    const report = await checkService({
      ...withoutClientToken,
      ...WITH_KEEP_ALIVE,
      baseUrl: 'https://app.example.com/api/tasks',
      origin: 'https://app.example.com',
      fetch: (request) => proxy.fetch(request),
    });

    expect(report.results.filter((result) => result.outcome === 'fail')).toEqual([]);
    const skipped = Object.fromEntries(
      report.results
        .filter((result) => result.outcome === 'skipped')
        .map((result) => [result.id, result.why]),
    );
    expect(skipped).toEqual({
      'auth.no-client-token': expect.stringContaining('no client token was given'),
      'cors.preflight': expect.stringContaining('a browser sends no preflight'),
      'cors.expose-headers': expect.stringContaining('a browser sends no preflight'),
    });
    expect(report.tasksStarted).toBe(4);
  });
});
