// The external messages API page (spec/03 §2) in a real Chromium against the real server and the
// simulator: the admin finds it in the menu, sends a text and a file with the connection's token,
// reads the API's real answers on the page, and the simulated customer receives both; a wrong token
// shows the API's refusal; the page links to the API's reference (/docs, served by the API with
// assets from npm); and a plan without the external API sends the admin home with the spec's toast.
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bumpVersion } from '../server/src/sync/version.ts';
import { apiAs, DEMO, login, newPage, shot, startE2E, type E2E } from './harness.ts';

vi.setConfig({ testTimeout: 120_000 });

type Api = Awaited<ReturnType<typeof apiAs>>;
type Outbox = { id: string; to: string; body: string; mediaType?: string; fileName?: string }[];

let e2e: E2E;
let admin: Api;
let connection: { id: number; token: string };
// A second admin works in the browser: a login ends the user's other sessions, and the demo admin's
// API session reads the simulator meanwhile.
const browserAdmin = { email: 'api-admin@demo.zapdesk.local', password: 'Api-admin-123' };

beforeAll(async () => {
  e2e = await startE2E();
  admin = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
  const [first] = await admin<{ id: number; token: string }[]>('GET', '/whatsapp');
  connection = first!;
  await admin('POST', '/users', { name: 'Ana Integrations', email: browserAdmin.email, password: browserAdmin.password, profile: 'admin' });
}, 120_000);
afterAll(async () => {
  await e2e?.close();
});

const outbox = (to: string) => admin<Outbox>('GET', `/simulator/outbox?connectionId=${connection.id}&to=${to}`);

describe('messages API page', () => {
  it('sends a text and a file with the test forms, shows the real answers, and the customer receives them', async () => {
    const number = '5511900072222';
    const { context, page } = await newPage(e2e);
    await login(page, browserAdmin.email, browserAdmin.password);
    await page.getByRole('link', { name: 'Messages API' }).click();
    await page.waitForURL((url) => url.pathname === '/messages-api');
    await page.getByRole('heading', { name: 'Messages API' }).waitFor();
    expect(await page.getByRole('link', { name: 'Full API reference' }).getAttribute('href')).toBe(`${e2e.apiUrl}/docs`);

    const text = page.getByRole('form', { name: 'Send a text' });
    // Required fields first: nothing leaves while token, number or message is missing.
    await text.getByRole('button', { name: 'Send' }).click();
    await expect(text.getByText('Required').count()).resolves.toBeGreaterThanOrEqual(2);
    await text.getByLabel('Token').fill(connection.token);
    await text.getByLabel('Number').fill(number);
    await text.getByLabel('Message').fill('Your order has shipped');
    await text.getByRole('button', { name: 'Send' }).click();
    const textAnswer = page.getByRole('status', { name: 'Answer' }).first();
    await textAnswer.getByText('HTTP 200').waitFor();
    await textAnswer.getByText('"message": "Message sent"').waitFor();
    await expect.poll(async () => (await outbox(number)).map((m) => m.body), { timeout: 20_000 }).toContain('Your order has shipped');

    const media = page.getByRole('form', { name: 'Send a file' });
    const file = path.join(tmpdir(), 'zapdesk-invoice.pdf');
    writeFileSync(file, Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(600, 32)]));
    await media.getByLabel('Token').fill(connection.token);
    await media.getByLabel('Number').fill(number);
    await media.getByLabel('Caption (optional)').fill('Invoice attached');
    await media.getByLabel('File').setInputFiles(file);
    await media.getByRole('button', { name: 'Send' }).click();
    const mediaAnswer = page.getByRole('status', { name: 'Answer' }).nth(1);
    await mediaAnswer.getByText('HTTP 200').waitFor();
    await expect
      .poll(async () => (await outbox(number)).find((m) => m.fileName === 'zapdesk-invoice.pdf'), { timeout: 20_000 })
      .toMatchObject({ mediaType: 'document', body: 'Invoice attached' });
    await shot(page, 'messages-api');

    // A wrong token: the page shows the API's refusal as it came, and nothing more reaches the customer.
    const before = (await outbox(number)).length;
    await text.getByLabel('Token').fill(`${connection.token}-wrong`);
    await text.getByRole('button', { name: 'Send' }).click();
    await textAnswer.getByText('HTTP 401').waitFor();
    await textAnswer.getByText('"error": "ERR_SESSION_EXPIRED"').waitFor();
    expect((await outbox(number)).length).toBe(before);
    await context.close();
  });

  it('links to the reference page, which the API serves without any outside asset', async () => {
    const { context, page } = await newPage(e2e);
    const outside: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(e2e.apiUrl)) outside.push(r.url());
    });
    await page.goto(`${e2e.apiUrl}/docs`);
    await page.getByText('zapdesk API').first().waitFor();
    // Open the external API's section: its one operation is listed with its path.
    await page.getByRole('heading', { name: 'External API' }).click();
    await page.getByText('/api/messages/send').first().waitFor();
    expect(outside).toEqual([]);
    await shot(page, 'api-docs');
    await context.close();
  });

  it("sends a company whose plan lacks the external API home with 'messagesAPI.toasts.unauthorized' after 1 s", async () => {
    const db = e2e.server.deps.db;
    const company = await db.selectFrom('companies').select('planId').where('name', '=', 'Demo Company').executeTakeFirstOrThrow();
    await db.updateTable('plans').set({ useExternalApi: 0, ...bumpVersion() }).where('id', '=', company.planId!).execute();
    try {
      const { context, page } = await newPage(e2e);
      await login(page, browserAdmin.email, browserAdmin.password);
      await expect(page.getByRole('link', { name: 'Messages API' }).count()).resolves.toBe(0);
      await page.goto('/messages-api');
      await page.getByText("This company's plan does not include the messages API. Redirecting you.").waitFor();
      expect(new URL(page.url()).pathname).toBe('/messages-api');
      await expect(page.getByRole('heading', { name: 'Messages API' }).count()).resolves.toBe(0);
      await page.waitForURL((url) => url.pathname === '/');
      await context.close();
    } finally {
      await db.updateTable('plans').set({ useExternalApi: 1, ...bumpVersion() }).where('id', '=', company.planId!).execute();
    }
  });
});
