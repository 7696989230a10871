// Details of the daily screens seen in a real Chromium (issue 13): after Accept the list shows the
// accepted ticket under Attending; list previews draw the signature in bold as the chat does; a
// message arriving in the chat its holder has open raises neither the unread badge nor the bell
// (and the server counts it read); a quick answer with an attachment sends the file; older
// messages load only within 50 px of the top, the reader's place kept; a closed ticket and the
// contacts list follow other users' changes; the user modal edits the default connection and
// "tickets without a queue"; below 600 px the drawer closes when a page is chosen.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, apiAs, DEMO, login, newPage, shot, startE2E, type E2E } from './harness.ts';

vi.setConfig({ testTimeout: 150_000 });

type Api = Awaited<ReturnType<typeof apiAs>>;
type TicketDto = { id: number; uuid: string; status: string; userId: number | null; queueId: number | null; whatsappId: number | null; unreadMessages: number; contact: { id: number; name: string } };
type Outbox = { id: string; to: string; kind: string; body: string; fileName?: string; mediaType?: string }[];

let e2e: E2E;
let connectionId: number;
let simulator: Api;
const ids = { bruno: 0, ana: 0, sales: 0, backupConnection: 0, quick: 0 };
const long = { from: '5511900031001', name: 'Lorena Long', ticketId: 0 };
const closed = { contactId: 0, ticketId: 0, uuid: '', name: 'Clara Closed' };

