// Test helpers: the real server in-process on a fresh database (SQLite, or a new PostgreSQL database
// when TEST_POSTGRES_URL is set) and a free port, and the CLI as a real process (node + the bin
// launcher) with its own XDG_CONFIG_HOME.
import { spawn } from 'node:child_process';
import xterm from '@xterm/headless';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '../../server/src/config.ts';
import { createMemoryLogger } from '../../server/src/log.ts';
import { startServer, type RunningServer } from '../../server/src/server.ts';
import { createPostgresDatabase } from '../../server/test/harness.ts';
import { prepareGuardedDatabase } from '../../server/test/template-db.ts';
import { assertNoGuardViolations } from '../../server/test/version-guard.ts';
import { expect } from 'vitest';

export const BIN = fileURLToPath(new URL('../bin/zapdesk.js', import.meta.url));
export const ADMIN = { email: 'admin@zapdesk.local', password: 'Admin-Pass-1' };

export const dialect = process.env.TEST_POSTGRES_URL ? 'postgres' : 'sqlite';

export async function startTestServer(overrides: Partial<Config> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-cli-server-'));
  const pg = process.env.TEST_POSTGRES_URL ? await createPostgresDatabase(process.env.TEST_POSTGRES_URL) : undefined;
  const config = {
    ...loadConfig({ DATA_DIR: dataDir, PORT: '0', ADMIN_PASSWORD: ADMIN.password, SEED_DEMO: '0', JWT_SECRET: 'cli-test', JWT_REFRESH_SECRET: 'cli-test-refresh', WEBHOOKS_ALLOW_PRIVATE: '1', SIMULATOR_DELIVER_MS: '0' }),
    ...(pg ? { databaseUrl: pg.url } : {}),
    rateLimits: { perIp: 10_000, perAccount: 10_000, windowMs: 60_000 },
    ...overrides,
  };
  // A synced row updated without its version moving fails the statement (version-guard.ts).
  await prepareGuardedDatabase(config.databaseUrl);
  const log = createMemoryLogger();
  const server = await startServer(config, { log });
  return {
    ...server,
    async close() {
      await server.close();
      await pg?.drop();
      assertNoGuardViolations(log.lines);
    },
  };
}

export const tempConfigHome = () => mkdtempSync(path.join(tmpdir(), 'zapdesk-cli-home-'));

export type Run = { code: number | null; stdout: string; stderr: string };

/** The JSON a run printed, once it is known to have succeeded (its stderr shown if not). */
export function json(run: Run) {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

type RunOptions = { home: string; input?: string; env?: Record<string, string> };

/** `zapdesk ...args` as a child process; `env` adds to a clean environment (no inherited LANG or tokens). */
export function zapdesk(args: string[], opts: RunOptions): Promise<Run> {
  return run(process.execPath, [BIN, ...args], opts);
}

/**
 * `zapdesk ...args | reader` through bash with pipefail, as a person types it: the code is the CLI's
 * when it failed (else the reader's), stderr the CLI's, stdout what the reader printed.
 */
export function zapdeskPiped(args: string[], reader: string, opts: RunOptions): Promise<Run> {
  return run('bash', ['-o', 'pipefail', '-c', `"$0" "$@" | ${reader}`, process.execPath, BIN, ...args], opts);
}

function run(command: string, args: string[], opts: RunOptions): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { PATH: process.env.PATH ?? '', HOME: opts.home, XDG_CONFIG_HOME: opts.home, LANG: 'C.UTF-8', NO_COLOR: '1', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

export async function login(url: string, home: string, user: { email: string; password: string } = ADMIN): Promise<Run> {
  const run = await zapdesk(['login', '--url', url, '--email', user.email, '--password-stdin'], { home, input: user.password });
  if (run.code !== 0) throw new Error(`login failed: ${run.code} ${run.stderr}`);
  return run;
}

export type Pty = {
  /** Everything the terminal received so far, escape sequences included. */
  output(): string;
  /** Typed at the keyboard. */
  write(keys: string): void;
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
};

/**
 * `zapdesk ...args` in a pseudo-terminal of `cols` × `rows` (util-linux `script`, on every Debian),
 * so stdin and stdout are TTYs and Ink draws: what a person at a terminal sees, keys included.
 */
export function inPty(args: string[], opts: { home: string; cols?: number; rows?: number; env?: Record<string, string> }): Pty {
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  // A fresh pseudo-terminal has no size: stty gives it one before the CLI starts.
  const command = `stty cols ${opts.cols ?? 120} rows ${opts.rows ?? 40}; exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', HOME: opts.home, XDG_CONFIG_HOME: opts.home, LANG: 'C.UTF-8', TERM: 'xterm-256color', ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  // A test that fails before the CLI quits must not leave it running (it watches forever).
  const stop = () => child.kill();
  process.once('exit', stop);
  void exited.then(() => process.off('exit', stop));
  return {
    output: () => output,
    write: (keys) => void child.stdin.write(keys),
    async waitFor(pattern, ms = 60_000) {
      const until = Date.now() + ms;
      for (;;) {
        const m = output.match(pattern);
        if (m) return m;
        if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}; output so far:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    exited,
  };
}

/**
 * The lines a terminal of `cols` × `rows` shows after receiving `output` (scrollback included), as
 * a terminal emulator draws them: wrapping, cursor moves and erasing applied. What a person sees,
 * where the raw output would also hold every frame that was later erased.
 */
export async function screenOf(output: string, cols: number, rows: number): Promise<string[]> {
  const term = new xterm.Terminal({ cols, rows, scrollback: 1000, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(output, resolve));
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
  term.dispose();
  while (lines.length && lines.at(-1) === '') lines.pop();
  return lines;
}
