#!/usr/bin/env node
/* global process, console -- a Node script, linted by the shared config without Node globals for .mjs */
// Finds the `redis-server` the Redis event log's tests start (one per test file, on a free port), or
// installs Debian's when it can (root with apt-get), or stops with a message that says how to get
// one. Like scripts/ensure-chromium.mjs, it never downloads anything but a Debian package.
//
// `findRedisServer()` is also imported by the tests (test/support/redis-server.ts), so they start
// the binary this found.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where `redis-server` is looked for, in order, after `REDIS_SERVER_PATH`. */
export const REDIS_SERVER_CANDIDATES = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'];

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The path of a `redis-server` binary: `REDIS_SERVER_PATH` when it is set (and executable), else the
 * first executable of {@link REDIS_SERVER_CANDIDATES}, else `undefined`.
 */
export function findRedisServer(environment = process.env) {
  const override = environment.REDIS_SERVER_PATH;
  if (override) return isExecutable(override) ? override : undefined;
  return REDIS_SERVER_CANDIDATES.find(isExecutable);
}

const HOW_TO_INSTALL = `The Redis event log's tests need redis-server, and none was found.
Install it, then run the tests again:
  Debian/Ubuntu:  sudo apt-get update && sudo apt-get install -y redis-server
  macOS:          brew install redis
  elsewhere:      install Redis 7 and set REDIS_SERVER_PATH=/path/to/redis-server
(checked: REDIS_SERVER_PATH, ${REDIS_SERVER_CANDIDATES.join(', ')})`;

function canInstallWithApt() {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return isRoot && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

function main() {
  if (process.env.REDIS_SERVER_PATH && !findRedisServer()) {
    console.error(
      `REDIS_SERVER_PATH is set to ${process.env.REDIS_SERVER_PATH}, which is no executable file.`,
    );
    process.exit(1);
  }
  let path = findRedisServer();
  if (!path && canInstallWithApt()) {
    console.log("redis-server not found; installing Debian's redis-server with apt-get…");
    try {
      execFileSync('apt-get', ['update'], { stdio: 'inherit' });
      execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    } catch {
      console.error('apt-get could not install redis-server.');
    }
    path = findRedisServer();
  }
  if (!path) {
    console.error(HOW_TO_INSTALL);
    process.exit(1);
  }
  console.log(`redis-server: ${path}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