async function tokenOf(email: string, password: string): Promise<string> {
  const res = await fetch(`${e2e.apiUrl}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  return ((await res.json()) as { token: string }).token;
}

beforeAll(async () => {
  e2e = await startE2E();
  simulator = await apiAs(e2e, DEMO.superAdmin, ADMIN_PASSWORD);
  // Setup through the API before anyone signs in in a browser (which ends these API sessions).
  let ana = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
  connectionId = (await ana<{ id: number }[]>('GET', '/whatsapp'))[0]!.id;
  ids.ana = (await ana<{ id: number }>('GET', '/auth/me')).id;
  ids.sales = (await ana<{ id: number; name: string }[]>('GET', '/queue')).find((q) => q.name === 'Sales')!.id;
  ids.backupConnection = (await ana<{ id: number }>('POST', '/whatsapp', { name: 'Backup line', provider: 'simulator' })).id;

  // A shared quick answer with a PDF attached.
  const quick = await ana<{ id: number }>('POST', '/quick-messages', { shortcode: 'prices', message: 'Here is our price list.', geral: true });
  ids.quick = quick.id;
  const form = new FormData();
  form.append('typeArch', 'quickMessage');
  form.append('file', new Blob([Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')], { type: 'application/pdf' }), 'prices.pdf');
  const up = await fetch(`${e2e.apiUrl}/quick-messages/${quick.id}/media-upload`, { method: 'POST', headers: { authorization: `Bearer ${await tokenOf(DEMO.admin, e2e.demoPassword)}` }, body: form });
  if (!up.ok) throw new Error(`media upload: ${up.status} ${await up.text()}`);
  // That sign-in ended the first API session.
  ana = await apiAs(e2e, DEMO.admin, e2e.demoPassword);

  // A long conversation in Sales, held by Bruno: more than the synced 50 and several REST pages.
  await simulator('POST', '/simulator/messages', { connectionId, from: long.from, name: long.name, body: 'Hi' });
  await simulator('POST', '/simulator/messages', { connectionId, from: long.from, name: long.name, body: '1' });
  for (let i = 1; i <= 80; i++) await simulator('POST', '/simulator/messages', { connectionId, from: long.from, name: long.name, body: `Line ${i}` });
  const bruno = await apiAs(e2e, DEMO.attendant, e2e.demoPassword);
  ids.bruno = (await bruno<{ id: number }>('GET', '/auth/me')).id;
  const found = await bruno<{ tickets: TicketDto[] }>('GET', '/tickets?searchParam=Lorena');
  long.ticketId = found.tickets[0]!.id;
  await bruno('PUT', `/tickets/${long.ticketId}`, { status: 'open', userId: ids.bruno });

  // A closed ticket of Bruno's, in Sales.
  const contact = await ana<{ id: number }>('POST', '/contacts', { name: closed.name, number: '5511900032002' });
  closed.contactId = contact.id;
  const ticket = await bruno<TicketDto>('POST', '/tickets', { contactId: contact.id, status: 'open', userId: ids.bruno, queueId: ids.sales });
  closed.ticketId = ticket.id;
  closed.uuid = ticket.uuid;
  await bruno('POST', `/messages/${ticket.id}`, { body: 'Anything else?' });
  await bruno('PUT', `/tickets/${ticket.id}`, { status: 'closed' });
}, 240_000);

afterAll(async () => {
  await e2e?.close();
});

/** A customer who wrote in Sales and whose ticket Bruno holds (assigned by Ana through the API). */
async function heldByBruno(customer: { from: string; name: string }) {
  await simulator('POST', '/simulator/messages', { connectionId, ...customer, body: 'Hello' });
  await simulator('POST', '/simulator/messages', { connectionId, ...customer, body: '1' });
  await simulator('POST', '/simulator/messages', { connectionId, ...customer, body: 'First question' });
  const ana = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
  const found = await ana<{ tickets: TicketDto[] }>('GET', `/tickets?searchParam=${encodeURIComponent(customer.name)}&showAll=true`);
  const ticket = found.tickets[0]!;
  await ana('PUT', `/tickets/${ticket.id}`, { status: 'open', userId: ids.bruno });
  return { ...customer, id: ticket.id, uuid: ticket.uuid };
}

const ticketRow = (page: Page, name: string) => page.getByTestId('ticket-item').filter({ hasText: name });

/** Records, from now on, whether the ticket's unread badge ever shows and the bell's count ever grows. */
async function watchBadges(page: Page, ticketId: number) {
  await page.evaluate((id) => {
    const bellCount = () => Number(document.querySelector('[data-testid="notifications"] span')?.textContent ?? 0);
    const seen = { badge: false, bellGrew: false, bellAtStart: bellCount() };
    const check = () => {
      if (document.querySelector(`[data-ticket-id="${id}"] [aria-label*="unread"]`)) seen.badge = true;
      if (bellCount() > seen.bellAtStart) seen.bellGrew = true;
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    (window as unknown as { __seen: typeof seen }).__seen = seen;
  }, ticketId);
  return () => page.evaluate(() => (window as unknown as { __seen: { badge: boolean; bellGrew: boolean } }).__seen);
}

describe('daily details', () => {
  it('after Accept, the list shows the Attending tab with the accepted ticket', async () => {
    const customer = { connectionId, from: '5511900033003', name: 'Aurora Accept' };
    await simulator('POST', '/simulator/messages', { ...customer, body: 'Hello, is anyone there?' });
    await simulator('POST', '/simulator/messages', { ...customer, body: '1' });

    const { page, context } = await newPage(e2e);
    await login(page, DEMO.attendant, e2e.demoPassword);
    await page.goto('/tickets');
    await page.getByRole('tab', { name: /^Waiting \(\d+\)$/ }).click();
    await ticketRow(page, customer.name).getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
    const attending = page.getByRole('tab', { name: /^Attending \(\d+\)$/ });
    await expect.poll(() => attending.getAttribute('aria-selected')).toBe('true');
    await ticketRow(page, customer.name).waitFor();
    await shot(page, 'details-accepted-light');
    await context.close();
  });

  it('list previews draw the signature in bold, as the chat does', async () => {
    const customer = await heldByBruno({ from: '5511900033004', name: 'Sofia Signature' });
    const { page, context } = await newPage(e2e);
    await login(page, DEMO.attendant, e2e.demoPassword);
    await page.goto(`/tickets/${customer.uuid}`);
    const input = page.getByRole('textbox', { name: 'Type a message, or / for quick answers' });
    await input.fill('Yes, how can I help?');
    await input.press('Enter');
    const row = ticketRow(page, customer.name);
    await row.locator('strong', { hasText: 'Bruno Attendant' }).waitFor();
    await expect(row.innerText()).resolves.toContain('Bruno Attendant: Yes, how can I help?');
    await expect(row.innerText()).resolves.not.toContain('*');
    await context.close();
  });

  it('a message arriving in the chat its holder has open raises neither the unread badge nor the bell', async () => {
    const customer = await heldByBruno({ from: '5511900033005', name: 'Rita Reader' });
    const { page, context } = await newPage(e2e);
    await login(page, DEMO.attendant, e2e.demoPassword);
    await page.goto(`/tickets/${customer.uuid}`);
    const chat = page.getByTestId('chat');
    const row = ticketRow(page, customer.name);
    await row.waitFor();
    await chat.getByText('First question').waitFor();

    const seen = await watchBadges(page, customer.id);
    await simulator('POST', '/simulator/messages', { connectionId, from: customer.from, name: customer.name, body: 'I need a quote, please' });
    await chat.getByText('I need a quote, please').waitFor();
    await row.getByText('I need a quote, please').waitFor();
    await page.waitForTimeout(2500);
    await expect(seen()).resolves.toMatchObject({ badge: false, bellGrew: false });
    // The server counts it read too (Ana, not signed in in a browser, reads it).
    const ana = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
    await expect.poll(async () => (await ana<TicketDto>('GET', `/tickets/${customer.id}`)).unreadMessages, { timeout: 10_000 }).toBe(0);
    await shot(page, 'details-chat-read-light');

    // Away from the chat, the next message counts as unread again, and rings the bell.
    await page.goto('/tickets');
    await row.waitFor();
    await simulator('POST', '/simulator/messages', { connectionId, from: customer.from, name: customer.name, body: 'Are you still there?' });
    await row.getByLabel('1 unread', { exact: true }).waitFor();
    await page.getByTestId('notifications').locator('span').waitFor();
    await context.close();
  });

  it('a quick answer with an attachment sends the file with its text', async () => {
    const customer = await heldByBruno({ from: '5511900033006', name: 'Quentin Quick' });
    const { page, context } = await newPage(e2e);
    await login(page, DEMO.attendant, e2e.demoPassword);
    await page.goto(`/tickets/${customer.uuid}`);
    const chat = page.getByTestId('chat');
    const input = page.getByRole('textbox', { name: 'Type a message, or / for quick answers' });
    await input.fill('/pri');
    await page.getByRole('option', { name: /\/prices/ }).click();
    await expect(input.inputValue()).resolves.toBe('Here is our price list.');
    await page.getByRole('list', { name: 'Files to send' }).getByText('prices.pdf').waitFor();
    await shot(page, 'details-quick-attachment-light');
    await input.press('Enter');
    await chat.getByRole('link', { name: /Download .*\.pdf/ }).waitFor();
    await expect
      .poll(async () => (await simulator<Outbox>('GET', `/simulator/outbox?connectionId=${connectionId}&to=${customer.from}`)).find((m) => m.fileName === 'prices.pdf'), { timeout: 15_000 })
      .toMatchObject({ kind: 'media', body: '*Bruno Attendant*:\nHere is our price list.' });
    // On a phone: the chat with the file sent, and the list with the signed preview.
    await page.setViewportSize({ width: 360, height: 740 });
    // The narrow layout mounts a new chat (and input) under the Ticket / Attendances tabs.
    await page.getByRole('tab', { name: 'Attendances' }).waitFor();
    await chat.getByRole('link', { name: /Download .*\.pdf/ }).waitFor();
    await input.fill('/pri');
    await page.getByRole('option', { name: /\/prices/ }).click();
    await shot(page, 'details-quick-attachment-360');
    await page.getByRole('tab', { name: 'Attendances' }).click();
    // (Names are cut at 10 characters below 600 px: the row is found by its ticket.)
    await page.locator(`[data-ticket-id="${customer.id}"]`).locator('strong', { hasText: 'Bruno Attendant' }).waitFor();
    await shot(page, 'details-list-preview-360');
    await context.close();
  });

  it('loads older messages only within 50 px of the top, keeping the reader in place', async () => {
    const { page, context } = await newPage(e2e, { height: 800 });
    await login(page, DEMO.attendant, e2e.demoPassword);
    const older: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === `/messages/${long.ticketId}` && Number(url.searchParams.get('pageNumber')) > 1) older.push(url.search);
    });
    await page.goto('/tickets');
    await ticketRow(page, long.name).getByRole('button', { name: long.name }).click();
    const scroll = page.getByTestId('chat-scroll');
    await scroll.getByText('Line 80', { exact: true }).waitFor();
    await page.waitForTimeout(1000);
    expect(older).toEqual([]);

    // 300 px from the top: nothing more is asked for.
    await scroll.evaluate((el) => el.scrollTo({ top: 300 }));
    await page.waitForTimeout(1500);
    expect(older).toEqual([]);

    // Within 50 px: the older page comes, and the message that was first in view stays where it was.
    const before = await scroll.evaluate((el) => {
      el.scrollTo({ top: 20 });
      const top = el.getBoundingClientRect().top;
      const first = [...el.querySelectorAll('[data-message-id]')].find((m) => m.getBoundingClientRect().bottom > top + 1)!;
      return { id: first.getAttribute('data-message-id'), offset: first.getBoundingClientRect().top - top };
    });
    await expect.poll(() => older.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.getByText('Loading older messages…').waitFor({ state: 'detached' }).catch(() => undefined);
    await scroll.getByText('Line 25', { exact: true }).waitFor({ state: 'attached' });
    await page.waitForTimeout(500);
    const after = await scroll.evaluate((el, id) => {
      const m = el.querySelector(`[data-message-id="${id}"]`);
      return { offset: m ? m.getBoundingClientRect().top - el.getBoundingClientRect().top : null, scrollTop: el.scrollTop };
    }, before.id);
    expect(after.offset).not.toBeNull();
    expect(Math.abs(after.offset! - before.offset)).toBeLessThanOrEqual(4);
    expect(after.scrollTop).toBeGreaterThan(50);
    await shot(page, 'details-older-messages-light');
    await context.close();
  });

  it('a closed ticket and the contacts list follow what others change', async () => {
    const { page, context } = await newPage(e2e);
    await login(page, DEMO.attendant, e2e.demoPassword);
    await page.goto('/tickets');
    await page.getByRole('tab', { name: 'Closed' }).click();
    await ticketRow(page, closed.name).getByRole('button', { name: closed.name }).click();
    await page.waitForURL(`**/tickets/${closed.uuid}`);
    const chat = page.getByTestId('chat');
    await chat.getByRole('button', { name: 'Reopen' }).waitFor();

    // The customer's phone reads the last answer after the close: the ticks turn read here too.
    const answer = chat.locator('[data-from-me="true"]').filter({ hasText: 'Anything else?' });
    await answer.waitFor();
    const sent = (await simulator<Outbox>('GET', `/simulator/outbox?connectionId=${connectionId}&to=5511900032002`)).find((m) => m.body.endsWith('Anything else?'))!;
    await simulator('POST', '/simulator/acks', { connectionId, messageId: sent.id, ack: 4 });
    await answer.locator('[data-tick="read"]').waitFor({ timeout: 10_000 });

    // Ana renames the contact: the open closed ticket shows the new name without a reload.
    const ana = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
    await ana('PUT', `/contacts/${closed.contactId}`, { name: 'Clara Renamed' });
    await chat.locator('header').getByText('Clara Renamed').waitFor({ timeout: 10_000 });
    await ticketRow(page, 'Clara Renamed').waitFor({ timeout: 10_000 });

    // Ana reopens it as hers: it is no longer Bruno's to see, and he is told so.
    await ana('PUT', `/tickets/${closed.ticketId}`, { status: 'open', userId: ids.ana });
    await page.getByText('Access not allowed').waitFor({ timeout: 10_000 });
    await page.waitForURL(/\/tickets$/);

    // The contacts list: a customer who writes for the first time, a rename and a removal by Ana.
    await page.goto('/contacts');
    await page.getByRole('cell', { name: 'Mariana Souza', exact: true }).waitFor();
    await simulator('POST', '/simulator/messages', { connectionId, from: '5511900034004', name: 'Abel Newcomer', body: 'Hi there' });
    await page.getByRole('cell', { name: 'Abel Newcomer', exact: true }).waitFor({ timeout: 10_000 });
    const list = await ana<{ contacts: { id: number; name: string }[] }>('GET', '/contacts?searchParam=Abel');
    const abel = list.contacts[0]!;
    await ana('PUT', `/contacts/${abel.id}`, { email: 'abel@example.com' });
    await page.getByRole('cell', { name: 'abel@example.com' }).waitFor({ timeout: 10_000 });
    await ana('DELETE', `/contacts/${abel.id}`);
    await page.getByRole('cell', { name: 'Abel Newcomer', exact: true }).waitFor({ state: 'detached', timeout: 10_000 });
    await context.close();
  });

  it('the user modal edits the default connection and "tickets without a queue"; the server applies both', async () => {
    // Made before the browser signs in (a sign-in ends the account's other sessions).
    const leaver = await (await apiAs(e2e, DEMO.admin, e2e.demoPassword))<{ id: number }>('POST', '/users', { name: 'Leo Leaving', email: 'leo.leaving@demo.zapdesk.local', password: 'leaving-123', profile: 'user' });
    const { page, context } = await newPage(e2e);
    await login(page, DEMO.admin, e2e.demoPassword);
    await page.goto('/users');
    await page.getByRole('button', { name: 'Edit Bruno Attendant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit user' });
    const connection = dialog.getByLabel('Default connection');
    await expect(connection.inputValue()).resolves.toBe('');
    await connection.selectOption({ label: 'Backup line' });
    const noQueue = dialog.getByRole('switch', { name: 'See tickets without a queue' });
    await expect(noQueue.getAttribute('aria-checked')).resolves.toBe('false');
    await noQueue.click();
    await shot(page, 'details-user-modal-light');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Opened again, the modal shows what was saved.
    await page.getByRole('button', { name: 'Edit Bruno Attendant' }).click();
    await expect(dialog.getByLabel('Default connection').inputValue()).resolves.toBe(String(ids.backupConnection));
    await expect(dialog.getByRole('switch', { name: 'See tickets without a queue' }).getAttribute('aria-checked')).resolves.toBe('true');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // A user who left is deleted from the list once confirmed (the server no longer knows them).
    await page.getByRole('button', { name: 'Delete Leo Leaving' }).click();
    await page.getByRole('dialog', { name: 'Delete user' }).getByRole('button', { name: 'Delete' }).click();
    // The confirmation is shown once the server answered the delete (a moment without the row, as
    // the list is drawn again, is no proof of that).
    await page.getByText('Deleted.').waitFor();
    await page.getByRole('cell', { name: 'Leo Leaving', exact: true }).waitFor({ state: 'detached' });
    expect(await e2e.server.deps.db.selectFrom('users').select('id').where('id', '=', leaver.id).executeTakeFirst()).toBeUndefined();
    await context.close();

    // The server applies both: Bruno's new ticket leaves through Backup line, and Julia's ticket
    // (waiting with no queue) is now in his list.
    const bruno = await apiAs(e2e, DEMO.attendant, e2e.demoPassword);
    await expect(bruno<{ whatsappId: number; showNoQueue: boolean }>('GET', '/auth/me')).resolves.toMatchObject({ whatsappId: ids.backupConnection, showNoQueue: true });
    const contact = await bruno<{ id: number }>('POST', '/contacts', { name: 'Default Route', number: '5511900035005' });
    const created = await bruno<TicketDto>('POST', '/tickets', { contactId: contact.id, status: 'open', userId: ids.bruno, queueId: ids.sales });
    expect(created.whatsappId).toBe(ids.backupConnection);
    const pending = await bruno<{ tickets: TicketDto[] }>('GET', '/tickets?status=pending');
    expect(pending.tickets.map((t) => t.contact.name)).toContain('Julia Castro');

    // Bruno's own profile modal shows neither (he may not change them; the server refuses it too).
    const mine = await newPage(e2e, { width: 360, height: 740 });
    await login(mine.page, DEMO.attendant, e2e.demoPassword);
    await mine.page.getByRole('button', { name: 'Account' }).click();
    await mine.page.getByRole('menuitem', { name: 'Profile' }).click();
    const profile = mine.page.getByRole('dialog', { name: 'Profile' });
    await profile.getByLabel('Name').waitFor();
    await expect(profile.getByLabel('Default connection').count()).resolves.toBe(0);
    await expect(profile.getByRole('switch', { name: 'See tickets without a queue' }).count()).resolves.toBe(0);
    await shot(mine.page, 'details-profile-modal-360');
    await mine.context.close();
  });

  it('below 600 px the drawer closes when a page is chosen and never covers the page', async () => {
    const { page, context } = await newPage(e2e, { width: 360, height: 740 });
    await login(page, 'carla@demo.zapdesk.local', e2e.demoPassword);
    await page.goto('/tickets');
    const drawer = page.getByRole('complementary', { name: 'Main navigation' });
    await expect(drawer.count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await drawer.getByRole('link', { name: 'Contacts' }).click();
    await page.waitForURL(/\/contacts$/);
    await drawer.waitFor({ state: 'detached' });
    // The page it is on, chosen again, closes it too.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await drawer.getByRole('link', { name: 'Contacts' }).click();
    await drawer.waitFor({ state: 'detached' });
    await shot(page, 'details-drawer-closed-360');
    const covering = () => page.evaluate(() => !document.elementFromPoint(180, 400)?.closest('main'));
    await expect(covering()).resolves.toBe(false);

    // A window narrowed below 600 px with the drawer open: it does not stay over the page.
    await page.setViewportSize({ width: 1300, height: 740 });
    await drawer.getByRole('button', { name: 'Open menu' }).click();
    await drawer.getByRole('button', { name: 'Collapse menu' }).waitFor();
    await page.setViewportSize({ width: 360, height: 740 });
    await page.waitForTimeout(300);
    await expect(drawer.count()).resolves.toBe(0);
    await expect(covering()).resolves.toBe(false);
    await context.close();
  });
});
