// `npm run bench`: runs every bench/*.bench.ts (or those named as arguments) one after the other,
// each in its own process, and prints one JSON object { "<name>": <its JSON output> }.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBenchFile } from './run-file.ts';

const dir = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.bench\.ts$/, '')))
  .sort();

const results: Record<string, unknown> = {};
for (const file of files) {
  const run = runBenchFile(path.join(dir, file));
  results[file.replace(/\.bench\.ts$/, '')] = run.ok ? run.result : { error: run.error };
}
console.log(JSON.stringify(results, null, 2));
