// The repository's load-balancer config (deploy/haproxy.cfg) run for real in front of server
// processes (process.ts): the balancer test and `npm run -s bench cluster` use the file as written,
// only its ports moved to free ones (its `bind` lines and the addresses of its `server` lines).
// HAProxy comes from Debian's package (apt-get install haproxy); .ci/run installs it, tests do not.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './process.ts';

const CONFIG = fileURLToPath(new URL('../../deploy/haproxy.cfg', import.meta.url));
export const HAPROXY_MISSING = "haproxy is not installed: apt-get install haproxy (Debian's package; .ci/run installs it)";

/** The haproxy binary: on PATH, or in Debian's /usr/sbin (not on a non-root PATH). */
export function findHaproxy(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin'];
  return dirs.filter((dir) => path.isAbsolute(dir)).map((dir) => path.join(dir, 'haproxy')).find((file) => existsSync(file));
}

export type Instance = { port: number; webPort: number };

/**
 * deploy/haproxy.cfg with its ports moved: `bind :8080` and `bind :3000` to `apiPort` and `webPort`,
 * server i's 127.0.0.1:808i and :300i to the instance's ports. Every other line stays as written;
 * a config whose lines no longer match throws, so the file and this test cannot drift apart.
 */
export function substitutedConfig(instances: Instance[], ports: { apiPort: number; webPort: number }): string {
  const text = readFileSync(CONFIG, 'utf8');
  let changed = 0;
  const out = text.split('\n').map((line) => {
    const bind = /^(\s*bind\s+):(8080|3000)\s*$/.exec(line);
    if (bind) {
      changed++;
      return `${bind[1]}:${bind[2] === '8080' ? ports.apiPort : ports.webPort}`;
    }
    const server = /^(\s*server\s+zapdesk(\d)\s+127\.0\.0\.1:)(808|300)(\d)(.*)$/.exec(line);
    if (server) {
      const instance = instances[Number(server[2]) - 1];
      if (!instance) throw new Error(`deploy/haproxy.cfg names zapdesk${server[2]}, but ${instances.length} instances run`);
      changed++;
      return `${server[1]}${server[3] === '808' ? instance.port : instance.webPort}${server[5]}`;
    }
    return line;
  });
  const expected = 2 + 2 * instances.length;
  if (changed !== expected) throw new Error(`deploy/haproxy.cfg: ${changed} bind/server lines matched, ${expected} expected`);
  return out.join('\n');
}

export type Balancer = {
  /** The API frontend (deploy/haproxy.cfg's :8080) and the web app's (:3000), on their free ports. */
  url: string;
  webUrl: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
};

/** Runs haproxy in the foreground (-db) with the substituted config; resolves once it answers /health. */
export async function startBalancer(instances: Instance[]): Promise<Balancer> {
  const bin = findHaproxy();
  if (!bin) throw new Error(HAPROXY_MISSING);
  const ports = { apiPort: await freePort(), webPort: await freePort() };
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'zapdesk-haproxy-')), 'haproxy.cfg');
  writeFileSync(file, substitutedConfig(instances, ports));
  const child = spawn(bin, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (out += chunk));
  const url = `http://127.0.0.1:${ports.apiPort}`;
  const until = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}):\n${out}`);
    const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`haproxy did not answer on ${url}:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    webUrl: `http://127.0.0.1:${ports.webPort}`,
    child,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
