// Failed sends in a real Chromium against the real server and the simulator (DESIGN §12): a reply
// waits with the clock while the connection is down, fails for good when the simulated phone says
// the number is not on WhatsApp, shows why in the chat, and leaves exactly once when resent. A send
// the server could not confirm (it stopped mid-send) is resent only after the attendant confirms,
// in Portuguese, on a 360 px phone in the dark theme. Screenshots go to SHOTS_DIR.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tenant } from '../server/src/db/tenant.ts';
import { recoverUnconfirmed } from '../server/src/outbound/record.ts';
import { apiAs, DEMO, login, newPage, shot, SHOTS_DIR, startE2E, type E2E } from './harness.ts';

vi.setConfig({ testTimeout: 120_000 });

type Api = Awaited<ReturnType<typeof apiAs>>;
type Outbox = { id: string; to: string; body: string; ack: number }[];
type TicketRef = { id: number; uuid: string };

let e2e: E2E;
// Bruno works in the browser; the demo admin, never signed in there, drives the setup and the simulator.
let admin: Api;
let connectionId: number;
let companyId: number;
let brunoId: number;
let salesId: number;

beforeAll(async () => {
  e2e = await startE2E();
  admin = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
  connectionId = (await admin<{ id: number }[]>('GET', '/whatsapp'))[0]!.id;
  companyId = (await admin<{ company: { id: number } }>('GET', '/auth/me')).company.id;
  brunoId = (await admin<{ id: number; email: string }[]>('GET', '/users/list')).find((u) => u.email === DEMO.attendant)!.id;
  salesId = (await admin<{ id: number; name: string }[]>('GET', '/queue')).find((q) => q.name === 'Sales')!.id;
}, 120_000);
afterAll(async () => {
  await e2e?.close();
});

/** A customer with an open ticket of Bruno's in Sales, who has just written in. */
async function customerOfBruno(name: string, number: string, body: string): Promise<TicketRef> {
  const contact = await admin<{ id: number }>('POST', '/contacts', { name, number });
  const ticket = await admin<TicketRef>('POST', '/tickets', { contactId: contact.id, status: 'open', userId: brunoId, queueId: salesId });
  await admin('POST', '/simulator/messages', { connectionId, from: number, name, body });
  return ticket;
}

async function waitConnected(): Promise<void> {
  await expect.poll(async () => (await admin<{ id: number; status: string }[]>('GET', '/whatsapp')).find((c) => c.id === connectionId)?.status, { timeout: 30_000 }).toBe('CONNECTED');
}

/** What the simulated phone received with this exact text (Bruno signs his messages: bold name first). */
async function delivered(to: string, text: string): Promise<Outbox> {
  const outbox = await admin<Outbox>('GET', `/simulator/outbox?connectionId=${connectionId}&to=${to}`);
  return outbox.filter((m) => m.body === `*Bruno Attendant*:\n${text}`);
}

async function send(page: Page, placeholder: string, text: string) {
  const input = page.getByRole('textbox', { name: placeholder });
  await input.fill(text);
  await input.press('Enter');
}

const ourBubble = (page: Page, text: string) => page.getByTestId('chat').locator('[data-from-me="true"]').filter({ hasText: text });
const sentTick = '[data-tick="sent"], [data-tick="delivered"], [data-tick="read"]';

