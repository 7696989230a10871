// `npm run bench`: runs every bench/*.bench.ts (or those named as arguments) one after the other,
// each in its own process, and prints one JSON object { "<name>": <its JSON output> }.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFlags } from '../server/test/process.ts';

const dir = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.bench\.ts$/, '')))
  .sort();

const results: Record<string, unknown> = {};
for (const file of files) {
  const name = file.replace(/\.bench\.ts$/, '');
  // With `npm start`'s Node flags: most benchmarks run the server in their own process.
  const run = spawnSync(process.execPath, [...startFlags(), '--import', 'tsx', path.join(dir, file)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  // A benchmark prints its result as the last JSON line; anything before it is progress.
  const last = run.stdout.trim().split('\n').reverse().find((l) => l.startsWith('{'));
  try {
    results[name] = last ? JSON.parse(last) : { error: `no JSON output (exit ${run.status})` };
  } catch {
    results[name] = { error: `unparseable output (exit ${run.status})` };
  }
}
console.log(JSON.stringify(results, null, 2));
