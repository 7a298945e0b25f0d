/* global process, console -- a Node script, linted by the shared config without Node globals for .mjs */
// What scripts/ensure-chromium.mjs and scripts/ensure-redis.mjs share: find a binary the tests
// start (an environment variable first, then the usual paths), or install Debian's package when it
// can (root with apt-get), or stop with a message that says how to get one. Nothing but a Debian
// package is ever downloaded: these machines reach no other network.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The path of a binary: `environment[variable]` when it is set (and executable), else the first
 * executable of `candidates`, else `undefined`.
 */
export function findBinary(variable, candidates, environment = process.env) {
  const override = environment[variable];
  if (override) return isExecutable(override) ? override : undefined;
  return candidates.find(isExecutable);
}

function canInstallWithApt() {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return isRoot && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Finds the binary or installs `aptPackage`, printing its path; exits 1 with `howToInstall` when
 * neither works. `label` names it in the messages; `installArgs` go to `apt-get install -y`.
 */
export function ensureBinary({
  label,
  variable,
  candidates,
  aptPackage,
  installArgs = [],
  howToInstall,
  took = '',
}) {
  const find = () => findBinary(variable, candidates);
  if (process.env[variable] && !find()) {
    console.error(`${variable} is set to ${process.env[variable]}, which is no executable file.`);
    process.exit(1);
  }
  let path = find();
  if (!path && canInstallWithApt()) {
    console.log(`${label} not found; installing Debian's ${aptPackage} with apt-get${took}…`);
    try {
      execFileSync('apt-get', ['update'], { stdio: 'inherit' });
      execFileSync('apt-get', ['install', '-y', ...installArgs, aptPackage], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    } catch {
      console.error(`apt-get could not install ${aptPackage}.`);
    }
    path = find();
  }
  if (!path) {
    console.error(`${howToInstall}\n(checked: ${variable}, ${candidates.join(', ')})`);
    process.exit(1);
  }
  console.log(`${label}: ${path}`);
}
