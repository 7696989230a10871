// The product as a real process, for tests that need what an in-process app cannot do: be killed
// with SIGKILL mid-work and start again on the same data. `npm start`'s entry (server/src/main.ts)
// on a DATA_DIR and database of the test's, free ports, the demo company seeded.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareGuardedDatabase } from './template-db.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const PROCESS_PASSWORD = 'process-test-password';

/**
 * Node's own flags in `npm start` (package.json: `node <flags> --import tsx <entry>`, the loader
 * left out): a process started here, or a benchmark playing the server in its own process, runs
 * as the product does.
 */
export function startFlags(): string[] {
  const args = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(/\s+/).slice(1);
  const flags: string[] = [];
  for (let i = 0; i < args.length && args[i]!.startsWith('--'); i++) {
    if (args[i] === '--import') i++;
    else flags.push(args[i]!);
  }
  return flags;
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

export type ServerProcess = {
  url: string;
  /** The API's and the web app's ports (a balancer's `server` lines point at them). */
  port: number;
  webPort: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr. */
  output(): string;
  /** JSON over HTTP; `body` sent as JSON. Answers status and parsed body. */
  request(method: string, route: string, opts?: { token?: string; body?: unknown }): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  kill(signal: NodeJS.Signals): Promise<void>;
};

/**
 * Starts server/src/main.ts and resolves once it listens. The same dataDir and databaseUrl start it
 * again on the same data; the same ports too when given (an instance back behind its balancer).
 */
export async function startServerProcess(opts: { dataDir: string; databaseUrl?: string; env?: Record<string, string>; execArgv?: string[]; guard?: boolean; port?: number; webPort?: number }): Promise<ServerProcess> {
  // A synced row updated without its version moving fails the statement (version-guard.ts); the
  // process logs such a refusal, and `output()` shows it. Benchmarks measure the product without it.
  if (opts.guard !== false) await prepareGuardedDatabase(opts.databaseUrl ?? path.join(opts.dataDir, 'zapdesk.db'));
  const port = opts.port ?? (await freePort());
  const webPort = opts.webPort ?? (await freePort());
  const child = spawn(process.execPath, [...startFlags(), ...(opts.execArgv ?? []), '--import', 'tsx', path.join(ROOT, 'server/src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      WEB_PORT: String(webPort),
      DATA_DIR: opts.dataDir,
      ADMIN_PASSWORD: PROCESS_PASSWORD,
      DEMO_PASSWORD: PROCESS_PASSWORD,
      SEED_DEMO: '1',
      SIMULATOR: '1',
      // Simulated phones confirm nothing on their own (a test says when, through the faults control).
      SIMULATOR_DELIVER_MS: '0',
      ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const until = Date.now() + 60_000;
  while (!out.includes('listening on')) {
    if (child.exitCode !== null || Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    webPort,
    child,
    output: () => out,
    async request(method, route, { token, body } = {}) {
      const headers: Record<string, string> = {};
      if (token) headers.authorization = `Bearer ${token}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${url}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    kill: (signal) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}
