/**
 * The `taskwire-check` command, run as a process against services on loopback: the reference
 * service (exit 0), one that breaks a rule (exit 1, the failure with its curl), and runs that
 * cannot start (exit 2); its table, `--json` and `--junit` never hold a token's value, and parse.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { CHECKS, type CheckReport } from '../../src/check/index.js';
import { startReferenceServer } from '../../src/reference/node/index.js';
import { brokenServices, requiresHeaders, toleratedServices } from './broken-services.js';
import { elementsNamed, parseXml } from './parse-xml.js';
import {
  checkedService,
  silentTask,
  CLIENT_TOKEN,
  OTHER_USER_TOKEN,
  TOKENS,
  USER_TOKEN,
} from './check-fixtures.js';

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

/** Runs the command to its end; resolves to its exit code and what it printed. */
async function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/check/cli.ts', ...args], {
    cwd: repositoryRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      TASKWIRE_USER_TOKEN: '',
      TASKWIRE_CLIENT_TOKEN: '',
      TASKWIRE_OTHER_USER_TOKEN: '',
      ...env,
    },
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

function expectNoToken(...outputs: string[]): void {
  for (const output of outputs) for (const token of TOKENS) expect(output).not.toContain(token);
}

const tokenFlags = [
  '--user-token',
  USER_TOKEN,
  '--client-token',
  CLIENT_TOKEN,
  '--other-user-token',
  OTHER_USER_TOKEN,
];

