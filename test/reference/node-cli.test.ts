import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  OTHER_USER_TOKEN,
  demoTasks,
} from '../../src/reference/index.js';

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  // A test that failed halfway must not leave a server running.
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

function startCli(...args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/reference/node/cli.ts', ...args], {
    cwd: repositoryRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (output += text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (output += text));
  return { child, output: () => output };
}

async function waitFor(check: () => boolean, what: string, milliseconds = 15_000): Promise<void> {
  const deadline = Date.now() + milliseconds;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('taskwire-reference command line', () => {
  it('prints its URL, the demo tokens and tasks, serves requests, and exits 0 on SIGTERM', async () => {
    const { child, output } = startCli('--port', '0', '--time-scale', '0.01');
    await waitFor(() => output().includes('Press Ctrl+C to stop.'), 'the banner');
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1];
    expect(url).toBeDefined();

    const response = await fetch(`${url}/workflows/echo/execute`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${DEMO_USER_TOKEN}`,
        'x-app-authorization': `Bearer ${DEMO_CLIENT_TOKEN}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ params: { message: 'from the cli test' } }),
    });
    expect(await response.json()).toMatchObject({
      response: { status: 'COMPLETED', result: { echo: 'from the cli test' } },
    });

    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    child.kill('SIGTERM');
    const [code] = await exited;
    const text = output();

    expect(code).toBe(0);
    expect(text).toContain('Closed.');
    for (const task of demoTasks) expect(text).toContain(task.name);
    expect(text).toContain(`curl -X POST ${url}/workflows/echo/execute`);
    // Only the documented public demo tokens are ever printed.
    const printedTokens = new Set(
      [...text.matchAll(/Bearer ([^\s'"]+)/g)].map((match) => match[1]),
    );
    expect(printedTokens).toEqual(new Set([DEMO_USER_TOKEN, OTHER_USER_TOKEN, DEMO_CLIENT_TOKEN]));
  });

  it('refuses a bad --port with the usage text and exit code 2', async () => {
    const { child, output } = startCli('--port', 'eighty');
    const [code] = (await once(child, 'exit')) as [number | null];

    expect(code).toBe(2);
    expect(output()).toContain("--port must be a whole number from 0 to 65535, not 'eighty'.");
    expect(output()).toContain('Usage: taskwire-reference');
  });
});
