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
import { JSON_AUTH } from '../support/demo-auth.js';

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  // A test that failed halfway must not leave a server running.
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

/** Runs the command line; `printed(text)` settles once its output holds `text`. */
function startCli(...args: string[]): {
  child: ChildProcess;
  output: () => string;
  printed: (text: string) => Promise<void>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/reference/node/cli.ts', ...args], {
    cwd: repositoryRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const onOutput = new Set<() => void>();
  const append = (text: string) => {
    output += text;
    for (const check of onOutput) check();
  };
  child.stdout!.setEncoding('utf8').on('data', append);
  child.stderr!.setEncoding('utf8').on('data', append);
  // Waits for the output event that prints `text`, or fails when the process ends without it.
  const printed = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!output.includes(text)) return;
        onOutput.delete(check);
        resolve();
      };
      onOutput.add(check);
      check();
      child.once('exit', () => reject(new Error(`exited without printing ${text}: ${output}`)));
    });
  return { child, output: () => output, printed };
}

describe('taskwire-reference command line', () => {
  it('prints its URL, the demo tokens and tasks, serves requests, and exits 0 on SIGTERM', async () => {
    const { child, output, printed } = startCli('--port', '0', '--time-scale', '0.01');
    await printed('Press Ctrl+C to stop.');
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1];
    expect(url).toBeDefined();

    const response = await fetch(`${url}/workflows/echo/execute`, {
      method: 'POST',
      headers: JSON_AUTH,
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

  it('logs each request with --log: method, path, status and milliseconds, never a token', async () => {
    const { child, output, printed } = startCli('--port', '0', '--time-scale', '0.01', '--log');
    await printed('Press Ctrl+C to stop.');
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1];
    const banner = output();
    expect(banner).toContain('Logging each request');

    const submitted = await fetch(`${url}/workflows/echo/submit`, {
      method: 'POST',
      headers: JSON_AUTH,
      body: JSON.stringify({ params: { message: 'logged' } }),
    });
    expect(submitted.status).toBe(202);
    const { response } = (await submitted.json()) as { response: { id: string } };
    await printed('POST /workflows/echo/submit 202');
    // A secret in a query string, and a token that is no demo token: neither may be logged.
    const read = await fetch(`${url}/workflows/echo/${response.id}/result?token=secret-in-query`, {
      headers: JSON_AUTH,
    });
    expect(read.status).toBe(200);
    await read.json();
    const refused = await fetch(`${url}/workflows/echo/${response.id}/result`, {
      headers: { ...JSON_AUTH, authorization: 'Bearer not-a-demo-token-4242' },
    });
    expect(refused.status).toBe(401);
    await refused.json();
    await printed(`GET /workflows/echo/${response.id}/result 401`);

    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
    const log = output().slice(banner.length).split('\n');
    const path = `/workflows/echo/${response.id}/result`;
    expect(log.filter((line) => /^(GET|POST) /.test(line))).toEqual([
      expect.stringMatching(/^POST \/workflows\/echo\/submit 202 \d+ ms$/),
      expect.stringMatching(new RegExp(`^GET ${path} 200 \\d+ ms$`)),
      expect.stringMatching(new RegExp(`^GET ${path} 401 \\d+ ms$`)),
    ]);
    for (const secret of [DEMO_USER_TOKEN, DEMO_CLIENT_TOKEN, 'not-a-demo-token-4242', 'secret']) {
      expect(output().slice(banner.length)).not.toContain(secret);
    }
  });

  it('refuses a bad --port with the usage text and exit code 2', async () => {
    const { child, output } = startCli('--port', 'eighty');
    const [code] = (await once(child, 'exit')) as [number | null];

    expect(code).toBe(2);
    expect(output()).toContain("--port must be a whole number from 0 to 65535, not 'eighty'.");
    expect(output()).toContain('Usage: taskwire-reference');
  });
});
