// Vitest's global setup: the e2e tests drive Debian's Chromium (e2e/harness.ts), which a new
// machine does not have. `npm test` installs it the way .ci/run does (apt, as root) when it is
// missing and the run includes the e2e tests; where it cannot (not root, no apt), the run stops at
// once with one line that says what to do. Nothing is downloaded by a test tool.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether this run selects e2e files: no file filters (the whole suite), or a filter that names them. */
function runsE2E(argv: string[]): boolean {
  const filters = argv.slice(argv.indexOf('run') + 1).filter((a) => !a.startsWith('-'));
  return filters.length === 0 || filters.some((f) => f.includes('e2e'));
}

export default function setup(): void {
  if (existsSync(CHROMIUM) || !runsE2E(process.argv)) return;
  const canInstall = process.getuid?.() === 0 && spawnSync('apt-get', ['--version']).status === 0;
  if (!canInstall) {
    throw new Error(`${CHROMIUM} is missing: install Debian's Chromium (sudo apt-get install -y chromium) or set CHROMIUM_PATH, then run npm test again.`);
  }
  console.log(`${CHROMIUM} is missing: installing Debian's chromium for the e2e tests (apt-get, about a minute)…`);
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
    const run = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (run.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${run.status}): install chromium by hand, then run npm test again.`);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium, but ${CHROMIUM} is still missing: set CHROMIUM_PATH.`);
}
