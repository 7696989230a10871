// Vitest's global setup: one temporary folder per test run, removed when the run ends. Tests make
// their data folders, server processes, CLI homes and browser profiles with mkdtemp(tmpdir()), and
// not every one removes its own (a test that fails halfway cannot): two runs of the suite left
// about 800 folders and 1.2 GB in /tmp. TMPDIR points every test file, and every process they
// start, into this run's folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(path.join(tmpdir(), 'zapdesk-run-'));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}