describe('taskwire-check', () => {
  it('exits 0 against the reference service, with one line per check and no token', async () => {
    const server = await startReferenceServer({ service: checkedService() });
    onTestFinished(() => server.close());
    const { code, stdout, stderr } = await runCli([
      server.url,
      ...tokenFlags,
      // The default task's second (six frames of 150 ms) would be 90 ms under the service's time
      // scale: too short for the CLI's first read on a busy machine, and result.retry-after was
      // skipped in a CI run. Ten times its frames keep it running as long as the default does.
      '--params',
      '{"frames":6,"frameMs":1500}',
      '--keep-alive-task',
      silentTask.name,
      '--keep-alive-params',
      '{}',
    ]);

    expect(stderr).toBe('');
    expect(code).toBe(0);
    for (const check of CHECKS)
      expect(stdout).toMatch(new RegExp(`^PASS +${check.id.replace('.', '\\.')} `, 'm'));
    expect(stdout).toMatch(
      /^PASS +stream\.keep-alive .*\(\d+ comment lines; longest silence [\d.]+ s\)$/m,
    );
    expect(stdout).toContain(
      `${CHECKS.length} checks: ${CHECKS.length} passed, 0 failed, 0 warned, 0 skipped. Started 5 tasks (at most 20)`,
    );
    // Not a terminal: no progress line, no escape codes.
    expect(stdout).not.toContain('\r');
    expect(stdout).not.toContain('\u001B');
    expectNoToken(stdout, stderr);
  }, 60_000);

  it('exits 1 against a broken service, with what was expected, what came and a curl; --json and --junit parse', async () => {
    const service = checkedService();
    const broken = brokenServices.find((candidate) => candidate.check === 'result.retry-after')!;
    const send = broken.wrap((request) => service.fetch(request));
    const server = await startReferenceServer({
      service: { fetch: send, close: () => service.close() },
    });
    onTestFinished(() => server.close());
    const folder = mkdtempSync(path.join(tmpdir(), 'taskwire-check-'));
    const junitFile = path.join(folder, 'report.xml');

    // Tokens from the environment this time, as the curl commands name them.
    const env = {
      TASKWIRE_USER_TOKEN: USER_TOKEN,
      TASKWIRE_CLIENT_TOKEN: CLIENT_TOKEN,
      TASKWIRE_OTHER_USER_TOKEN: OTHER_USER_TOKEN,
    };
    // A task of half a second, so the first Get Result finds it running (and its Retry-After).
    // Failing params that do not fail: execute.failed is skipped, saying so.
    const task = [
      '--params',
      '{"frames":10,"frameMs":500}',
      '--failing-params',
      '{"frames":1,"frameMs":1}',
    ];
    const table = await runCli([server.url, ...task], env);
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(
      /^FAIL +result\.retry-after +Retry-After is whole seconds, at least 1$/m,
    );
    expect(table.stdout).toMatch(/^ +rule: +docs\/protocol\.md#get-result$/m);
    expect(table.stdout).toMatch(/^ +expected: Retry-After in whole seconds, 1 to 300$/m);
    expect(table.stdout).toMatch(
      /^ +observed: Retry-After: \d+000 \(milliseconds\?\) while the task was (ACCEPTED|IN_PROGRESS)$/m,
    );
    expect(table.stdout).toMatch(
      /^ +curl: +curl -i '.*\/workflows\/render-video\/[^/]+\/result' \\$/m,
    );
    expect(table.stdout).toContain('-H "authorization: Bearer $TASKWIRE_USER_TOKEN"');
    expect(table.stdout).toContain('1 failed');
    expect(table.stdout).toMatch(
      /^SKIP +stream\.keep-alive .*\n +skipped: needs a task whose stream stays silent for more than 15 s \(--keep-alive-task\)$/m,
    );
    expect(table.stdout).toMatch(
      /^SKIP +execute\.failed .*\n +skipped: the failing params did not make the task fail \(it ended COMPLETED\)/m,
    );

    const json = await runCli([server.url, ...task, '--json', '--junit', junitFile], env);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as CheckReport;
    expect(report.results).toHaveLength(CHECKS.length);
    expect(
      report.results.filter((result) => result.outcome === 'fail').map((result) => result.id),
    ).toEqual(['result.retry-after']);
    expect(report.tasksStarted).toBe(4);

    const xml = readFileSync(junitFile, 'utf8');
    const suites = parseXml(xml);
    expect(suites.name).toBe('testsuites');
    expect(suites.attributes).toMatchObject({
      tests: String(CHECKS.length),
      failures: '1',
      skipped: '2',
    });
    const cases = elementsNamed(suites, 'testcase');
    expect(cases.map((element) => element.attributes.name?.split(':')[0])).toEqual(
      CHECKS.map((check) => check.id),
    );
    const failures = elementsNamed(suites, 'failure');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.text).toContain('curl -i');
    expect(failures[0]!.text).toContain('"authorization: Bearer $TASKWIRE_USER_TOKEN"');
    expect(elementsNamed(suites, 'skipped')).toHaveLength(2);

    expectNoToken(table.stdout, table.stderr, json.stdout, json.stderr, xml);
  }, 60_000);

  it('exits 2 on bad flags, and when the service cannot be reached or refuses the tokens', async () => {
    const noUrl = await runCli(['--user-token', USER_TOKEN, '--client-token', CLIENT_TOKEN]);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('Give one base URL');
    expect(noUrl.stderr).toContain('Usage: taskwire-check');

    const unknownFlag = await runCli(['http://127.0.0.1:9', '--bogus']);
    expect(unknownFlag.code).toBe(2);

    const noToken = await runCli(['http://127.0.0.1:9', '--client-token', CLIENT_TOKEN]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('--user-token (or $TASKWIRE_USER_TOKEN) is required');

    const badParams = await runCli(['http://127.0.0.1:9', ...tokenFlags, '--params', '[1]']);
    expect(badParams.code).toBe(2);
    expect(badParams.stderr).toContain('--params must be a JSON object');

    // A port nothing listens on: the server is closed before the command runs.
    const closed = await startReferenceServer({ service: checkedService() });
    await closed.close();
    const unreachable = await runCli([closed.url, ...tokenFlags]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(
      /could not run: The service could not be reached at http:\/\/127\.0\.0\.1:\d+\//,
    );

    const server = await startReferenceServer({ service: checkedService() });
    onTestFinished(() => server.close());
    const refused = await runCli([
      server.url,
      '--user-token',
      'wrong-token-value',
      '--client-token',
      CLIENT_TOKEN,
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refused the tokens given');
    expect(refused.stderr).not.toContain('wrong-token-value');

    expectNoToken(
      noUrl.stderr,
      noToken.stderr,
      badParams.stderr,
      unreachable.stderr,
      refused.stderr,
    );
  }, 60_000);

  it('exits 2 when the run passes its deadline (--run-timeout), against a service that never answers', async () => {
    // Takes every request and answers none.
    const server = createServer(() => undefined);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    onTestFinished(() => {
      server.closeAllConnections();
      server.close();
    });
    const { port } = server.address() as { port: number };
    const startedAt = performance.now();
    const { code, stderr } = await runCli([
      `http://127.0.0.1:${port}`,
      ...tokenFlags,
      '--run-timeout',
      '0.5',
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /could not run: The check run did not end within its deadline of 0\.5 s/,
    );
    // The process itself ends soon after the deadline, not after a request's 30 s.
    expect(performance.now() - startedAt).toBeLessThan(15_000);

    const bad = await runCli([`http://127.0.0.1:${port}`, ...tokenFlags, '--run-timeout', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--run-timeout must be a number of seconds');
    expectNoToken(stderr, bad.stderr);
  }, 60_000);

  it('sends --header on every request, hidden in every output; without it a refusal exits 2 saying why', async () => {
    const service = checkedService();
    const server = await startReferenceServer({
      service: {
        fetch: requiresHeaders.wrap((request) => service.fetch(request)),
        close: () => service.close(),
      },
    });
    onTestFinished(() => server.close());

    const refused = await runCli([server.url, ...tokenFlags]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/could not run: The service refused the first request, Options/);
    expect(refused.stderr).toContain("give it with --header 'name: value'");
    expect(refused.stdout).toBe('');

    const folder = mkdtempSync(path.join(tmpdir(), 'taskwire-check-'));
    const junitFile = path.join(folder, 'report.xml');
    const headers = ['--header', 'platform: website', '--header', 'X-Touchpoint:checkout-7f3k'];
    const passed = await runCli([server.url, ...tokenFlags, ...headers, '--junit', junitFile]);
    expect(passed.stderr).toBe('');
    expect(passed.code).toBe(0);
    const json = await runCli([server.url, ...tokenFlags, ...headers, '--json']);
    expect(json.code).toBe(0);
    for (const output of [passed.stdout, json.stdout, readFileSync(junitFile, 'utf8')])
      expect(output).not.toContain('checkout-7f3k');

    const malformed = await runCli([server.url, ...tokenFlags, '--header', 'platform=website']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain("--header must be 'name: value'");
    expectNoToken(refused.stderr, passed.stdout, json.stdout, malformed.stderr);
  }, 60_000);

  it("exits 0 with WARN lines when only rules of taskwire's own contract are broken", async () => {
    const service = checkedService();
    const tolerated = toleratedServices.find(
      (candidate) => candidate.warns?.[0] === 'submit.status',
    )!;
    const server = await startReferenceServer({
      service: {
        fetch: tolerated.wrap((request) => service.fetch(request)),
        close: () => service.close(),
      },
    });
    onTestFinished(() => server.close());
    const folder = mkdtempSync(path.join(tmpdir(), 'taskwire-check-'));
    const junitFile = path.join(folder, 'report.xml');
    const { code, stdout, stderr } = await runCli([
      server.url,
      ...tokenFlags,
      '--junit',
      junitFile,
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^WARN +submit\.status +Submit answers 202 Accepted$/m);
    expect(stdout).toMatch(
      /^ +level: +taskwire's own contract, beyond the interface document: the client works without it$/m,
    );
    expect(stdout).toMatch(/^ +observed: 200$/m);
    expect(stdout).toMatch(/ 0 failed, 1 warned/);
    // JUnit has no warning: the case passes, and says why in its output.
    const suites = parseXml(readFileSync(junitFile, 'utf8'));
    expect(suites.attributes).toMatchObject({ failures: '0' });
    const warned = elementsNamed(suites, 'testcase').find((element) =>
      element.attributes.name?.startsWith('submit.status:'),
    )!;
    expect(elementsNamed(warned, 'failure')).toEqual([]);
    expect(elementsNamed(warned, 'system-out')[0]!.text).toMatch(/^WARN: taskwire's own contract/);
  }, 60_000);
});
