#!/usr/bin/env node
// The `zapdesk` bin. The TypeScript sources run as they are (no build step to remember, like
// `npm start` for the server), but not through tsx's loader at every start: that cost ~1 s of CPU
// and ~40 MB per run (every module of zod, the sync core and the CLI resolved through a loader
// thread). Instead the sources are bundled with esbuild (tsx's own compiler) once per change, into
// node_modules/.cache/zapdesk-cli/<fingerprint>/, code-split so a command still loads only its own
// chunks (Ink, React and the like stay lazy). The fingerprint covers every source file's path, size
// and mtime: an edit makes the next run rebuild (~0.3 s). Should bundling fail, tsx runs the sources.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';

// React's production build for the Ink views: the development one is slower and keeps more memory.
process.env.NODE_ENV ??= 'production';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = path.join(ROOT, 'cli/src/main.ts');
// The repo's tsconfig by path: its JSX settings compile the .tsx views, wherever the bin runs from.
const TSCONFIG = path.join(ROOT, 'tsconfig.json');
const SOURCES = ['cli/src', 'sync/src'];
const CACHE = path.join(ROOT, 'node_modules/.cache/zapdesk-cli');
const STALE_BUNDLE_MS = 10 * 60 * 1000;

function fingerprint() {
  const hash = createHash('sha256');
  for (const file of [TSCONFIG, path.join(ROOT, 'cli/package.json'), path.join(ROOT, 'sync/package.json')]) stamp(hash, file);
  for (const dir of SOURCES) {
    const names = readdirSync(path.join(ROOT, dir), { recursive: true }).map(String).sort();
    for (const name of names) if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) stamp(hash, path.join(ROOT, dir, name));
  }
  return hash.digest('hex').slice(0, 16);
}

function stamp(hash, file) {
  const info = statSync(file);
  hash.update(`${file}\0${info.size}\0${info.mtimeMs}\n`);
}

/** The bundle's entry, built if this fingerprint has none; concurrent runs each build and one rename wins. */
async function bundledEntry() {
  const dir = path.join(CACHE, fingerprint());
  const main = path.join(dir, 'main.mjs');
  if (existsSync(main)) return main;
  const { build } = await import('esbuild');
  const tmp = `${dir}.tmp-${process.pid}`;
  await build({
    entryPoints: [ENTRY],
    outdir: tmp,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: TSCONFIG,
    logLevel: 'silent',
    // Packages stay in node_modules (resolved from the cache folder, which lives under it); the
    // workspace's own TypeScript (@zapdesk/sync) is bundled.
    plugins: [{ name: 'external-packages', setup: (b) => b.onResolve({ filter: /^[^./]/ }, (a) => (a.path.startsWith('@zapdesk/') ? undefined : { path: a.path, external: true })) }],
  });
  try {
    renameSync(tmp, dir);
  } catch {
    rmSync(tmp, { recursive: true, force: true }); // another run got there first
  }
  pruneOldBundles(dir);
  return main;
}

/** Bundles of earlier sources, left long enough for a run still loading their chunks to finish. */
function pruneOldBundles(keep) {
  for (const name of readdirSync(CACHE)) {
    const other = path.join(CACHE, name);
    if (other === keep) continue;
    try {
      if (Date.now() - statSync(other).mtimeMs > STALE_BUNDLE_MS) rmSync(other, { recursive: true, force: true });
    } catch {
      // gone already
    }
  }
}

let entry;
try {
  entry = await bundledEntry();
} catch {
  entry = undefined;
}
if (entry) {
  await import(pathToFileURL(entry).href);
} else {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: TSCONFIG });
  await import('../src/main.ts');
}
