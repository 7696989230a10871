// What the contact does to its own side, seen in a real Chromium against the real server and the
// simulator: a message the contact edits shows its new text with "Edited", one it deletes shows as
// deleted, both live; its profile picture (supplied by the simulated phone) is the avatar of the
// chat and of the ticket list; a quick answer is filled with the ticket's contact when picked.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tenant } from '../server/src/db/tenant.ts';
import { bumpVersion } from '../server/src/sync/version.ts';
import { apiAs, DEMO, login, newPage, shot, startE2E, type E2E } from './harness.ts';

vi.setConfig({ testTimeout: 120_000 });

type Api = Awaited<ReturnType<typeof apiAs>>;

let e2e: E2E;
let admin: Api;
let connectionId: number;
let brunoId: number;
let salesId: number;

beforeAll(async () => {
  e2e = await startE2E();
  admin = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
  connectionId = (await admin<{ id: number }[]>('GET', '/whatsapp'))[0]!.id;
  brunoId = (await admin<{ id: number; email: string }[]>('GET', '/users/list')).find((u) => u.email === DEMO.attendant)!.id;
  salesId = (await admin<{ id: number; name: string }[]>('GET', '/queue')).find((q) => q.name === 'Sales')!.id;
}, 120_000);
afterAll(async () => {
  await e2e?.close();
});

describe('the contact’s edits, deletions and picture', () => {
  it('shows an edited message with "Edited", a deleted one as deleted, the contact’s picture, and fills a quick answer', async () => {
    const customer = { name: 'Edna Editora', number: '5511900071237' };
    const contact = await admin<{ id: number }>('POST', '/contacts', { name: customer.name, number: customer.number });
    const ticket = await admin<{ id: number; uuid: string }>('POST', '/tickets', { contactId: contact.id, status: 'open', userId: brunoId, queueId: salesId });
    const first = await admin<{ id: string }>('POST', '/simulator/messages', { connectionId, from: customer.number, name: customer.name, body: 'I want 3 boxes' });
    const second = await admin<{ id: string }>('POST', '/simulator/messages', { connectionId, from: customer.number, name: customer.name, body: 'Call me at 555-0199' });
    await admin('POST', '/quick-messages', { shortcode: 'hello-edna', message: '{{ms}}, {{firstName}}! Your protocol is {{protocol}}.', geral: true });
    // The picture is asked of the simulated phone in the background after the contact's creation.
    await expect.poll(async () => (await admin<{ profilePicUrl: string | null }>('GET', `/contacts/${contact.id}`)).profilePicUrl, { timeout: 10_000 }).toMatch(/^data:image\/svg\+xml;base64,/);

    const { context, page } = await newPage(e2e);
    await login(page, DEMO.attendant, e2e.demoPassword);
    await page.goto(`/tickets/${ticket.uuid}`);
    const chat = page.getByTestId('chat');
    await chat.getByText('I want 3 boxes').waitFor();
    await chat.getByText('Call me at 555-0199').waitFor();

    // The avatar is the contact's picture, in the chat's header and in the ticket list.
    const picture = page.locator('img[src^="data:image/svg+xml"]');
    await expect.poll(() => picture.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(await picture.first().evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

    // The contact edits the first message: the same bubble shows the new text and "Edited".
    await admin('POST', '/simulator/edits', { connectionId, messageId: first.id, body: 'I want 4 boxes' });
    const edited = chat.locator('[data-message-id]').filter({ hasText: 'I want 4 boxes' });
    await edited.waitFor();
    await edited.getByText('Edited', { exact: true }).waitFor();
    await expect(chat.getByText('I want 3 boxes').count()).resolves.toBe(0);

    // The contact deletes the second one: it shows as deleted, its text gone from the chat.
    await admin('POST', '/simulator/revokes', { connectionId, messageId: second.id });
    await chat.getByText('This message was deleted').waitFor();
    await expect.poll(() => chat.getByText('Call me at 555-0199').count()).toBe(0);

    // A quick answer is filled for this ticket when picked.
    const input = page.getByRole('textbox', { name: 'Type a message, or / for quick answers' });
    await input.fill('/hello-ed');
    await page.getByRole('option', { name: /\/hello-edna/ }).click();
    await expect(input.inputValue()).resolves.toMatch(new RegExp(`^Good (morning|afternoon|evening), Edna! Your protocol is \\d{14}${ticket.id}\\.$`));
    await shot(page, 'message-changes');
    await context.close();
  });

  it('shows the initials when the stored picture no longer loads (WhatsApp’s URLs expire)', async () => {
    const customer = { name: 'Otto Expirado', number: '5511900071238' };
    const contact = await admin<{ id: number }>('POST', '/contacts', { name: customer.name, number: customer.number });
    const ticket = await admin<{ id: number; uuid: string; contact: { id: number } }>('POST', '/tickets', { contactId: contact.id, status: 'open', userId: brunoId, queueId: salesId });
    const companyId = (await admin<{ company: { id: number } }>('GET', '/auth/me')).company.id;
    await expect.poll(async () => (await admin<{ profilePicUrl: string | null }>('GET', `/contacts/${contact.id}`)).profilePicUrl).not.toBeNull();
    // An expired URL, as WhatsApp's become after a while (nothing listens on port 9).
    const dead = 'http://127.0.0.1:9/expired-picture.jpg';
    await tenant(e2e.server.deps.db, companyId).updateTable('contacts').set({ profilePicUrl: dead, ...bumpVersion() }).where('contacts.id', '=', contact.id).execute();

    const { context, page } = await newPage(e2e);
    await login(page, DEMO.attendant, e2e.demoPassword);
    await page.goto(`/tickets/${ticket.uuid}`);
    const header = page.getByTestId('chat');
    await header.getByText(customer.name).first().waitFor();
    await header.getByText('OE', { exact: true }).first().waitFor();
    await expect(page.locator(`img[src="${dead}"]`).count()).resolves.toBe(0);
    await context.close();
  });
});
