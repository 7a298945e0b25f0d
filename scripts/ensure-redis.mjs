#!/usr/bin/env node
/* global process -- a Node script, linted by the shared config without Node globals for .mjs */
// Finds the `redis-server` the Redis event log's tests start (one per test file, on a free port), or
// installs Debian's when it can, or stops with a message that says how to get one
// (scripts/ensure-debian-binary.mjs).
//
// `findRedisServer()` is also imported by the tests (test/support/redis-server.ts), so they start
// the binary this found.
import { fileURLToPath } from 'node:url';
import { ensureBinary, findBinary } from './ensure-debian-binary.mjs';

/** Where `redis-server` is looked for, in order, after `REDIS_SERVER_PATH`. */
export const REDIS_SERVER_CANDIDATES = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'];

/**
 * The path of a `redis-server` binary: `REDIS_SERVER_PATH` when it is set (and executable), else the
 * first executable of {@link REDIS_SERVER_CANDIDATES}, else `undefined`.
 */
export function findRedisServer(environment = process.env) {
  return findBinary('REDIS_SERVER_PATH', REDIS_SERVER_CANDIDATES, environment);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  ensureBinary({
    label: 'redis-server',
    variable: 'REDIS_SERVER_PATH',
    candidates: REDIS_SERVER_CANDIDATES,
    aptPackage: 'redis-server',
    installArgs: ['--no-install-recommends'],
    howToInstall: `The Redis event log's tests need redis-server, and none was found.
Install it, then run the tests again:
  Debian/Ubuntu:  sudo apt-get update && sudo apt-get install -y redis-server
  macOS:          brew install redis
  elsewhere:      install Redis 7 and set REDIS_SERVER_PATH=/path/to/redis-server`,
  });
}
