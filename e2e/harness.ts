// End-to-end harness: the real server (startServer, the code `npm start` runs) on a fresh SQLite
// database with the demo seed, the built web app on its own port, and Debian's Chromium driven by
// playwright-core. Nothing is downloaded: the browser is /usr/bin/chromium (.ci/run installs it).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { loadConfig } from '../server/src/config.ts';
import { createMemoryLogger } from '../server/src/log.ts';
import { startServer, type RunningServer } from '../server/src/server.ts';
import { prepareGuardedDatabase } from '../server/test/template-db.ts';
import { assertNoGuardViolations } from '../server/test/version-guard.ts';
import { ensureWebBuilt } from '../web/scripts/build-if-stale.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ADMIN_PASSWORD = 'Admin-e2e-123';
export const DEMO = { admin: 'admin@demo.zapdesk.local', attendant: 'bruno@demo.zapdesk.local', superAdmin: 'admin@zapdesk.local' };

/** Where the e2e screenshots go, to be looked at after a run. */
export const SHOTS_DIR = path.join(process.env.ZAPDESK_OUTER_TMPDIR ?? tmpdir(), 'zapdesk-e2e-shots');

export type E2E = {
  server: RunningServer;
  webUrl: string;
  apiUrl: string;
  browser: Browser;
  demoPassword: string;
  /** What the server logged, mails included (no SMTP in tests). */
  log: ReturnType<typeof createMemoryLogger>;
  close(): Promise<void>;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** `env` adds or overrides server settings for one file (e.g. a faster simulator QR refresh). */
export async function startE2E(env: Record<string, string> = {}): Promise<E2E> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  ensureWebBuilt();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-e2e-'));
  // The CORS origin is the web port, so both ports are chosen before the server starts.
  const [port, webPort] = [await freePort(), await freePort()];
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: String(port),
    WEB_PORT: String(webPort),
    ADMIN_PASSWORD,
    SIMULATOR: '1',
    RATE_LIMIT_PER_IP: '10000',
    RATE_LIMIT_PER_ACCOUNT: '10000',
    // The webhook receivers of the tests listen on 127.0.0.1 (the SSRF guard refuses it otherwise).
    WEBHOOKS_ALLOW_PRIVATE: '1',
    // Simulated phones confirm nothing on their own: a file that looks at the ticks moves them itself.
    SIMULATOR_DELIVER_MS: '0',
    ...env,
  });
  // A synced row updated without its version moving fails the statement (version-guard.ts).
  await prepareGuardedDatabase(config.databaseUrl);
  const log = createMemoryLogger();
  const server = await startServer(config, { log });
  if (!server.webUrl) throw new Error('the web app was not served');
  // The seed reads DEMO_PASSWORD from the process environment; the generated one is reported back.
  const demoPassword = server.firstStart.demo?.users[0]?.password;
  if (!demoPassword) throw new Error('the demo company was not seeded');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  mkdirSync(SHOTS_DIR, { recursive: true });
  return {
    server,
    webUrl: server.webUrl,
    apiUrl: server.apiUrl,
    browser,
    demoPassword,
    log,
    async close() {
      await browser.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
      assertNoGuardViolations(log.lines);
    },
  };
}

type ContextOptions = { width?: number; height?: number; dark?: boolean; language?: string };

/** A fresh browser profile (own storage and cookies), optionally narrow, dark or in a language. */
export async function newPage(e2e: E2E, opts: ContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await e2e.browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    colorScheme: opts.dark ? 'dark' : 'light',
    baseURL: e2e.webUrl,
  });
  if (opts.language) await context.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), opts.language);
  const page = await context.newPage();
  // Fail within a test's budget with the locator's own message, not the runner's timeout.
  page.setDefaultTimeout(20_000);
  return { context, page };
}

export async function login(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel(/^(Email)$/).fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await page.locator('header').waitFor();
}

/** Calls the API as a user, outside the browser (test setup). */
export async function apiAs(e2e: E2E, email: string, password: string) {
  const res = await fetch(`${e2e.apiUrl}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (!res.ok) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  return async <T>(method: string, urlPath: string, body?: unknown): Promise<T> => {
    const r = await fetch(`${e2e.apiUrl}${urlPath}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${method} ${urlPath}: ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  };
}

export function shot(page: Page, name: string): Promise<Buffer> {
  return page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
}

/** The text of the last mail the server "sent" to an address (logged, since tests have no SMTP). */
export function lastMailTo(e2e: E2E, to: string): string | undefined {
  const mails = e2e.log.lines.filter((l) => l.msg.startsWith('mail') && l.data?.to === to);
  return mails.at(-1)?.data?.text as string | undefined;
}
