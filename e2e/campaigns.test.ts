// Campaigns in a real Chromium against the real server (spec/03 §2): the admin makes a contact list,
// sets the campaign settings (no interval, a custom variable), creates a campaign with two variants
// and watches their live preview, schedules it for now, and follows the report as the recipients
// are sent and then delivered (the simulator's phones ack), without reloading; the list ends on
// Finished. A second test finds a 10,000-recipient campaign by searching, stops it from the list,
// sees a restart made elsewhere meanwhile shown instead of refused, and checks its report stays a virtual table: a few dozen rows in the DOM, each of one height, the
// last recipient reachable by scrolling.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, apiAs, DEMO, login, newPage, shot, startE2E, type E2E } from './harness.ts';

vi.setConfig({ testTimeout: 120_000 });

let e2e: E2E;
let simulator: Awaited<ReturnType<typeof apiAs>>;
let admin: Awaited<ReturnType<typeof apiAs>>;
let opsToken: string;
let connection: { id: number; name: string };
const OPS = { email: 'ops@demo.zapdesk.local', password: 'Ops-e2e-1234' };

beforeAll(async () => {
  e2e = await startE2E();
  simulator = await apiAs(e2e, DEMO.superAdmin, ADMIN_PASSWORD);
  // The browser signs in as the demo admin, which ends that account's other sessions: the test's own
  // calls go as a second admin of the company.
  const demoAdmin = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
  await demoAdmin('POST', '/users', { name: 'Campaign Ops', email: OPS.email, password: OPS.password, profile: 'admin' });
  opsToken = await tokenOf(OPS.email, OPS.password);
  admin = async <T>(method: string, urlPath: string, body?: unknown): Promise<T> => {
    const r = await fetch(`${e2e.apiUrl}${urlPath}`, {
      method,
      headers: { authorization: `Bearer ${opsToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${method} ${urlPath}: ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  };
  connection = (await admin<{ id: number; name: string }[]>('GET', '/whatsapp'))[0]!;
}, 120_000);
afterAll(async () => {
  await e2e?.close();
});

/** The datetime-local value of the current minute, after waiting out its last seconds (the server takes a start up to 60 s past). */
async function thisMinute(): Promise<string> {
  if (new Date().getSeconds() > 45) await new Promise((r) => setTimeout(r, (61 - new Date().getSeconds()) * 1000));
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

const CONTACTS = [
  { name: 'Ana Lima', number: '5511977770001' },
  { name: 'Bruno Costa', number: '5511977770002' },
  { name: 'Carla Dias', number: '5511977770003' },
];

describe('campaign screens', () => {
  it('creates a campaign with two variants, previews it, sends it and follows the report live', async () => {
    const { context, page } = await newPage(e2e);
    await login(page, DEMO.admin, e2e.demoPassword);

    // The Campaigns group of the menu holds the list, the contact lists and the settings.
    const nav = page.getByRole('navigation');
    await nav.getByRole('button', { name: 'Campaigns' }).click();
    await nav.getByRole('link', { name: 'Campaign list' }).waitFor();
    await nav.getByRole('link', { name: 'Campaign settings' }).waitFor();
    await nav.getByRole('link', { name: 'Contact lists' }).click();

    // A contact list with three numbers.
    await page.getByRole('heading', { name: 'Contact lists' }).waitFor();
    await page.getByRole('button', { name: 'Add list' }).click();
    const listModal = page.getByRole('dialog', { name: 'New contact list' });
    await listModal.getByLabel('Name').fill('Campaign leads');
    await listModal.getByRole('button', { name: 'Save' }).click();
    await listModal.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Open list Campaign leads' }).click();
    for (const c of CONTACTS) {
      await page.getByRole('button', { name: 'Add contact' }).click();
      const item = page.getByRole('dialog', { name: 'New contact' });
      await item.getByLabel('Name').fill(c.name);
      await item.getByLabel('Number').fill(c.number);
      await item.getByRole('button', { name: 'Save' }).click();
      await item.waitFor({ state: 'detached' });
      await page.getByRole('row', { name: new RegExp(c.name) }).waitFor();
    }

    // Settings: no interval between messages, and a custom variable.
    await nav.getByRole('link', { name: 'Campaign settings' }).click();
    await page.getByRole('heading', { name: 'Campaign settings' }).waitFor();
    const interval = page.getByLabel('Interval between messages');
    expect(await interval.locator('option').allTextContents()).toEqual(['0 s', '5 s', '10 s', '15 s', '20 s']);
    await expect(interval.inputValue()).resolves.toBe('20');
    await interval.selectOption('0');
    await page.getByLabel('Shortcut').fill('cupom');
    await page.getByLabel('Value').fill('BF10');
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByLabel('Shortcut').fill('cupom');
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByText('This shortcut already exists').waitFor();
    // A built-in name is not a custom variable's ({nome} is the recipient's name).
    await page.getByLabel('Shortcut').fill('nome');
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByText('“nome” is a built-in variable: choose another shortcut').waitFor();
    await shot(page, 'campaign-settings');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').first().waitFor();
    const saved = await admin<{ key: string; value: string }[]>('GET', '/campaign-settings');
    expect(Object.fromEntries(saved.map((r) => [r.key, JSON.parse(r.value)]))).toMatchObject({ messageInterval: 0, variables: [{ key: 'cupom', value: 'BF10' }] });

    // The campaign: two variants, each previewed for the list's first contact.
    await nav.getByRole('link', { name: 'Campaign list' }).click();
    await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
    await page.getByRole('button', { name: 'Add campaign' }).click();
    const modal = page.getByRole('dialog', { name: 'New campaign' });
    await modal.getByLabel('Name', { exact: true }).fill('Black Friday');
    await modal.getByLabel('Connection').selectOption({ label: connection.name });
    await modal.getByLabel('Contact list').selectOption({ label: 'Campaign leads' });
    await expect(modal.getByLabel('Tag list').inputValue()).resolves.toBe('');
    const preview = modal.getByTestId('campaign-preview');
    await preview.getByText('Write a message to see it here.').waitFor();
    const first = modal.getByLabel('Message 1', { exact: true });
    await first.fill('Olá , as ofertas chegaram!');
    await first.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(4, 4));
    await modal.getByRole('button', { name: 'Insert {primeiro-nome}' }).click();
    await expect(first.inputValue()).resolves.toBe('Olá {primeiro-nome}, as ofertas chegaram!');
    await preview.getByText('Olá Ana, as ofertas chegaram!').waitFor();
    await modal.getByText('As Ana Lima would get it').waitFor();
    await modal.getByRole('tab', { name: 'Message 2' }).click();
    await modal.getByLabel('Message 2', { exact: true }).fill('{saudacao}, {primeiro-nome}! Use o cupom {cupom}.');
    await preview.getByText(/^(Bom dia|Boa tarde|Boa noite), Ana! Use o cupom BF10\.$/).waitFor();
    // An attachment goes with each message, the text as its caption; the preview names it.
    await modal.getByLabel('Attachment').setInputFiles({ name: 'promo.png', mimeType: 'image/png', buffer: PNG });
    await preview.getByText('promo.png').waitFor();
    await shot(page, 'campaign-dialog');
    // Starting now: the campaign is saved, gets its file, then its schedule (a start within the hour locks it).
    // Asking for a confirmation without its message is refused on that field, its tab brought up.
    const confirm = modal.getByRole('switch', { name: 'Ask for a confirmation first' });
    await confirm.click();
    await modal.getByLabel('Confirmation message 2').waitFor();
    await modal.getByLabel('Scheduled for').fill(await thisMinute());
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.getByText('A confirmation campaign needs its confirmation message').waitFor();
    await expect(modal.getByRole('tab', { name: /Message 1/ }).getAttribute('aria-selected')).resolves.toBe('true');
    await confirm.click();
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByRole('row', { name: /Black Friday/ }).count()).toBe(1);
    const row = page.getByRole('row', { name: /Black Friday/ });
    // The status shows once on a wide screen (a narrow one shows it under the name instead).
    await row.getByText(/Scheduled|In progress|Finished/).filter({ visible: true }).waitFor();
    expect(await row.getByRole('cell', { name: 'Campaign leads' }).count()).toBe(1);

    // The report follows the sends live: sent first, then delivered as the phones ack.
    await row.getByRole('button', { name: 'Report Black Friday' }).click();
    await page.waitForURL(/\/campaign\/\d+\/report$/);
    await page.getByRole('heading', { name: 'Report: Black Friday' }).waitFor();
    const recipients = page.getByRole('table', { name: 'Recipients' });
    for (const c of CONTACTS) await recipients.getByRole('row', { name: new RegExp(`${c.name}.*Sent`) }).waitFor();
    await page.getByTestId('total-sent').getByText('3').waitFor();
    await page.getByRole('progressbar', { name: 'Delivered 0 of 3 valid contacts' }).waitFor();
    const variants = await recipients.locator('tbody tr td:nth-child(5)').allTextContents();
    expect(variants.every((v) => /^#1 Olá (Ana|Bruno|Carla), as ofertas chegaram!$/.test(v) || /^#2 .+, (Ana|Bruno|Carla)! Use o cupom BF10\.$/.test(v))).toBe(true);

    for (const c of CONTACTS) {
      const outbox = await simulator<{ id: string; kind: string; fileName?: string; body: string }[]>('GET', `/simulator/outbox?connectionId=${connection.id}&to=${c.number}`);
      expect(outbox).toHaveLength(1);
      expect(outbox[0]).toMatchObject({ kind: 'media', fileName: 'promo.png', body: expect.stringContaining(c.name.split(' ')[0]!) });
      await simulator('POST', '/simulator/acks', { connectionId: connection.id, messageId: outbox[0]!.id, ack: 2 });
    }
    for (const c of CONTACTS) await recipients.getByRole('row', { name: new RegExp(`${c.name}.*Delivered`) }).waitFor();
    const bar = page.getByRole('progressbar', { name: 'Delivered 3 of 3 valid contacts' });
    await bar.waitFor();
    expect(await bar.getAttribute('aria-valuenow')).toBe('100');
    await page.getByText('Finished').first().waitFor();
    await shot(page, 'campaign-report');

    // Back on the list, the campaign is finished and its dialog only shows.
    await page.getByRole('link', { name: 'Back to campaigns' }).click();
    const done = page.getByRole('row', { name: /Black Friday/ });
    await done.getByText('Finished').filter({ visible: true }).waitFor();
    expect(await done.getByRole('button', { name: 'Stop campaign Black Friday' }).count()).toBe(0);
    await shot(page, 'campaigns');
    await done.getByRole('button', { name: 'Edit Black Friday' }).click();
    const view = page.getByRole('dialog', { name: 'Campaign (read only)' });
    await expect(view.getByLabel('Message 1', { exact: true }).isDisabled()).resolves.toBe(true);
    await expect(view.getByLabel('Name', { exact: true }).isDisabled()).resolves.toBe(true);
    await view.getByRole('button', { name: 'Close' }).last().click();
    await context.close();
  });

  it('keeps the report of 10,000 recipients a virtual table', async () => {
    const list = await admin<{ id: number }>('POST', '/contact-lists', { name: 'Big list' });
    const rows = Array.from({ length: 10_000 }, (_, i) => `Pessoa ${i + 1};55119${String(i + 1).padStart(8, '0')};`);
    const form = new FormData();
    form.append('file', new Blob([`name;number;email\n${rows.join('\n')}\n`], { type: 'text/csv' }), 'big.csv');
    const up = await fetch(`${e2e.apiUrl}/contact-lists/${list.id}/upload`, { method: 'POST', headers: { authorization: `Bearer ${opsToken}` }, body: form });
    expect(up.status).toBeLessThan(300);
    // The answer is the import's NDJSON report, streamed batch by batch: read to its end, the import is done.
    expect(await up.text()).toContain('"imported":10000');
    const campaign = await admin<{ id: number }>('POST', '/campaigns', { name: 'Big one', whatsappId: connection.id, contactListId: list.id, message1: 'Oi {primeiro-nome}', scheduledAt: new Date().toISOString() });
    // Once started its recipients are written; stop it from the list so the test does not wait on the sends.
    await expect.poll(async () => (await admin<{ status: string }>('GET', `/campaigns/${campaign.id}`)).status, { timeout: 30_000 }).toBe('EM_ANDAMENTO');

    const { context, page } = await newPage(e2e);
    await login(page, DEMO.admin, e2e.demoPassword);
    // One scheduled for later has no recipients yet: its report says when they will be taken, not "0 of 0".
    const later = await admin<{ id: number }>('POST', '/campaigns', { name: 'Later one', whatsappId: connection.id, contactListId: list.id, message1: 'Oi', scheduledAt: new Date(Date.now() + 3 * 86_400_000).toISOString() });
    await page.goto(`/campaign/${later.id}/report`);
    await page.getByText(/^Starts on .*: the contacts of its list become its recipients then/).waitFor();
    expect(await page.getByText(/Delivered 0 of 0/).count()).toBe(0);
    // Stopped before its time, its Restart (which sends now) asks first; saying no leaves it stopped.
    await admin('POST', `/campaigns/${later.id}/cancel`);
    await page.goto('/campaigns');
    await page.getByLabel('Search campaigns').fill('later');
    await page.getByRole('row', { name: /Later one/ }).getByRole('button', { name: 'Restart campaign Later one' }).click();
    const ask = page.getByRole('dialog', { name: 'Restart now?' });
    await ask.getByText(/^“Later one” was scheduled for .*\. Restarting sends it now/).waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect((await admin<{ status: string }>('GET', `/campaigns/${later.id}`)).status).toBe('CANCELADA');
    await admin('DELETE', `/campaigns/${later.id}`);
    await page.goto('/campaigns');
    await page.getByLabel('Search campaigns').fill('big');
    const row = page.getByRole('row', { name: /Big one/ });
    await row.getByText('In progress').filter({ visible: true }).waitFor();
    await expect.poll(() => page.getByRole('row', { name: /Black Friday/ }).count()).toBe(0);
    expect(await row.getByRole('button', { name: 'Delete Big one' }).count()).toBe(0);
    await row.getByRole('button', { name: 'Stop campaign Big one' }).click();
    await page.getByText('Campaign stopped.').waitFor();
    await row.getByText('Canceled').filter({ visible: true }).waitFor();
    await row.getByRole('button', { name: 'Restart campaign Big one' }).waitFor();
    await row.getByRole('button', { name: 'Delete Big one' }).waitFor();

    // Restarted elsewhere while this list cannot read itself again: its Restart is refused, and the
    // row shows where the campaign is now instead of the refusal.
    const listReads = (url: URL) => url.pathname === '/campaigns';
    await page.route(listReads, (route) => (route.request().method() === 'GET' ? route.abort() : route.fallback()));
    await admin('POST', `/campaigns/${campaign.id}/restart`);
    await row.getByRole('button', { name: 'Restart campaign Big one' }).click();
    await page.getByText('The campaign is in progress now: nothing to do.').waitFor();
    await row.getByText('In progress').filter({ visible: true }).waitFor();
    await page.unroute(listReads);
    await row.getByRole('button', { name: 'Stop campaign Big one' }).click();
    await row.getByText('Canceled').filter({ visible: true }).waitFor();

    await page.goto(`/campaign/${campaign.id}/report`);
    await page.getByTestId('total-recipients').getByText('10000').waitFor();
    const table = page.getByRole('table', { name: 'Recipients' });
    await table.getByRole('row', { name: /Pessoa 1 / }).waitFor();
    expect(await table.locator('tbody tr').count()).toBeLessThan(80);
    // The last recipient is reached by scrolling, its page read when it comes into view.
    await table.evaluate((el) => {
      const scroller = el.parentElement!;
      scroller.scrollTop = scroller.scrollHeight;
    });
    await table.getByRole('row', { name: /Pessoa 10000 / }).waitFor();
    expect(await table.locator('tbody tr').count()).toBeLessThan(80);
    await expect(table.getByRole('row', { name: /Pessoa 10000 / }).isVisible()).resolves.toBe(true);
    // Every row has the one height the spacers count with, so the scrollbar is true to the list.
    const last = await table.getByRole('row', { name: /Pessoa 10000 / }).boundingBox();
    expect(last?.height).toBe(44);
    const body = await table.locator('tbody').boundingBox();
    expect(body?.height).toBe(10_000 * 44);
    await shot(page, 'campaign-report-10k');
    await context.close();
  });
});

async function tokenOf(email: string, password: string): Promise<string> {
  const res = await fetch(`${e2e.apiUrl}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  return ((await res.json()) as { token: string }).token;
}
