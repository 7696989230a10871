// login, whoami, logout and the saved session, with the CLI as a real process against the real server.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/src/server.ts';
import { signAccessToken } from '../../server/src/auth/tokens.ts';
import { writeConfig } from '../src/config.ts';
import { ADMIN, BIN, login, startTestServer, tempConfigHome, zapdesk } from './helpers.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const configFile = (home: string) => path.join(home, 'zapdesk', 'config.json');
const readConfig = (home: string) => JSON.parse(readFileSync(configFile(home), 'utf8')) as Record<string, unknown>;

/** The live store's files (the database, its -wal and -shm) with their permission bits. */
const storeModes = (home: string) =>
  Object.fromEntries(
    readdirSync(path.join(home, 'zapdesk'))
      .filter((f) => f.startsWith('replicache.db'))
      .map((f) => [f, (statSync(path.join(home, 'zapdesk', f)).mode & 0o777).toString(8)]),
  );

/** A port on this machine where nothing listens: connections to it are refused. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('zapdesk login / whoami / logout', { timeout: 120_000 }, () => {
  it('logs in with --password-stdin, saves the session with mode 0600, and whoami reads it back', async () => {
    const home = tempConfigHome();
    const run = await login(server.apiUrl, home);
    expect(run.stdout).toBe(`Logged in to ${server.apiUrl} as ${ADMIN.email} (super-admin, zapdesk)\n`);
    expect(statSync(configFile(home)).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(configFile(home))).mode & 0o077).toBe(0);
    const saved = readConfig(home);
    expect(saved).toMatchObject({ url: server.apiUrl, email: ADMIN.email, userId: 1, companyId: 1 });
    expect(saved.refreshToken).toEqual(expect.any(String));

    const me = await zapdesk(['whoami', '--json'], { home });
    expect(me.code).toBe(0);
    const body = JSON.parse(me.stdout);
    expect(body).toMatchObject({ email: ADMIN.email, super: true, url: server.apiUrl, company: { id: 1, name: 'zapdesk' } });

    const plain = await zapdesk(['whoami'], { home });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain(`user      Super Admin <${ADMIN.email}>`);
    expect(plain.stdout).toContain(`server    ${server.apiUrl}`);
  });

  it('refreshes an expired access token once and saves the rotated refresh token', async () => {
    const home = tempConfigHome();
    await login(server.apiUrl, home);
    // The saved access token of this very session, but expired: the server answers 403 ERR_TOKEN_EXPIRED.
    const saved = readConfig(home);
    const claims = JSON.parse(Buffer.from(String(saved.accessToken).split('.')[1]!, 'base64url').toString()) as { sub: number; cid: number; sid: string };
    const expired = await signAccessToken({ sub: claims.sub, cid: claims.cid, sid: claims.sid }, server.deps.config.jwtSecret, -60);
    writeConfig({ XDG_CONFIG_HOME: home }, { ...saved, accessToken: expired });
    const before = readConfig(home);
    const me = await zapdesk(['whoami', '--json'], { home });
    expect(me.code, me.stderr).toBe(0);
    const after = readConfig(home);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(statSync(configFile(home)).mode & 0o777).toBe(0o600);
  });

  it('a wrong password exits 1 with the catalogue message in the chosen language, and keeps the old session', async () => {
    const home = tempConfigHome();
    await login(server.apiUrl, home);
    const args = ['login', '--url', server.apiUrl, '--email', ADMIN.email, '--password-stdin'];
    const en = await zapdesk(args, { home, input: 'wrong-password' });
    expect(en).toMatchObject({ code: 1, stdout: '', stderr: 'error: Authentication error. Please try again.\n' });
    const pt = await zapdesk(['--lang', 'pt', ...args], { home, input: 'wrong-password' });
    expect(pt).toMatchObject({ code: 1, stderr: 'error: Erro de autenticação. Por favor, tente novamente.\n' });
    const fromLang = await zapdesk(args, { home, input: 'wrong-password', env: { LANG: 'es_ES.UTF-8' } });
    expect(fromLang).toMatchObject({ code: 1, stderr: 'error: Error de autenticación. Inténtalo de nuevo.\n' });
    expect((await zapdesk(['whoami'], { home })).code).toBe(0);
  });

  it('logout ends the session on the server and here; then commands ask to log in', async () => {
    const home = tempConfigHome();
    await login(server.apiUrl, home);
    const { refreshToken } = readConfig(home);
    const out = await zapdesk(['logout'], { home });
    expect(out).toMatchObject({ code: 0, stdout: `Logged out (${ADMIN.email}).\n` });
    expect(readConfig(home)).toEqual({ url: server.apiUrl });
    // The server revoked the session: its refresh token no longer works.
    const res = await fetch(`${server.apiUrl}/auth/refresh_token`, { method: 'POST', headers: { cookie: `jrt=${refreshToken}` } });
    expect(res.status).toBe(401);
    const me = await zapdesk(['whoami'], { home });
    expect(me.code).toBe(1);
    expect(me.stderr).toMatch(/^error: not logged in: run `zapdesk login/);
  });

  it('ZAPDESK_URL and ZAPDESK_TOKEN override the saved config', async () => {
    const res = await fetch(`${server.apiUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { token } = (await res.json()) as { token: string };
    const home = tempConfigHome();
    const me = await zapdesk(['whoami', '--json'], { home, env: { ZAPDESK_URL: server.apiUrl, ZAPDESK_TOKEN: token } });
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ email: ADMIN.email, url: server.apiUrl });
  });

  it('keeps the synced copy of the company private (0700 folder, 0600 files) while it runs, and logout removes it', async () => {
    const home = tempConfigHome();
    await login(server.apiUrl, home);
    const watch = spawn(process.execPath, [BIN, 'tickets', 'watch'], { env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: home, LANG: 'C.UTF-8' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    watch.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => watch.on('close', resolve));
    for (const until = Date.now() + 60_000; !/^watching/m.test(err); await new Promise((r) => setTimeout(r, 100))) {
      if (Date.now() > until) throw new Error(`the watch did not start: ${err}`);
    }
    // While it runs SQLite has its write-ahead log open beside the database: all of it owner-only.
    const modes = storeModes(home);
    expect(Object.keys(modes)).toEqual(expect.arrayContaining(['replicache.db', 'replicache.db-wal']));
    for (const [file, mode] of Object.entries(modes)) expect(mode, file).toBe('600');
    expect(statSync(path.join(home, 'zapdesk')).mode & 0o777).toBe(0o700);
    watch.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(Object.keys(storeModes(home))).toContain('replicache.db');

    expect(await zapdesk(['logout'], { home })).toMatchObject({ code: 0, stdout: `Logged out (${ADMIN.email}).\n`, stderr: '' });
    expect(storeModes(home)).toEqual({});
    expect(existsSync(configFile(home))).toBe(true);
  });

  it('logout says when the server could not be told, and forgets the session here all the same', async () => {
    const home = tempConfigHome();
    await login(server.apiUrl, home);
    expect((await zapdesk(['tickets', 'watch', '--for', '1'], { home })).code).toBe(0);
    const url = `http://127.0.0.1:${await closedPort()}`;
    const out = await zapdesk(['logout'], { home, env: { ZAPDESK_URL: url } });
    expect(out).toMatchObject({ code: 0, stdout: `Logged out (${ADMIN.email}) on this computer only.\n` });
    expect(out.stderr).toBe(
      `warning: the server could not be told: cannot reach the zapdesk server at ${url} (ECONNREFUSED); check --url or ZAPDESK_URL\n` +
        'The session is forgotten here; on the server it stays valid until it expires.\n',
    );
    expect(readConfig(home)).toEqual({ url: server.apiUrl });
    expect(storeModes(home)).toEqual({});
  });
});

describe('why the server refused a session', { timeout: 120_000 }, () => {
  it('a token that is not valid is not called expired', async () => {
    const home = tempConfigHome();
    const run = await zapdesk(['whoami'], { home, env: { ZAPDESK_URL: server.apiUrl, ZAPDESK_TOKEN: 'not-a-token' } });
    expect(run).toMatchObject({
      code: 1,
      stderr: 'error: the server refused the access token in ZAPDESK_TOKEN: it is not a token of this server, or its session was ended (logged out, or replaced by a newer login).\n',
    });
  });

  it('a session replaced by a login elsewhere says so, in the chosen language', async () => {
    const laptop = tempConfigHome();
    const desktop = tempConfigHome();
    await login(server.apiUrl, laptop);
    await login(server.apiUrl, desktop); // one session at a time: the laptop's is revoked
    const run = await zapdesk(['--lang', 'pt', 'whoami'], { home: laptop });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'error: sua sessão foi encerrada no servidor: esta conta entrou de novo em outro lugar (uma sessão por vez), ou saiu por lá. Rode `zapdesk login` para entrar de novo.\n',
    );
    expect(run.stderr).not.toMatch(/expirou|expired/i);
    expect((await zapdesk(['whoami'], { home: desktop })).code).toBe(0);
  });
});

describe('a session that really ran out', { timeout: 120_000 }, () => {
  let shortLived: RunningServer;
  beforeAll(async () => {
    shortLived = await startTestServer({ accessTokenTtlSec: 1, refreshTokenTtlSec: 2 });
  });
  afterAll(() => shortLived?.close());

  it('is called expired, with the catalogue message', async () => {
    const home = tempConfigHome();
    await login(shortLived.apiUrl, home);
    expect(Date.parse(String(readConfig(home).refreshExpiresAt))).toBeGreaterThan(Date.now());
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await zapdesk(['whoami'], { home })).toMatchObject({ code: 1, stderr: 'error: Session expired. Please log in.\n' });
  });
});

