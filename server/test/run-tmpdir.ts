// Vitest's global setup: one temporary folder per test run, removed when the run ends. Tests make
// their data folders, server processes, CLI homes and browser profiles with mkdtemp(tmpdir()), and
// not every one removes its own (a test that fails halfway cannot): two runs of the suite left
// about 800 folders and 1.2 GB in /tmp. TMPDIR points every test file, and every process they
// start, into this run's folder. The run also gets an id (ZAPDESK_TEST_RUN): each worker's
// migrated template databases (template-db.ts) carry it, and the PostgreSQL ones are dropped here.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dropPostgresTemplates } from './template-db.ts';

export default function setup(): () => Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'zapdesk-run-'));
  const run = randomBytes(4).toString('hex');
  // What outlives the run (the e2e screenshots, to be looked at after it) goes beside it.
  process.env.ZAPDESK_OUTER_TMPDIR ??= tmpdir();
  process.env.TMPDIR = root;
  process.env.ZAPDESK_TEST_RUN = run;
  return async () => {
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    const pgUrl = process.env.TEST_POSTGRES_URL;
    if (pgUrl) await dropPostgresTemplates(pgUrl, run).catch((err: unknown) => console.warn(`test templates not dropped: ${String(err)}`));
  };
}
