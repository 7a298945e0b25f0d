#!/usr/bin/env node
/**
 * The command-line entry of the reference server (`npx taskwire-reference` in an app, `npm run reference` here): starts it on
 * loopback, prints where it listens, the demo tokens and tasks and a request to try, with `--log` a
 * line per request, and closes it cleanly on Ctrl+C (SIGINT) or SIGTERM.
 */
import { parseArgs } from 'node:util';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  DEMO_USER_TOKENS,
  demoTasks,
} from '../index.js';
import { formatServedRequest } from './served-request.js';
import { startReferenceServer } from './start-reference-server.js';

const USAGE = `Usage: taskwire-reference [--port 8787] [--host 127.0.0.1] [--time-scale 1] [--log]

  --port        Port to listen on; 0 picks a free one. Defaults to 8787.
  --host        Address to listen on. Defaults to 127.0.0.1 (this machine only).
  --time-scale  Multiplies every delay inside the demo tasks (0.1 runs them ten times faster).
                Defaults to 1.
  --log         Prints a line per request: method, path (no query string), status and
                milliseconds, such as 'POST /workflows/echo/submit 202 3 ms'. Never a token.
  --help        Prints this text.`;

/** What the command line asked for. */
interface CliOptions {
  port: number;
  host: string;
  timeScale: number;
  log: boolean;
}

function parseCommandLine(argv: string[]): CliOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      'time-scale': { type: 'string', default: '1' },
      log: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new RangeError(`--port must be a whole number from 0 to 65535, not '${values.port}'.`);
  }
  const timeScale = Number(values['time-scale']);
  if (!Number.isFinite(timeScale) || timeScale < 0) {
    throw new RangeError(`--time-scale must be a number >= 0, not '${values['time-scale']}'.`);
  }
  return { port, host: values.host, timeScale, log: values.log };
}

/** The text printed once the server listens. Only the public demo tokens appear in it. */
function banner(url: string, timeScale: number, log: boolean): string {
  const entries = Object.entries(DEMO_USER_TOKENS);
  const width = Math.max(...entries.map(([token]) => token.length));
  const users = entries
    .map(([token, userId]) => `    Authorization: Bearer ${token.padEnd(width)}   (user ${userId})`)
    .join('\n');
  const tasks = demoTasks.map((task) => task.name).join(', ');
  return `taskwire reference service listening on ${url}
${timeScale === 1 ? '' : `(time scale ${timeScale}: task delays are multiplied by it)\n`}
Demo tokens (public values for local development; send both headers on every request):
${users}
    x-app-authorization: Bearer ${DEMO_CLIENT_TOKEN}

Demo tasks: ${tasks}

Try:
  curl -X POST ${url}/workflows/echo/execute \\
    -H 'Authorization: Bearer ${DEMO_USER_TOKEN}' \\
    -H 'x-app-authorization: Bearer ${DEMO_CLIENT_TOKEN}' \\
    -H 'Content-Type: application/json' \\
    -d '{"params":{"message":"hello"}}'

${log ? 'Logging each request: method, path, status, milliseconds.\n' : ''}Press Ctrl+C to stop.`;
}

async function main(): Promise<void> {
  let options: CliOptions | 'help';
  try {
    options = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (options === 'help') {
    console.log(USAGE);
    return;
  }

  const server = await startReferenceServer({
    port: options.port,
    host: options.host,
    service: createReferenceService({ timeScale: options.timeScale }),
    ...(options.log ? { onRequest: (served) => console.log(formatServedRequest(served)) } : {}),
  });
  console.log(banner(server.url, options.timeScale, options.log));

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // A second Ctrl+C while closing: give up waiting.
      process.exit(130);
    }
    stopping = true;
    console.log(`\n${signal}: closing the reference service…`);
    server.close().then(
      () => {
        console.log('Closed.');
        process.exit(0);
      },
      (error: unknown) => {
        console.error('Closing failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  const code = (error as { code?: unknown }).code;
  console.error(
    code === 'EADDRINUSE'
      ? 'That port is in use; pick another with --port (0 picks a free one).'
      : error,
  );
  process.exitCode = 1;
});
