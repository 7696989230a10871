// A browser that was offline for a while (DESIGN §12): the attendant's reply, typed when the network
// went, shows at once with the clock and reaches the customer within 3 s of the network coming back —
// the client pushes when the browser says it is online again, instead of waiting out Replicache's
// backoff, which after 35 s of failed pushes is up to a minute. Real Chromium, real server, simulator.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiAs, DEMO, login, newPage, startE2E, type E2E } from './harness.ts';

vi.setConfig({ testTimeout: 180_000 });

type Api = Awaited<ReturnType<typeof apiAs>>;

let e2e: E2E;
let admin: Api;

beforeAll(async () => {
  e2e = await startE2E();
  admin = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
}, 120_000);
afterAll(async () => {
  await e2e?.close();
});

describe('offline', () => {
  it('a reply typed as the network goes, 35 s offline, reaches the customer within 3 s of coming back online', async () => {
    const connectionId = (await admin<{ id: number }[]>('GET', '/whatsapp'))[0]!.id;
    const brunoId = (await admin<{ id: number; email: string }[]>('GET', '/users/list')).find((u) => u.email === DEMO.attendant)!.id;
    const salesId = (await admin<{ id: number; name: string }[]>('GET', '/queue')).find((q) => q.name === 'Sales')!.id;
    const customer = { name: 'Olga Offline', number: '5511900071111' };
    const contact = await admin<{ id: number }>('POST', '/contacts', customer);
    const ticket = await admin<{ uuid: string }>('POST', '/tickets', { contactId: contact.id, status: 'open', userId: brunoId, queueId: salesId });
    await admin('POST', '/simulator/messages', { connectionId, from: customer.number, name: customer.name, body: 'Is anyone there?' });

    const { context, page } = await newPage(e2e);
    await login(page, DEMO.attendant, e2e.demoPassword);
    await page.goto(`/tickets/${ticket.uuid}`);
    const chat = page.getByTestId('chat');
    await chat.getByText('Is anyone there?').waitFor();

    // The network goes; the reply is typed at once and waits with the clock while its pushes fail,
    // Replicache backing off further each time, for 35 s.
    await context.setOffline(true);
    const text = 'Sorry for the wait, I am here now.';
    const input = page.getByRole('textbox', { name: 'Type a message, or / for quick answers' });
    await input.fill(text);
    await input.press('Enter');
    const bubble = chat.locator('[data-from-me="true"]').filter({ hasText: text });
    await bubble.getByRole('img', { name: 'Waiting to send' }).waitFor();
    await page.waitForTimeout(35_000);

    // Back online: the reply leaves at once.
    await context.setOffline(false);
    const back = Date.now();
    const delivered = async () =>
      (await admin<{ body: string }[]>('GET', `/simulator/outbox?connectionId=${connectionId}&to=${customer.number}`)).filter((m) => m.body.endsWith(text));
    await expect.poll(delivered, { timeout: 10_000, interval: 50 }).toHaveLength(1);
    const tookMs = Date.now() - back;
    expect(tookMs).toBeLessThan(3_000);
    await bubble.locator('[data-tick="sent"], [data-tick="delivered"], [data-tick="read"]').waitFor();
    await context.close();
  });
});
