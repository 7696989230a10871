// The tickets screen in a real Chromium against the real server and the simulator (issue 6): a
// customer writes, the attendant sees the ticket waiting, accepts, answers (the reply reaches the
// simulated phone), transfers; the admin, in another browser, sees every step live and resolves.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, apiAs, DEMO, login, newPage, shot, startE2E, type E2E } from './harness.ts';

vi.setConfig({ testTimeout: 120_000 });

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
}, 120_000);
afterAll(async () => {
  await e2e?.close();
});

type Api = Awaited<ReturnType<typeof apiAs>>;
type Outbox = { id: string; to: string; body: string }[];

const ticketRow = (page: Page, name: string) => page.getByTestId('ticket-item').filter({ hasText: name });

async function demoConnection(): Promise<number> {
  const admin: Api = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
  return (await admin<{ id: number }[]>('GET', '/whatsapp'))[0]!.id;
}

async function openTab(page: Page, name: RegExp) {
  await page.getByRole('tab', { name }).click();
}

describe('tickets', () => {
  it('receives, accepts, answers, transfers and resolves, seen live by a second user', async () => {
    // The admin's own API session would end when she signs in in the browser: the simulator is driven by the super-admin.
    const connectionId = await demoConnection();
    const simulator: Api = await apiAs(e2e, DEMO.superAdmin, ADMIN_PASSWORD);
    const customer = { from: '5511900012345', name: 'Eva Tester' };

    const bruno = await newPage(e2e);
    await login(bruno.page, DEMO.attendant, e2e.demoPassword);
    await bruno.page.goto('/tickets');
    const ana = await newPage(e2e, { width: 1400 });
    await login(ana.page, DEMO.admin, e2e.demoPassword);
    await ana.page.goto('/tickets');

    // The customer writes and picks Sales (option 1 of the connection's menu): a pending ticket in Bruno's queue.
    await simulator('POST', '/simulator/messages', { connectionId, ...customer, body: 'Hello, I need help with my order' });
    await simulator('POST', '/simulator/messages', { connectionId, ...customer, body: '1' });

    await openTab(bruno.page, /^Waiting \(\d+\)$/);
    const waiting = ticketRow(bruno.page, customer.name);
    await waiting.waitFor();
    await expect(waiting.getAttribute('data-status')).resolves.toBe('pending');
    await shot(bruno.page, 'tickets-waiting-light');

    await waiting.getByRole('button', { name: 'Accept' }).click();
    await bruno.page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
    const chat = bruno.page.getByTestId('chat');
    await expect(chat.getAttribute('data-ticket-status')).resolves.toBe('open');
    await chat.getByText('Hello, I need help with my order').waitFor();

    // The admin's list shows it taken by Bruno, without a reload.
    await openTab(ana.page, /^Attending \(\d+\)$/);
    await ticketRow(ana.page, customer.name).filter({ hasText: 'Bruno Attendant' }).waitFor();

    const input = bruno.page.getByRole('textbox', { name: 'Type a message, or / for quick answers' });
    await input.fill('Of course! Let me check it for you.');
    await input.press('Enter');
    const bubble = chat.locator('[data-from-me="true"]').filter({ hasText: 'Let me check it for you.' });
    await bubble.waitFor();
    // Confirmed by the server: the clock becomes a tick once the network took it.
    await bubble.locator('[data-tick="sent"], [data-tick="delivered"], [data-tick="read"]').waitFor();
    const outbox = await simulator<Outbox>('GET', `/simulator/outbox?connectionId=${connectionId}&to=${customer.from}`);
    expect(outbox.map((m) => m.body)).toContain('*Bruno Attendant*:\nOf course! Let me check it for you.');
    await shot(bruno.page, 'tickets-chat-light');

    // Transfer to Support without a user: it waits there, out of Bruno's view, into Ana's Waiting.
    await chat.getByRole('button', { name: 'Ticket actions' }).click();
    await bruno.page.getByRole('menuitem', { name: 'Transfer' }).click();
    const dialog = bruno.page.getByRole('dialog', { name: 'Transfer ticket' });
    await dialog.getByLabel('Queue').selectOption({ label: 'Support' });
    await dialog.getByRole('button', { name: 'Transfer' }).click();
    await bruno.page.waitForURL(/\/tickets$/);
    await ticketRow(bruno.page, customer.name).waitFor({ state: 'detached' });

    await openTab(ana.page, /^Waiting \(\d+\)$/);
    const atAna = ticketRow(ana.page, customer.name).filter({ hasText: 'Support' });
    await atAna.waitFor();
    await atAna.getByRole('button', { name: 'Accept' }).click();
    await ana.page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
    const uuid = new URL(ana.page.url()).pathname.split('/').pop()!;
    await ana.page.getByTestId('chat').getByText('Of course! Let me check it for you.').waitFor();

    await ana.page.getByTestId('chat').getByRole('button', { name: 'Ticket actions' }).click();
    await ana.page.getByRole('menuitem', { name: 'Resolve with farewell' }).click();
    await ana.page.waitForURL(/\/tickets$/);
    await ticketRow(ana.page, customer.name).waitFor({ state: 'detached' });

    // The Closed tab lists it; opening it shows the closed conversation with the reopen action.
    await openTab(ana.page, /^Closed$/);
    await ticketRow(ana.page, customer.name).getByRole('button', { name: customer.name }).click();
    await ana.page.waitForURL(`**/tickets/${uuid}`);
    await ana.page.getByTestId('chat').getByText('Conversation closed').waitFor();
    await ana.page.getByRole('button', { name: 'Reopen' }).waitFor();
    await bruno.context.close();
    await ana.context.close();
  });

  it('keeps an attendant out of a ticket of another queue, opens the waiting ticket of a contact from the new-ticket modal, narrow and dark', async () => {
    const connectionId = await demoConnection();
    const admin: Api = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
    await admin('POST', '/simulator/messages', { connectionId, from: '5511900054321', name: 'Otto Support', body: 'My router is broken' });
    await admin('POST', '/simulator/messages', { connectionId, from: '5511900054321', name: 'Otto Support', body: '2' });
    const page = await admin<{ tickets: { uuid: string; contact: { name: string } }[] }>('GET', '/tickets?searchParam=Otto');
    const uuid = page.tickets[0]!.uuid;

    const { context, page: bruno } = await newPage(e2e, { width: 360, height: 740, dark: true });
    await login(bruno, DEMO.attendant, e2e.demoPassword);
    await bruno.goto(`/tickets/${uuid}`);
    await bruno.getByText('Access not allowed').waitFor();
    await bruno.waitForURL(/\/tickets$/);
    await bruno.getByRole('tab', { name: 'Attendances' }).waitFor();
    await shot(bruno, 'tickets-list-360-dark');

    // A new ticket for a contact who is already waiting: the error is shown and that ticket opens.
    await bruno.getByRole('button', { name: 'New ticket' }).click();
    const modal = bruno.getByRole('dialog', { name: 'New ticket' });
    await modal.getByRole('searchbox', { name: 'Contact' }).fill('Mariana');
    await modal.getByRole('combobox', { name: 'Choose a contact.' }).locator('option', { hasText: 'Mariana Souza' }).waitFor({ state: 'attached' });
    await modal.getByRole('button', { name: 'Open ticket' }).click();
    await bruno.getByText('There is already an open ticket for this contact.').waitFor();
    await bruno.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
    await bruno.getByTestId('chat').getByText('Mariana Souza').first().waitFor();
    await context.close();
  });

  it('draws every kind of media a customer sends, in the dark theme', async () => {
    const connectionId = await demoConnection();
    const simulator: Api = await apiAs(e2e, DEMO.superAdmin, ADMIN_PASSWORD);
    const customer = { connectionId, from: '5511900099999', name: 'Mia Media' };
    await simulator('POST', '/simulator/messages', { ...customer, body: 'Look at these' });
    await simulator('POST', '/simulator/messages', { ...customer, body: '1' });

    const { context, page } = await newPage(e2e, { dark: true, width: 1280, height: 900 });
    await login(page, DEMO.attendant, e2e.demoPassword);
    await page.goto('/tickets');
    await openTab(page, /^Waiting \(\d+\)$/);
    await ticketRow(page, customer.name).getByRole('button', { name: 'Accept' }).click();
    const chat = page.getByTestId('chat');
    await chat.getByText('Look at these').waitFor();

    for (const media of [
      { mediaType: 'image', fileName: 'photo.jpg', body: 'a photo' },
      { mediaType: 'audio' },
      { mediaType: 'video', fileName: 'clip.mp4' },
      { mediaType: 'document', fileName: 'invoice.pdf' },
      { mediaType: 'location', body: 'Main Street 10' },
      { mediaType: 'vcard', body: 'Rita Contact' },
      { mediaType: 'call_log' },
    ]) {
      await simulator('POST', '/simulator/messages', { ...customer, ...media });
    }
    await chat.locator('img[alt="a photo"]').waitFor();
    await chat.locator('audio[controls]').waitFor();
    await chat.locator('video[controls]').waitFor();
    await chat.getByRole('link', { name: /Download .*\.pdf/ }).waitFor();
    await chat.getByText('Contact card').waitFor();
    await chat.getByText('Rita Contact').waitFor();
    await chat.getByText('Missed call').waitFor();
    await chat.locator('a[href*="maps"]').waitFor();
    await shot(page, 'tickets-media-dark');

    // A file the server refuses (a text renamed photo.png) with a caption: the toast says why, and
    // the caption and the file are back in the composer, to fix and send again.
    const composer = page.getByRole('textbox', { name: 'Type a message, or / for quick answers' });
    await page.locator('input[type=file]').first().setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
    await composer.fill('Here is the photo');
    await composer.press('Enter');
    await page.getByText('photo.png: This file type is not accepted.').waitFor();
    const attachments = page.getByRole('list', { name: 'Files to send' });
    await attachments.getByText('photo.png').waitFor();
    await expect.poll(() => composer.inputValue()).toBe('Here is the photo');
    await attachments.getByRole('button', { name: 'Remove photo.png' }).click();
    await composer.fill('');

    // The connection is logged out: the reply shows at once and stays, waiting in the outbox with
    // the clock (DESIGN §12), instead of being refused and lost.
    // Last in the file: the demo connection stays down.
    await simulator('POST', `/simulator/connections/${connectionId}/drop`, { cause: 'loggedOut' });
    const input = page.getByRole('textbox', { name: 'Type a message, or / for quick answers' });
    await input.fill('This one waits for the phone');
    await input.press('Enter');
    const waiting = chat.locator('[data-from-me="true"]').filter({ hasText: 'This one waits for the phone' });
    await waiting.getByRole('img', { name: 'Waiting to send' }).waitFor();
    // The server has it as a queued row (nothing was refused), and the chat keeps showing it waiting.
    const admin: Api = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
    const found = await admin<{ tickets: { id: number }[] }>('GET', '/tickets?searchParam=Mia&showAll=true');
    await vi.waitFor(async () => {
      const { messages } = await admin<{ messages: { body: string; sendStatus: string | null }[] }>('GET', `/messages/${found.tickets[0]!.id}`);
      expect(messages.find((m) => m.body.endsWith('This one waits for the phone'))?.sendStatus).toBe('queued');
    }, { timeout: 10_000 });
    await waiting.getByRole('img', { name: 'Waiting to send' }).waitFor();
    expect(await waiting.count()).toBe(1);
    const chatPath = new URL(page.url()).pathname;
    await context.close();

    // On a phone (signing Bruno in there ends the first browser's session) the chat fills the screen under the Ticket / Attendances tabs, with a way back.
    const phone = await newPage(e2e, { width: 360, height: 740, dark: true });
    await login(phone.page, DEMO.attendant, e2e.demoPassword);
    await phone.page.goto(chatPath);
    await phone.page.getByRole('tab', { name: 'Attendances' }).waitFor();
    await phone.page.getByTestId('chat').getByText('Missed call').waitFor();
    await phone.page.getByTestId('chat').getByRole('button', { name: 'Back to the list' }).waitFor();
    await shot(phone.page, 'tickets-chat-360-dark');
    await phone.context.close();
  });
});
