#!/usr/bin/env node
/**
 * The `taskwire-check` command (docs/checking-your-service.md): runs `checkService` against a service and prints one
 * line per check, the details of each failure, and how many tasks it started; `--json` prints the
 * report as JSON instead, `--junit <file>` also writes it as JUnit XML. Exit code 0 when no check
 * failed (warnings and skipped ones aside), 1 when one failed, 2 when the checks could not run.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { TaskwireError } from '../client/errors.js';
import type { JsonObject } from '../protocol/records.js';
import { CHECKS } from './check-catalogue.js';
import { checkService, DEFAULT_CHECK_TASK } from './check-service.js';
import type { CheckProgress } from './check-types.js';
import { checkReportJson, formatCheckReport, toJUnitXml } from './format-report.js';
import { escapeControl } from './shown-text.js';

const USAGE = `Usage: taskwire-check <baseUrl> --user-token <T> [--client-token <C>] [options]

Checks a task service (or the proxy in front of it) against what taskwire's client and hooks rely
on (docs/protocol.md), and prints one line per check.

  --user-token <T>          A user token the service knows. Defaults to $TASKWIRE_USER_TOKEN.
  --client-token <C>        The app's token. Defaults to $TASKWIRE_CLIENT_TOKEN. Leave it out to
                            check a proxy that adds it on the server.
  --other-user-token <T2>   A second user's token, to check that users do not see each other's
                            tasks. Defaults to $TASKWIRE_OTHER_USER_TOKEN; without it that check
                            is skipped.
  --task <name>             The task to start (four times: Submit, Stream, Execute, and Execute
                            with failing params). Defaults to ${DEFAULT_CHECK_TASK}, a demo task
                            of the reference service.
  --params <json>           Its params, a JSON object. Defaults to {"frames":6,"frameMs":150} for
                            the default task, else {}.
  --failing-params <json>   Params that make the task fail, for the check of a failed task's
                            Execute answer. Defaults to the default task's params with
                            {"failAtFrame":1}; for another task, none (that check is skipped).
  --keep-alive-task <name>  A task whose stream stays silent for more than 15 s, for the keep-alive
                            check (skipped without it).
  --keep-alive-params <json> Its params. Defaults to {}.
  --origin <origin>         The app's origin, sent as Origin for the CORS checks (skipped when it
                            is the service's own origin). Defaults to http://localhost:5173.
  --header 'name: value'    A header to send on every request (repeat it for more): platform,
                            x-touchpoint, or the cookie of a proxy that signs users in by cookie.
                            Its value is hidden in every output, as $TASKWIRE_HEADER_<NAME>.
  --run-timeout <seconds>   The deadline of the whole run: past it the run stops and exits 2,
                            however the service stalls. Defaults to 120.
  --json                    Print the report as JSON instead of the table.
  --junit <file>            Also write the report as JUnit XML (one test case per check).
  --help                    Print this text.

Each check says whether the client relies on its rule (FAIL when broken) or it is taskwire's own
contract beyond the interface document (WARN when broken, which does not fail the run).
Exit code: 0 when no check failed (warnings and skipped checks aside), 1 when one failed, 2 when
the checks could not run or the run passed its deadline.
Failures come with a curl command; it writes the tokens as $TASKWIRE_USER_TOKEN,
$TASKWIRE_CLIENT_TOKEN and $TASKWIRE_OTHER_USER_TOKEN, so set those to run it.`;

/** What the command line asked for. */
interface CliOptions {
  baseUrl: string;
  userToken: string;
  clientToken: string | undefined;
  otherUserToken: string | undefined;
  task: string | undefined;
  params: JsonObject | undefined;
  failingParams: JsonObject | undefined;
  keepAliveTask: string | undefined;
  keepAliveParams: JsonObject | undefined;
  origin: string | undefined;
  headers: Record<string, string>;
  runTimeoutMs: number | undefined;
  json: boolean;
  junit: string | undefined;
}

