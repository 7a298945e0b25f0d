import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
} from '../../src/reference/index.js';
import { watchClient, type Metrics } from './guide/log-activity.js';
import { App } from './guide/mount-devtools.js';

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('the devtools guide (docs/devtools.md)', () => {
  it('logs requests and errors and counts them, with no token in any line', async () => {
    const service = createReferenceService({ timeScale: 0.01 });
    closers.push(() => service.close());
    const client = createTaskClient({
      baseUrl: 'http://taskwire.test',
      fetch: (request) => service.fetch(request),
      userToken: DEMO_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
    });
    const metrics: Metrics = { timing: vi.fn(), count: vi.fn() };
    const lines: string[] = [];
    const stop = watchClient(client, metrics, (line) => lines.push(line));
    await client.execute('translate-text', { text: 'Hi', targetLanguage: 'de' });
    await expect(client.getResult('echo', 'missing')).rejects.toThrow();
    await vi.waitFor(() => expect(lines).toHaveLength(3));
    stop();

    expect(lines[0]).toBe('POST /workflows/translate-text/execute → 200');
    expect(lines[1]).toBe('GET /workflows/echo/missing/result → 404');
    expect(lines[2]).toMatch(/^echo failed: http /);
    expect(metrics.timing).toHaveBeenCalledWith('taskwire.request', expect.any(Number), {
      operation: 'execute',
      status: '200',
    });
    expect(metrics.count).toHaveBeenCalledWith('taskwire.charged', { task: 'translate-text' });
    for (const line of lines) expect(line).not.toMatch(/demo-(user|client)-token/);
  });

  it('mounts the devtools below the provider: their toggle shows in development', async () => {
    render(<App>app</App>);
    expect(await screen.findByRole('button', { name: /taskwire devtools/i })).toBeInTheDocument();
  });
});
