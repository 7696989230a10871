// login, whoami, logout and the saved session, with the CLI as a real process against the real server.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/src/server.ts';
import { signAccessToken } from '../../server/src/auth/tokens.ts';
import { writeConfig } from '../src/config.ts';
import { ADMIN, login, startTestServer, tempConfigHome, zapdesk } from './helpers.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const configFile = (home: string) => path.join(home, 'zapdesk', 'config.json');
const readConfig = (home: string) => JSON.parse(readFileSync(configFile(home), 'utf8')) as Record<string, unknown>;

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
    expect(en).toMatchObject({ code: 1, stdout: '', stderr: 'Authentication error. Please try again.\n' });
    const pt = await zapdesk(['--lang', 'pt', ...args], { home, input: 'wrong-password' });
    expect(pt).toMatchObject({ code: 1, stderr: 'Erro de autenticação. Por favor, tente novamente.\n' });
    const fromLang = await zapdesk(args, { home, input: 'wrong-password', env: { LANG: 'es_ES.UTF-8' } });
    expect(fromLang).toMatchObject({ code: 1, stderr: 'Error de autenticación. Inténtalo de nuevo.\n' });
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
});
