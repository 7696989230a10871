// The admin screens in a real Chromium against the real server (issue 6): pairing a simulator
// connection through the live QR modal (and one whose delete was cut short), a queue with a chatbot option, the dashboard's counters,
// the language switch, the top bar's popovers and badges, and the gates around these pages.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { write } from '../server/src/db/write.ts';
import { beginConnectionDelete } from '../server/src/modules/whatsapps/service.ts';
import { ADMIN_PASSWORD, apiAs, DEMO, login, newPage, shot, startE2E, type E2E } from './harness.ts';

vi.setConfig({ testTimeout: 90_000 });

let e2e: E2E;
beforeAll(async () => {
  // A new simulated QR every 3 s (20 s by default), so the QR modal can be seen redrawing.
  e2e = await startE2E({ SIMULATOR_QR_INTERVAL_MS: '3000', SIMULATOR_QR_ATTEMPTS: '30' });
}, 120_000);
afterAll(async () => {
  await e2e?.close();
});

type Connection = { id: number; name: string; status: string };

type Api = Awaited<ReturnType<typeof apiAs>>;

async function demoCompany(superApi: Api): Promise<{ id: number; name: string; planId: number }> {
  const companies = await superApi<{ id: number; name: string; planId: number }[]>('GET', '/companies/list');
  const demo = companies.find((c) => c.name.toLowerCase().includes('demo'));
  if (!demo) throw new Error('no demo company');
  return demo;
}