describe('failed sends', () => {
  it('shows why a reply failed and sends it once when the attendant resends it', async () => {
    const customer = { name: 'Abel Absent', number: '5511900061111' };
    const ticket = await customerOfBruno(customer.name, customer.number, 'Did my parcel leave?');
    const { context, page } = await newPage(e2e);
    await login(page, DEMO.attendant, e2e.demoPassword);
    await page.goto(`/tickets/${ticket.uuid}`);
    await page.getByTestId('chat').getByText('Did my parcel leave?').waitFor();

    // The number is gone from WhatsApp, and the connection is down for a moment: the reply waits.
    await admin('POST', '/simulator/numbers', { connectionId, number: customer.number, exists: false });
    await admin('POST', `/simulator/connections/${connectionId}/drop`, { cause: 'network', forMs: 4000 });
    const text = 'Yes, it left this morning.';
    await send(page, 'Type a message, or / for quick answers', text);
    const bubble = ourBubble(page, text);
    await bubble.getByRole('img', { name: 'Waiting to send' }).waitFor();

    // Back online, it leaves and fails for good: the mark where the ticks go, the catalogue's reason.
    await bubble.getByRole('img', { name: 'Not sent' }).waitFor();
    const failure = bubble.getByTestId('send-failure');
    await expect(failure.locator('p').innerText()).resolves.toBe('Not sent. This is not a valid WhatsApp number.');
    await expect(delivered(customer.number, text)).resolves.toEqual([]);
    await shot(page, 'resend-failed-light');
    await bubble.screenshot({ path: path.join(SHOTS_DIR, 'resend-failed-bubble-light.png') });

    // The number is back; Resend, from the keyboard: no question asked, it leaves once.
    await admin('POST', '/simulator/numbers', { connectionId, number: customer.number, exists: true });
    const resend = bubble.getByRole('button', { name: 'Resend' });
    await resend.focus();
    await page.keyboard.press('Enter');
    await bubble.locator(sentTick).waitFor();
    await failure.waitFor({ state: 'detached' });
    await e2e.server.deps.outbox.idle();
    const sent = await delivered(customer.number, text);
    expect(sent).toHaveLength(1);
    await shot(page, 'resend-sent-light');
    await context.close();
  });

  it('asks before resending a message that may have reached the contact already (pt, 360 px, dark)', async () => {
    await waitConnected();
    const customer = { name: 'Bia Incerta', number: '5511900062222' };
    const ticket = await customerOfBruno(customer.name, customer.number, 'Vocês entregam no sábado?');
    const { context, page } = await newPage(e2e, { width: 360, height: 740, dark: true, language: 'pt' });
    await login(page, DEMO.attendant, e2e.demoPassword);
    await page.goto(`/tickets/${ticket.uuid}`);
    await page.getByTestId('chat').getByText('Vocês entregam no sábado?').waitFor();

    // The server stops in the middle of this send: the row is left `sending` under a process that
    // is gone (queued while the connection is down, then claimed by that process), and the next
    // start finds it with the outbox's own recovery, which cannot tell whether it left.
    await admin('POST', `/simulator/connections/${connectionId}/drop`, { cause: 'network', forMs: 15_000 });
    const text = 'Sim, entregamos aos sábados.';
    await send(page, 'Digite uma mensagem, ou / para respostas rápidas', text);
    const db = tenant(e2e.server.deps.db, companyId);
    await expect
      .poll(async () => Number((await db.updateTable('outbox').set({ state: 'sending', claimedBy: 'a-process-that-died', claimedAt: new Date().toISOString() }).where('outbox.ticketId', '=', ticket.id).where('outbox.state', '=', 'queued').executeTakeFirst()).numUpdatedRows))
      .toBe(1);
    await expect(recoverUnconfirmed(e2e.server.deps, companyId, connectionId, 'the-restarted-process')).resolves.toBe(1);

    const bubble = ourBubble(page, text);
    await bubble.getByRole('img', { name: 'Envio não confirmado' }).waitFor();
    await expect(bubble.getByTestId('send-failure').locator('p').innerText()).resolves.toBe(
      'Envio não confirmado. O servidor parou enquanto esta mensagem era enviada: ela pode ou não ter chegado ao contato.',
    );
    await shot(page, 'resend-unconfirmed-360-dark');

    // Resending may deliver it twice: a dialog asks first; cancelling leaves it as it was.
    await bubble.getByRole('button', { name: 'Reenviar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar de novo?' });
    await dialog.getByText(`Esta mensagem pode já ter chegado a ${customer.name}: enviá-la de novo pode entregá-la duas vezes.`).waitFor();
    await shot(page, 'resend-confirm-360-dark');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await bubble.getByRole('img', { name: 'Envio não confirmado' }).waitFor();

    await bubble.getByRole('button', { name: 'Reenviar' }).click();
    await dialog.getByRole('button', { name: 'Enviar de novo' }).click();
    await bubble.getByTestId('send-failure').waitFor({ state: 'detached' });
    // It leaves when the connection is back, once.
    await bubble.locator(sentTick).waitFor({ timeout: 30_000 });
    await e2e.server.deps.outbox.idle();
    await expect(delivered(customer.number, text)).resolves.toHaveLength(1);
    await shot(page, 'resend-sent-360-dark');
    await context.close();
  });
});
