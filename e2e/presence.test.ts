// Presence on the dashboard right after sign-in, and on the users page opened straight from a
// stored session, in a real Chromium against the real server: the signed-in admin is online from
// the first render, because those pages' first reads wait for the server to register the sync
// socket (which marks the user online), and that flag is still the server's: with the socket
// refused the dashboard's table says Offline.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, login, newPage, startE2E, type E2E } from './harness.ts';

vi.setConfig({ testTimeout: 90_000 });

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
}, 120_000);
afterAll(async () => {
  await e2e?.close();
});

const ADMIN_NAME = 'Ana Admin';

/** The admin's `online` in every answer to GET `pathname` the page gets, in order, read from the answer's `list`. */
function watchAnswers(page: Page, pathname: string, list: 'attendants' | 'users'): (boolean | undefined)[] {
  const seen: (boolean | undefined)[] = [];
  page.on('response', async (res) => {
    // The API's answers only, not the page itself (a page load of /users asks the web server for the same path).
    if (new URL(res.url()).pathname !== pathname || res.request().method() !== 'GET' || res.request().resourceType() !== 'fetch') return;
    const body = (await res.json().catch(() => undefined)) as Record<string, { name: string; online: boolean }[] | undefined> | undefined;
    seen.push(body?.[list]?.find((a) => a.name === ADMIN_NAME)?.online);
  });
  return seen;
}
const watchDashboardAnswers = (page: Page) => watchAnswers(page, '/dashboard', 'attendants');

/** Waits until the admin is offline (a socket of an earlier test closes after a grace period). */
async function adminOffline(): Promise<void> {
  const online = async () => (await e2e.server.deps.db.selectFrom('users').select('online').where('email', '=', DEMO.admin).executeTakeFirstOrThrow()).online;
  await expect.poll(online, { timeout: 20_000 }).toBe(0);
}

/** The status cell of the admin's row, read as soon as the row is on screen (its first render). */
async function firstStatus(page: Page): Promise<string | null> {
  const row = page.getByRole('table', { name: 'Attendants' }).getByRole('row').filter({ hasText: ADMIN_NAME });
  await row.waitFor();
  return row.getByRole('cell').last().textContent();
}

describe('presence after sign-in', () => {
  it('shows the signed-in admin online in the first attendants table', async () => {
    await adminOffline();
    const { context, page } = await newPage(e2e);
    try {
      const answers = watchDashboardAnswers(page);
      await login(page, DEMO.admin, e2e.demoPassword);
      expect(await firstStatus(page)).toBe('Online');
      await expect.poll(() => answers.length).toBeGreaterThan(0);
      expect(answers[0]).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('shows the admin online on the users page opened from a stored session over a slow socket', async () => {
    const { context, page } = await newPage(e2e);
    try {
      await login(page, DEMO.admin, e2e.demoPassword);
      // The tab leaves the app (its socket closes) and comes back later, straight to /users (a
      // bookmark), where the sync socket takes a while to connect.
      await page.goto('about:blank');
      await adminOffline();
      await context.routeWebSocket(/\/sync\/ws/, async (ws) => {
        await new Promise((r) => setTimeout(r, 700));
        ws.connectToServer();
      });
      const answers = watchAnswers(page, '/users', 'users');
      await page.goto('/users');
      const dot = page.getByRole('row').filter({ hasText: ADMIN_NAME }).locator('span[title]').first();
      await dot.waitFor();
      expect(await dot.getAttribute('title')).toBe('Online');
      await expect.poll(() => answers.length).toBeGreaterThan(0);
      expect(answers[0]).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('says Offline when the sync socket cannot connect: the flag is the server’s, not the page’s', async () => {
    await adminOffline();
    const { context, page } = await newPage(e2e);
    await context.routeWebSocket(/\/sync\/ws/, (ws) => ws.close({ code: 1011, reason: 'refused by the test' }));
    try {
      const answers = watchDashboardAnswers(page);
      await login(page, DEMO.admin, e2e.demoPassword);
      expect(await firstStatus(page)).toBe('Offline');
      await expect.poll(() => answers.length).toBeGreaterThan(0);
      expect(answers[0]).toBe(false);
    } finally {
      await context.close();
    }
  });
});
