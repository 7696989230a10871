// The daily tools in a real Chromium against the real server (issue 6): a contact spreadsheet is
// imported and its result listed, a quick message is created and used in a ticket, a schedule lands
// on the calendar, a ticket moves between kanban lanes (pointer and keyboard), and two users chat
// live (a long chat's oldest messages load on scroll-up). Screenshots of each page in light, dark
// and at 360 px go to SHOTS_DIR.
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiAs, DEMO, login, newPage, shot, startE2E, type E2E } from './harness.ts';

vi.setConfig({ testTimeout: 120_000 });

let e2e: E2E;
let kanbanTicket: { id: number; uuid: string };
beforeAll(async () => {
  e2e = await startE2E();
  // Setup through the API before Ana signs in in a browser (which ends this API session): an open
  // ticket of hers, in Sales, for a contact of its own.
  const ana = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
  const me = await ana<{ id: number }>('GET', '/auth/me');
  const sales = (await ana<{ id: number; name: string }[]>('GET', '/queue')).find((q) => q.name === 'Sales')!;
  const contact = await ana<{ id: number }>('POST', '/contacts', { name: 'Kanban Kim', number: '5511900077777' });
  kanbanTicket = await ana<{ id: number; uuid: string }>('POST', '/tickets', { contactId: contact.id, status: 'open', userId: me.id, queueId: sales.id });
}, 120_000);
afterAll(async () => {
  await e2e?.close();
});