function jsonObject(text: string | undefined, flag: string): JsonObject | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new TypeError(`${flag} must be a JSON object, such as '{"message":"hi"}'.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new TypeError(`${flag} must be a JSON object, such as '{"message":"hi"}'.`);
  return value as JsonObject;
}

/** The `--header 'name: value'` flags as headers; a name given twice is refused. */
function headersOf(flags: readonly string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const flag of flags ?? []) {
    const colon = flag.indexOf(':');
    const name = flag.slice(0, colon).trim().toLowerCase();
    if (colon < 1 || name === '')
      throw new TypeError("--header must be 'name: value', such as --header 'platform: website'.");
    if (name in headers) throw new TypeError(`--header '${name}' is given twice; give it once.`);
    headers[name] = flag.slice(colon + 1).trim();
  }
  return headers;
}

function seconds(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0)
    throw new TypeError(`${flag} must be a number of seconds greater than 0, such as 120.`);
  return value * 1000;
}

function parseCommandLine(argv: string[], env: NodeJS.ProcessEnv): CliOptions | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      'user-token': { type: 'string' },
      'client-token': { type: 'string' },
      'other-user-token': { type: 'string' },
      task: { type: 'string' },
      params: { type: 'string' },
      'failing-params': { type: 'string' },
      'keep-alive-task': { type: 'string' },
      'keep-alive-params': { type: 'string' },
      origin: { type: 'string' },
      header: { type: 'string', multiple: true },
      'run-timeout': { type: 'string' },
      json: { type: 'boolean', default: false },
      junit: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  if (positionals.length !== 1)
    throw new TypeError('Give one base URL, such as http://127.0.0.1:8787.');
  const userToken = values['user-token'] ?? env.TASKWIRE_USER_TOKEN;
  const clientToken = values['client-token'] ?? env.TASKWIRE_CLIENT_TOKEN;
  if (!userToken) throw new TypeError('--user-token (or $TASKWIRE_USER_TOKEN) is required.');
  if (values['keep-alive-params'] !== undefined && values['keep-alive-task'] === undefined)
    throw new TypeError('--keep-alive-params needs --keep-alive-task.');
  return {
    baseUrl: positionals[0]!,
    userToken,
    clientToken: clientToken || undefined,
    otherUserToken: values['other-user-token'] ?? (env.TASKWIRE_OTHER_USER_TOKEN || undefined),
    task: values.task,
    params: jsonObject(values.params, '--params'),
    failingParams: jsonObject(values['failing-params'], '--failing-params'),
    keepAliveTask: values['keep-alive-task'],
    keepAliveParams: jsonObject(values['keep-alive-params'], '--keep-alive-params'),
    origin: values.origin,
    headers: headersOf(values.header),
    runTimeoutMs: seconds(values['run-timeout'], '--run-timeout'),
    json: values.json,
    junit: values.junit,
  };
}

/** The progress line, rewritten in place on a terminal. */
function progressLine(progress: CheckProgress): string {
  return `\r\u001B[2K[${progress.done}/${progress.total}] ${progress.result.id}: ${progress.result.outcome}`;
}

async function main(): Promise<number> {
  let options: CliOptions | 'help';
  try {
    options = parseCommandLine(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  const showProgress = process.stdout.isTTY === true && !options.json;
  if (showProgress) process.stdout.write(`Checking ${options.baseUrl} (${CHECKS.length} checks)…`);
  let report;
  try {
    report = await checkService({
      baseUrl: options.baseUrl,
      userToken: options.userToken,
      ...(options.clientToken === undefined ? {} : { clientToken: options.clientToken }),
      ...(options.otherUserToken === undefined ? {} : { otherUserToken: options.otherUserToken }),
      ...(options.task === undefined ? {} : { task: options.task }),
      ...(options.params === undefined ? {} : { params: options.params }),
      ...(options.failingParams === undefined ? {} : { failingParams: options.failingParams }),
      ...(options.keepAliveTask === undefined
        ? {}
        : {
            keepAliveTask: {
              task: options.keepAliveTask,
              ...(options.keepAliveParams === undefined ? {} : { params: options.keepAliveParams }),
            },
          }),
      ...(options.origin === undefined ? {} : { origin: options.origin }),
      headers: options.headers,
      ...(options.runTimeoutMs === undefined ? {} : { runTimeoutMs: options.runTimeoutMs }),
      ...(showProgress
        ? { onProgress: (progress) => process.stdout.write(progressLine(progress)) }
        : {}),
    });
  } catch (error) {
    if (showProgress) process.stdout.write('\r\u001B[2K');
    if (error instanceof TypeError || TaskwireError.isInstance(error)) {
      console.error(`taskwire-check could not run: ${escapeControl(error.message)}`);
      return 2;
    }
    throw error;
  }
  if (showProgress) process.stdout.write('\r\u001B[2K');
  console.log(options.json ? checkReportJson(report) : formatCheckReport(report));
  if (options.junit !== undefined) {
    try {
      await writeFile(options.junit, toJUnitXml(report), 'utf8');
    } catch (error) {
      console.error(
        `taskwire-check could not write ${options.junit}: ${escapeControl(error instanceof Error ? error.message : String(error))}`,
      );
      return 2;
    }
  }
  return report.failed > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // The message only: an error's other fields could hold a request, and so a token.
    console.error(
      `taskwire-check failed: ${escapeControl(error instanceof Error ? error.message : String(error))}`,
    );
    process.exitCode = 2;
  },
);