describe('admin screens', () => {
  it('adds a simulator connection, shows its QR live, and closes the modal once a scan connects it', async () => {
    // The super-admin drives the simulator: a second sign-in of the demo admin would end the browser's session.
    const superApi = await apiAs(e2e, DEMO.superAdmin, ADMIN_PASSWORD);
    const demo = await demoCompany(superApi);
    const { context, page } = await newPage(e2e);
    await login(page, DEMO.admin, e2e.demoPassword);
    await page.getByRole('navigation').getByRole('link', { name: 'Connections' }).click();
    await page.getByRole('heading', { name: 'Connections' }).waitFor();

    await page.getByRole('button', { name: 'Add connection' }).click();
    const modal = page.getByRole('dialog', { name: 'New connection' });
    await modal.getByLabel('Name').fill('Front desk');
    await modal.getByLabel('Provider').selectOption('simulator');
    // The other tabs hold the rest of the form.
    for (const tab of ['Messages', 'Assessments', 'Integrations', 'Business hours']) await modal.getByRole('tab', { name: tab }).waitFor();
    await modal.getByRole('tab', { name: 'Messages' }).click();
    await modal.getByLabel('Greeting message').fill('Welcome to the front desk!');
    await modal.getByRole('tab', { name: 'Integrations' }).click();
    await expect(modal.getByLabel('Chatbot attempts before redirecting').inputValue()).resolves.toBe('3');
    await shot(page, 'connection-modal');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.waitFor({ state: 'detached' });

    // Saving starts the session: the row asks for its QR code.
    const qrButton = page.getByRole('button', { name: 'QR code: Front desk' });
    await qrButton.click();
    const qr = page.getByRole('dialog', { name: 'Scan the QR code: Front desk' });
    const image = qr.getByRole('img', { name: 'QR code to link Front desk' });
    await image.waitFor();
    expect(await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.width])).toEqual([256, 256]);
    await shot(page, 'connections-qr');

    const rowId = await page.locator('tr', { hasText: 'Front desk' }).getAttribute('data-testid');
    const id = Number(rowId?.replace('connection-', ''));
    const created = await superApi<Connection & { qrcode: string; companyId: number }>('GET', `/whatsapp/${id}?companyId=${demo.id}`);
    expect(created).toMatchObject({ name: 'Front desk', status: 'qrcode' });
    // The modal redraws each new code the server emits, and shows the one the server holds.
    const first = await image.getAttribute('data-code');
    await expect.poll(() => image.getAttribute('data-code'), { timeout: 15_000 }).not.toBe(first);
    const held = async () => (await superApi<{ qrcode: string }>('GET', `/whatsapp/${id}?companyId=${demo.id}`)).qrcode;
    await expect.poll(async () => (await image.getAttribute('data-code')) === (await held()), { timeout: 20_000 }).toBe(true);
    // A connection waiting for its QR needs attention: the drawer says so (2 s after the change).
    await page.getByTestId('badge-connections').waitFor();
    await superApi('POST', `/simulator/connections/${id}/scan`, {});
    await qr.waitFor({ state: 'detached' });
    const row = page.getByTestId(`connection-${id}`);
    await row.getByText('Connected', { exact: true }).nth(1).waitFor();
    await row.getByRole('button', { name: 'Disconnect: Front desk' }).waitFor();
    await page.getByTestId('badge-connections').waitFor({ state: 'detached' });
    await shot(page, 'connections');

    // Disconnected, the row offers try-again and a new QR; the new QR opens the modal on a fresh code.
    await row.getByRole('button', { name: 'Disconnect: Front desk' }).click();
    await page.getByRole('dialog', { name: 'Disconnect' }).getByRole('button', { name: 'Disconnect' }).click();
    await row.getByRole('button', { name: 'Try again: Front desk' }).waitFor();
    await row.getByRole('button', { name: 'New QR code: Front desk' }).click();
    await qr.getByRole('img', { name: 'QR code to link Front desk' }).waitFor();
    await qr.getByRole('button', { name: 'Close' }).click();
    await row.getByRole('button', { name: 'QR code: Front desk' }).waitFor();

    // A delete cut short (its first write done, as a server stopped there leaves it): the row says
    // so as the change syncs, offers no session action and no edit, and Delete finishes it.
    await write(e2e.server.deps, (tx) => beginConnectionDelete(tx, demo.id, id));
    await row.getByText('Being deleted', { exact: true }).last().waitFor();
    expect(await row.getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? b.textContent))).toEqual(['Delete Front desk']);
    await row.getByRole('button', { name: 'Delete Front desk' }).click();
    await page.getByRole('dialog', { name: 'Delete connection' }).getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await superApi<Connection[]>('GET', `/whatsapp?companyId=${demo.id}`)).map((c) => c.name)).not.toContain('Front desk');
    await context.close();
  });

  it('creates a queue with service hours, then gives it chatbot options and renumbers them on delete', async () => {
    // Business hours by queue: the modal gets its Service hours tab.
    const setup = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
    await setup('PUT', '/settings/scheduleType', { key: 'scheduleType', value: 'queue' });
    const { context, page } = await newPage(e2e);
    await login(page, DEMO.admin, e2e.demoPassword);
    await page.goto('/queues');
    await page.getByRole('button', { name: 'Add queue' }).click();
    const modal = page.getByRole('dialog', { name: 'New queue' });
    await modal.getByRole('tab', { name: 'Service hours' }).click();
    await expect(modal.getByLabel('Saturday: closes at').inputValue()).resolves.toBe('12:00');
    await modal.getByLabel('Saturday: closes at').fill('14:00');
    await modal.getByRole('tab', { name: 'Queue data' }).click();
    await modal.getByLabel('Name', { exact: true }).fill('Billing');
    await modal.getByRole('button', { name: 'Colour #1976d2' }).click();
    await expect(modal.getByLabel('Colour', { exact: true }).inputValue()).resolves.toBe('#1976d2');
    // More than one queue: the greeting is required, and the server's refusal is worded.
    await modal.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: /greeting/i }).first().waitFor();
    await modal.getByLabel('Greeting message').fill('Billing here, how can we help?');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Edit Billing' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit queue' });
    await edit.getByRole('button', { name: 'Add option' }).click();
    await edit.getByLabel('Title').fill('Second copy of an invoice');
    await edit.getByLabel('Message', { exact: true }).fill('Send us the invoice number.');
    await edit.getByRole('button', { name: 'Save', exact: true }).first().click();
    await edit.getByTestId('option-1').getByText('Second copy of an invoice').waitFor();
    await edit.getByRole('button', { name: 'Add an option under Second copy of an invoice' }).click();
    await edit.getByLabel('Title').fill('By email');
    await edit.getByRole('button', { name: 'Save', exact: true }).first().click();
    await edit.getByTestId('option-1.1').getByText('By email').waitFor();
    await edit.getByRole('button', { name: 'Add option' }).click();
    await edit.getByLabel('Title').fill('Payment methods');
    await edit.getByRole('button', { name: 'Save', exact: true }).first().click();
    await edit.getByTestId('option-2').getByText('Payment methods').waitFor();
    await shot(page, 'queues-options');

    // Deleting option 1 takes its sub-option along; option 2 moves up to 1.
    await edit.getByRole('button', { name: 'Delete Second copy of an invoice' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete option' });
    await confirm.getByText('Delete option 1 (Second copy of an invoice)').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await edit.getByTestId('option-1').getByText('Payment methods').waitFor();
    expect(await edit.getByText('By email').count()).toBe(0);
    await context.close();

    // Signed in over the API only now: a second sign-in of the same account ends the browser's session.
    const admin = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
    const queue = (await admin<{ id: number; name: string; color: string; schedules: { weekdayEn: string; endTime: string }[] }[]>('GET', '/queue')).find((q) => q.name === 'Billing');
    expect(queue?.color).toBe('#1976d2');
    expect(queue?.schedules.find((d) => d.weekdayEn === 'saturday')?.endTime).toBe('14:00');
    const top = await admin<{ id: number; title: string; option: number }[]>('GET', `/queue-options?queueId=${queue!.id}`);
    expect(top.map((o) => [o.option, o.title])).toEqual([[1, 'Payment methods']]);
  });

  it("shows the demo's counters on the dashboard and switches the screen's language", async () => {
    const admin = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
    const read = () => admin<{ counters: Record<string, number> }>('GET', `/dashboard?timezone=${encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone)}`);
    // The demo's customers write through the real pipeline after the first start: wait for their three tickets.
    await expect.poll(async () => (await read()).counters.supportPending, { timeout: 20_000 }).toBe(3);
    const { counters } = await read();
    const connectionId = (await admin<{ id: number }[]>('GET', '/whatsapp'))[0]!.id;
    const { context, page } = await newPage(e2e);
    await login(page, DEMO.admin, e2e.demoPassword);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const card = (key: string) => page.getByTestId(`card-${key}`).locator('p').nth(1);
    await expect.poll(() => card('supportPending').textContent(), { timeout: 20_000 }).toBe(String(counters.supportPending));
    await expect(card('supportHappening').textContent()).resolves.toBe(String(counters.supportHappening));
    await expect(card('newContacts').textContent()).resolves.toBe(String(counters.newContacts));
    await page.getByRole('table', { name: 'Attendants' }).getByText('Bruno', { exact: false }).first().waitFor();
    await page.getByRole('img', { name: /^Tickets per attendant/ }).or(page.getByText('No tickets in this period.').first()).first().waitFor();
    await shot(page, 'dashboard');
    // Live: a new customer writes (through the simulator, as the super-admin) and the waiting count
    // goes up on the open page, without a reload.
    const simulator = await apiAs(e2e, DEMO.superAdmin, ADMIN_PASSWORD);
    await simulator('POST', '/simulator/messages', { connectionId, from: '5511900033333', name: 'Dora Dashboard', body: 'Hi, anyone there?' });
    await expect.poll(() => card('supportPending').textContent(), { timeout: 20_000 }).toBe(String((counters.supportPending ?? 0) + 1));
    // By period: nothing chosen is refused with selectFilterError; "Today" asks again.
    await page.getByLabel('Filter by').selectOption('period');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('alert').filter({ hasText: 'Choose a date or a period to filter.' }).waitFor();
    const asked = page.waitForRequest((r) => r.url().includes('/dashboard?') && r.url().includes('days=0'));
    await page.getByLabel('Period', { exact: true }).selectOption('0');
    await page.getByRole('button', { name: 'Filter' }).click();
    await asked;

    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitemradio', { name: 'Español' }).click();
    await page.getByRole('heading', { name: 'Panel' }).waitFor();
    await page.getByText('En espera').waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Conexiones' }).click();
    await page.getByRole('heading', { name: 'Conexiones' }).waitFor();
    await page.getByRole('button', { name: 'Agregar conexión' }).waitFor();
    await context.close();
  });

  it('keeps an attendant on their own pages: no dashboard, no admin screens, nothing the plan lacks', async () => {
    const superApi = await apiAs(e2e, DEMO.superAdmin, ADMIN_PASSWORD);
    const demo = await demoCompany(superApi);
    await superApi('PUT', `/plans/${demo.planId}`, { useSchedules: false });
    try {
      const { context, page } = await newPage(e2e);
      await login(page, DEMO.attendant, e2e.demoPassword);
      // "/" is the dashboard for admins only: the attendant lands on their first page, unwarned.
      await page.waitForURL((url) => url.pathname !== '/');
      expect(await page.getByRole('alert').count()).toBe(0);
      await page.goto('/connections');
      await page.waitForURL((url) => url.pathname !== '/connections');
      await page.getByRole('alert').filter({ hasText: 'not allowed to open this page' }).first().waitFor();
      await page.goto('/schedules');
      await page.waitForURL((url) => url.pathname !== '/schedules');
      await context.close();
    } finally {
      await superApi('PUT', `/plans/${demo.planId}`, { useSchedules: true });
    }
  });

  it('shows unread tickets, new announcements and unread internal chats in the top bar, live', async () => {
    const superApi = await apiAs(e2e, DEMO.superAdmin, ADMIN_PASSWORD);
    const demo = await demoCompany(superApi);
    const bruno = await apiAs(e2e, DEMO.attendant, e2e.demoPassword);
    const { context, page } = await newPage(e2e, { width: 360, height: 740 });
    // Records the chime's peak gains, to hear the notification sound and its volume.
    await context.addInitScript(() => {
      const w = window as unknown as { chimes: number[] };
      w.chimes = [];
      const ramp = AudioParam.prototype.linearRampToValueAtTime;
      AudioParam.prototype.linearRampToValueAtTime = function (value: number, time: number) {
        w.chimes.push(value);
        return ramp.call(this, value, time);
      };
    });
    await login(page, DEMO.admin, e2e.demoPassword);

    // The demo's customers who chose Sales (1) and Support (2) wait in Ana's queues; Julia chose nothing yet.
    const bell = page.getByTestId('notifications');
    await expect.poll(() => bell.getAttribute('aria-label'), { timeout: 20_000 }).toBe('Notifications (2 tickets with unread messages)');
    await bell.click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await panel.getByText('Mariana Souza').waitFor();
    await panel.getByText('Pedro Lima').waitFor();
    expect(await panel.getByText('Julia Castro').count()).toBe(0);
    await panel.getByLabel('Notification volume').fill('0.4');
    expect(await page.evaluate(() => localStorage.getItem('volume'))).toBe('0.4');
    // Only what rings from now on counts (the demo's own messages may still have been arriving).
    await page.evaluate(() => ((window as unknown as { chimes: number[] }).chimes = []));
    await shot(page, 'topbar-notifications-360');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });

    // Julia picks Sales: her ticket joins Ana's notifications without a reload.
    const connection = (await superApi<{ id: number; name: string }[]>('GET', `/whatsapp?companyId=${demo.id}`)).find((c) => c.name.includes('Demo'))!;
    await superApi('POST', '/simulator/messages', { connectionId: connection.id, from: '5511987650003', name: 'Julia Castro', body: '1' });
    await expect.poll(() => bell.getAttribute('aria-label'), { timeout: 20_000 }).toBe('Notifications (3 tickets with unread messages)');
    // A new message rang at the stored volume (0.4 of the chime's full 0.25 gain).
    const chimes = await page.evaluate(() => (window as unknown as { chimes: number[] }).chimes);
    expect(chimes.length).toBeGreaterThan(0);
    for (const gain of chimes) expect(gain).toBeCloseTo(0.1, 5);

    // An announcement from the super-admin lights the announcements dot, which clears once seen.
    await superApi('POST', '/announcements', { title: 'Maintenance tonight', text: 'The platform restarts at 23:00.', priority: 1 });
    const megaphone = page.getByTestId('announcements');
    await expect.poll(() => megaphone.getAttribute('aria-label'), { timeout: 20_000 }).toBe('Announcements (New announcements)');
    await megaphone.click();
    await page.getByRole('dialog', { name: 'Announcements' }).getByText('The platform restarts at 23:00.').waitFor();
    await page.keyboard.press('Escape');
    expect(await megaphone.getAttribute('aria-label')).toBe('Announcements');

    // Bruno writes to Ana in the internal chat: her chats dot lights and the popover lists it.
    const ana = (await bruno<{ id: number; email: string }[]>('GET', '/users/list')).find((u) => u.email === DEMO.admin)!;
    const chat = await bruno<{ id: number }>('POST', '/chats', { title: 'Shift swap', users: [{ id: ana.id }] });
    await bruno('POST', `/chats/${chat.id}/messages`, { message: 'Can you cover Friday?' });
    const chats = page.getByTestId('chats');
    await expect.poll(() => chats.getAttribute('aria-label'), { timeout: 20_000 }).toBe('Internal chats (Unread internal chat messages)');
    await chats.click();
    await page.getByRole('dialog', { name: 'Internal chats' }).getByText('Can you cover Friday?').waitFor();
    await shot(page, 'topbar-chats-360');
    await page.keyboard.press('Escape');
    // The drawer counts the chats with unread messages beside Internal chat.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByTestId('badge-chats').textContent()).resolves.toBe('1');
    await page.getByRole('navigation').getByRole('link', { name: 'Internal chat (unread messages)' }).waitFor();
    await context.close();
  });

  it('lets the super-admin publish an announcement with a picture, then shows the admin screens dark and at 360 px', async () => {
    const { context, page } = await newPage(e2e, { dark: true });
    await login(page, DEMO.superAdmin, ADMIN_PASSWORD);
    await page.getByRole('navigation').getByRole('link', { name: 'Announcements' }).click();
    await page.getByRole('button', { name: 'New announcement', exact: true }).click();
    const modal = page.getByRole('dialog', { name: 'New announcement' });
    // Title and text are required.
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.getByText('Required').first().waitFor();
    await modal.getByLabel('Title').fill('New billing portal');
    await modal.getByLabel('Text').fill('Invoices now live under Billing.');
    // Each error goes as soon as its field is edited, and the next save shows it again in the same words.
    expect(await modal.getByText('Required').count()).toBe(0);
    await modal.getByLabel('Title').fill('');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.getByText('Required').waitFor();
    await modal.getByLabel('Title').fill('New billing portal');
    expect(await modal.getByText('Required').count()).toBe(0);
    await modal.getByLabel('Priority').selectOption('1');
    // A 1×1 PNG.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    await modal.locator('input[type=file]').setInputFiles({ name: 'portal.png', mimeType: 'image/png', buffer: png });
    await modal.getByText('portal.png').waitFor();
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.waitFor({ state: 'detached' });
    const row = page.locator('tr', { hasText: 'New billing portal' });
    await row.getByText('High').waitFor();
    await row.getByText('portal.png').waitFor();
    await row.getByText('Active').waitFor();

    await row.getByRole('button', { name: 'Edit New billing portal' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit announcement' });
    await edit.getByRole('switch', { name: 'Active' }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await row.getByText('Inactive').waitFor();
    await shot(page, 'announcements-dark');
    await context.close();

    // A campaign scheduled for tomorrow: its row carries the most actions (stop, report, edit, delete) and its date.
    const setup = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
    const [line] = await setup<{ id: number }[]>('GET', '/whatsapp');
    const lists = await setup<{ records: { id: number }[] }>('GET', '/contact-lists');
    await setup('POST', '/campaigns', { name: 'Tomorrow morning', whatsappId: line!.id, contactListId: lists.records[0]!.id, message1: 'Bom dia {primeiro-nome}', scheduledAt: new Date(Date.now() + 86_400_000).toISOString() });

    const narrow = await newPage(e2e, { dark: true, width: 360, height: 740 });
    await login(narrow.page, DEMO.admin, e2e.demoPassword);
    await narrow.page.getByTestId('card-supportPending').waitFor();
    await shot(narrow.page, 'dashboard-360-dark');
    // Announcements are the super-admin's: an admin is told so and lands on the dashboard.
    await narrow.page.goto('/announcements');
    await narrow.page.waitForURL((url) => url.pathname === '/');
    await narrow.page.getByRole('status').filter({ hasText: 'Only the platform administrator manages this page.' }).waitFor();
    // Nothing overflows the phone's width, and no list's table scrolls sideways: its columns fold.
    const fits = async () => {
      expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      const sideways = await narrow.page.evaluate(() =>
        [...document.querySelectorAll('table')].filter((t) => t.parentElement!.scrollWidth > t.parentElement!.clientWidth + 1).map((t) => t.getAttribute('aria-label')),
      );
      expect(sideways).toEqual([]);
    };
    for (const [path, heading] of [
      ['/connections', 'Connections'],
      ['/queues', 'Queues & chatbot'],
      ['/contacts', 'Contacts'],
      ['/contact-lists', 'Contact lists'],
      ['/financeiro', 'Invoices'],
      ['/webhooks', 'Webhooks'],
      ['/campaigns', 'Campaigns'],
    ] as const) {
      await narrow.page.goto(path);
      await narrow.page.getByRole('heading', { name: heading }).waitFor();
      await narrow.page.getByRole('table').first().waitFor();
      await fits();
      await shot(narrow.page, `${path.slice(1)}-360-dark`);
    }
    // A list's contacts: the number folds under the name.
    await narrow.page.goto('/contact-lists');
    await narrow.page.getByRole('link', { name: 'Newsletter' }).click();
    await narrow.page.getByRole('row', { name: /Beatriz Rocha/ }).waitFor();
    await fits();
    await shot(narrow.page, 'contact-list-items-360-dark');
    // The company's hours (settings) use the same hours editor as queues and connections.
    await narrow.page.goto('/settings');
    await narrow.page.getByLabel('Business hours management').selectOption('company');
    await narrow.page.getByRole('tab', { name: 'Schedules' }).click();
    await expect(narrow.page.getByLabel('Saturday: closes at').inputValue()).resolves.toBe('12:00');
    await narrow.context.close();
  });
});