async function spreadsheet(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Contacts');
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const lane = (page: Page, title: string) => page.locator('section[data-lane]').filter({ has: page.getByRole('heading', { name: new RegExp(`^${title}`) }) });

describe('daily tools', () => {
  it('imports contacts, uses a quick message, schedules a message and moves a kanban card', async () => {
    const { page, context } = await newPage(e2e);
    await login(page, DEMO.admin, e2e.demoPassword);

    // Contacts: an .xlsx with two new contacts, a number the company already has and a bad number.
    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('menuitem', { name: 'From a spreadsheet (.xlsx)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import contacts' });
    const xlsx = await spreadsheet([
      ['name', 'number', 'email'],
      ['Olga Import', '5521988880001', 'olga@example.com'],
      ['Paulo Import', 5521988880002, ''],
      ['Mariana Again', '5511987650001', ''],
      ['Bad Number', '12', ''],
    ]);
    await dialog.getByLabel('Spreadsheet').setInputFiles({ name: 'contacts.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: xlsx });
    const result = dialog.getByTestId('import-result');
    await result.getByRole('heading', { name: 'New contacts (2)' }).waitFor();
    await expect(result.getByRole('listitem').allInnerTexts()).resolves.toEqual(expect.arrayContaining(['Olga Import', 'Paulo Import']));
    await result.getByRole('heading', { name: 'Not imported (2)' }).waitFor();
    await result.getByText('Mariana Again').waitFor();
    await result.getByText('Bad Number').waitFor();
    await shot(page, 'daily-contacts-import-light');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    // The list reloads with the new contacts; a search finds one.
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('Olga');
    await page.getByRole('cell', { name: 'Olga Import', exact: true }).waitFor();

    // A file that is not .xlsx is refused in the dialog, before anything is sent.
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('menuitem', { name: 'From a spreadsheet (.xlsx)' }).click();
    await dialog.getByLabel('Spreadsheet').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from('name;number\nZed;5521988880009') });
    await dialog.getByRole('alert').filter({ hasText: 'Only .xlsx files can be imported.' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).last().click();

    // Quick message: created on its page, then used in a ticket with "/".
    await page.goto('/quick-messages');
    await page.getByRole('button', { name: 'Add quick message' }).click();
    const qm = page.getByRole('dialog', { name: 'New quick message' });
    await qm.getByRole('button', { name: 'Save' }).click();
    await qm.getByText('Required').waitFor();
    await qm.getByLabel('Shortcode').fill('thanks');
    await qm.getByLabel('Message').fill('Thank you for contacting us!');
    await qm.getByRole('button', { name: 'Save' }).click();
    await qm.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: /^\/thanks/ }).first().waitFor();
    await page.getByRole('cell', { name: 'No attachment' }).first().waitFor();

    await page.goto(`/tickets/${kanbanTicket.uuid}`);
    const input = page.getByRole('textbox', { name: 'Type a message, or / for quick answers' });
    await input.fill('/than');
    await page.getByRole('option', { name: /\/thanks/ }).click();
    await expect(input.inputValue()).resolves.toBe('Thank you for contacting us!');
    await input.fill('');

    // Schedule: a message to Mariana, an hour from now, shown on the calendar.
    await page.goto('/schedules');
    await page.getByRole('button', { name: 'Schedule a message' }).click();
    const sd = page.getByRole('dialog', { name: 'New scheduled message' });
    await sd.getByRole('button', { name: 'Save' }).click();
    await sd.getByText('Too short').waitFor();
    await sd.getByLabel('Find a contact').fill('Mariana');
    await sd.getByRole('combobox', { name: 'Contact' }).locator('option', { hasText: 'Mariana Souza' }).waitFor({ state: 'attached' });
    await sd.getByRole('combobox', { name: 'Contact' }).selectOption({ label: 'Mariana Souza (5511987650001)' });
    const sendAt = await sd.getByLabel('Send at').inputValue();
    await sd.getByLabel('Message').fill('A reminder about your quote');
    await sd.getByRole('button', { name: 'Save' }).click();
    await sd.waitFor({ state: 'hidden' });
    if (Number(sendAt.slice(5, 7)) !== new Date().getMonth() + 1) await page.getByRole('button', { name: 'Next' }).click();
    const day = page.locator(`[data-day="${sendAt.slice(0, 10)}"]`);
    await day.getByTestId('schedule-event').filter({ hasText: 'Mariana Souza' }).waitFor();
    await shot(page, 'daily-schedules-event-light');
    // Deleted from its event, after a confirmation.
    await day.getByRole('button', { name: /^Delete Mariana Souza/ }).click();
    await page.getByRole('dialog', { name: 'Delete scheduled message' }).getByRole('button', { name: 'Delete' }).click();
    await day.getByTestId('schedule-event').waitFor({ state: 'detached' });

    // Kanban: the open ticket without tags starts in the first lane; dragged to "New lead".
    await page.goto('/kanban');
    const card = page.locator(`[data-ticket="${kanbanTicket.id}"]`);
    await lane(page, 'Open').locator(`[data-ticket="${kanbanTicket.id}"]`).waitFor();
    // A move is two calls (untag, tag): the reloads below wait for the second, which a reload
    // cut short would leave undone (the card shows in its new lane at once, before the server has it).
    const tagged = () => page.waitForResponse((r) => r.url().includes(`/ticket-tags/${kanbanTicket.id}/`) && r.request().method() === 'PUT');
    let saved = tagged();
    await card.dragTo(lane(page, 'New lead'));
    await lane(page, 'New lead').locator(`[data-ticket="${kanbanTicket.id}"]`).waitFor();
    await shot(page, 'daily-kanban-moved-light');
    await saved;
    // The server kept it: after a reload it is still there.
    await page.reload();
    await lane(page, 'New lead').locator(`[data-ticket="${kanbanTicket.id}"]`).waitFor();
    // The keyboard moves it one lane left, to "Negotiating" (lanes go by name).
    await card.focus();
    saved = tagged();
    await page.keyboard.press('ArrowLeft');
    await lane(page, 'Negotiating').locator(`[data-ticket="${kanbanTicket.id}"]`).waitFor();
    await expect(card.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await saved;
    await page.reload();
    await lane(page, 'Negotiating').locator(`[data-ticket="${kanbanTicket.id}"]`).waitFor();
    await expect(lane(page, 'New lead').locator(`[data-ticket="${kanbanTicket.id}"]`).count()).resolves.toBe(0);
    await context.close();
  });

  it('the contacts list shows what another user adds and renames, without a reload', async () => {
    const { page, context } = await newPage(e2e);
    await login(page, DEMO.admin, e2e.demoPassword);
    await page.goto('/contacts');
    await page.getByText('Mariana Souza').first().waitFor();
    // Bruno, through the API: the admin's page hears the poke and reads its pages again.
    const bruno = await apiAs(e2e, DEMO.attendant, e2e.demoPassword);
    const added = await bruno<{ id: number }>('POST', '/contacts', { name: 'Aaron Poke', number: '5511900066601' });
    await page.getByText('Aaron Poke').waitFor({ timeout: 10_000 });
    await bruno('PUT', `/contacts/${added.id}`, { name: 'Aaron Renamed', number: '5511900066601' });
    await page.getByText('Aaron Renamed').waitFor({ timeout: 10_000 });
    await expect(page.getByText('Aaron Poke').count()).resolves.toBe(0);
    await context.close();
  });

  it('two users exchange internal chat messages live', async () => {
    // A long chat, through the API before the browsers sign in (which ends these API sessions): more
    // messages than the sync view carries (50), so the oldest are only on GET /chats/{id}/messages.
    const brunoApi = await apiAs(e2e, DEMO.attendant, e2e.demoPassword);
    const anaMe = await (await apiAs(e2e, DEMO.admin, e2e.demoPassword))<{ id: number }>('GET', '/auth/me');
    const history = await brunoApi<{ id: number }>('POST', '/chats', { title: 'Shift history', users: [{ id: anaMe.id }] });
    for (let i = 1; i <= 65; i++) await brunoApi('POST', `/chats/${history.id}/messages`, { message: `History note ${i}` });

    const ana = await newPage(e2e);
    const bruno = await newPage(e2e, { width: 360, height: 740 });
    await login(ana.page, DEMO.admin, e2e.demoPassword);
    await login(bruno.page, DEMO.attendant, e2e.demoPassword);
    await bruno.page.goto('/chats');
    await ana.page.goto('/chats');

    // A chat without users is refused with an alert.
    await ana.page.getByRole('button', { name: 'New chat' }).click();
    const dialog = ana.page.getByRole('dialog', { name: 'New chat' });
    await dialog.getByLabel('Title').fill('Weekend shift');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'choose at least one user' }).waitFor();
    await dialog.getByLabel('Bruno Attendant').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await ana.page.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
    const anaInput = ana.page.getByRole('textbox', { name: 'Type a message' });
    await anaInput.fill('Can you cover Saturday?');
    await anaInput.press('Enter');
    await ana.page.getByTestId('chat-messages').getByText('Can you cover Saturday?').waitFor();

    // Bruno, on a phone, sees the chat arrive with one unread message, opens it and answers.
    const item = bruno.page.getByRole('button', { name: /Weekend shift/ });
    await item.getByLabel('1 unread message').waitFor();
    await shot(bruno.page, 'daily-chats-list-360');
    await item.click();
    await bruno.page.getByTestId('chat-messages').getByText('Can you cover Saturday?').waitFor();
    // Opening it marked it read.
    await bruno.page.getByRole('tab', { name: 'Chats' }).click();
    // (the read is a write that reaches this list a moment later: polled, not read once)
    await expect.poll(() => item.getByLabel(/unread/).count(), { timeout: 10_000 }).toBe(0);
    await bruno.page.getByRole('tab', { name: 'Conversation' }).click();
    const brunoInput = bruno.page.getByRole('textbox', { name: 'Type a message' });
    await brunoInput.fill('   ');
    await brunoInput.press('Enter');
    await brunoInput.fill('Yes, I can.');
    await brunoInput.press('Enter');
    await shot(bruno.page, 'daily-chats-conversation-360');

    // Ana sees the answer without a reload; the blank one was never sent.
    await ana.page.getByTestId('chat-messages').getByText('Yes, I can.').waitFor();
    await expect(ana.page.getByTestId('chat-messages').getByRole('listitem').count()).resolves.toBe(2);
    await shot(ana.page, 'daily-chats-light');

    // The long chat: the newest show first; scrolling up brings the older ones from the server, in
    // order, each once, down to the oldest.
    await ana.page.getByRole('button', { name: /Shift history/ }).click();
    const history65 = ana.page.getByTestId('chat-messages');
    await history65.getByText('History note 65', { exact: true }).waitFor();
    await expect(history65.getByText('History note 1', { exact: true }).count()).resolves.toBe(0);
    await expect
      .poll(
        async () => {
          await history65.evaluate((el) => el.scrollTo({ top: 0 }));
          return history65.getByText('History note 1', { exact: true }).count();
        },
        { timeout: 20_000, interval: 250 },
      )
      .toBe(1);
    const notes = await history65.getByRole('listitem').evaluateAll((items) => items.map((li) => li.querySelector('p.break-words')?.textContent));
    expect(notes).toEqual(Array.from({ length: 65 }, (_, i) => `History note ${i + 1}`));
    // An attendant works the contacts but may not delete them (contacts-page:deleteContact).
    await bruno.page.goto('/contacts');
    await bruno.page.getByRole('button', { name: 'Edit Mariana Souza' }).waitFor();
    await expect(bruno.page.getByRole('button', { name: /^Delete / }).count()).resolves.toBe(0);
    await ana.page.goto('/contacts');
    await ana.page.getByRole('button', { name: 'Delete Mariana Souza' }).waitFor();
    await ana.context.close();
    await bruno.context.close();
  });

  it('shows each daily page in light, dark and at 360 px', async () => {
    const pages = ['/contacts', '/quick-messages', '/schedules', '/tags', '/kanban', '/chats', '/todolist'];
    for (const mode of [{ name: 'light' }, { name: 'dark', dark: true }, { name: '360', width: 360, height: 740 }]) {
      const { page, context } = await newPage(e2e, mode);
      await login(page, DEMO.admin, e2e.demoPassword);
      for (const path of pages) {
        await page.goto(path);
        await page.locator('main h1').waitFor().catch(async (err: unknown) => {
          await shot(page, `daily-failed-${mode.name}`);
          throw new Error(`${path} at ${mode.name}: ${String(err)}`);
        });
        await page.getByText('Loading…').waitFor({ state: 'detached' });
        // Nothing may be wider than the screen, except the kanban board, which scrolls sideways.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${path} at ${mode.name}`).toBeLessThanOrEqual(0);
        await shot(page, `daily-${path.slice(1)}-${mode.name}`);
      }
      await context.close();
    }
  });
});
