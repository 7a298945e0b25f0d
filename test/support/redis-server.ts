/**
 * A real `redis-server` for the tests of the Redis event log: started on a free loopback port with
 * no persistence (`--save '' --appendonly no`), stopped by its pid, and restartable on the same
 * port (a Redis that goes away mid-run). The binary is the one scripts/ensure-redis.mjs finds (or
 * installed, under `npm test`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { findRedisServer } from '../../scripts/ensure-redis.mjs';

/** A running redis-server. */
export interface RedisServer {
  /** Its URL, `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** Stops it (SIGKILL by pid, as a crash would) and waits until it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('No port.')),
      );
    });
  });
}

/** Spawns redis-server on `port` and resolves once it accepts connections. */
function spawnRedis(binary: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.resume();
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)),
    );
  });
}

/** Starts a redis-server on a free port; fails with how to install one when there is none. */
export async function startRedisServer(): Promise<RedisServer> {
  const binary = findRedisServer();
  if (binary === undefined) {
    throw new Error('redis-server was not found: run `node scripts/ensure-redis.mjs`.');
  }
  const port = await freePort();
  let child: ChildProcess | undefined = await spawnRedis(binary, port);
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const running = child;
      child = undefined;
      if (running === undefined || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      process.kill(running.pid as number, 'SIGKILL');
      await exited;
    },
    async start() {
      if (child === undefined) child = await spawnRedis(binary, port);
    },
  };
}
