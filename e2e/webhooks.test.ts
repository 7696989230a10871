// Webhooks in a real Chromium against the real server (issue 18): the demo admin finds Webhooks in
// the menu, registers a local receiver (node:http) for some events, sees the signing secret once,
// sends a test and sees the delivery in the log (delivered, HTTP 200), and the receiver got it
// signed with that secret.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startReceiver, verifySignature } from '../server/test/webhook-receiver.ts';
import { apiAs, DEMO, login, newPage, shot, startE2E, type E2E } from './harness.ts';

vi.setConfig({ testTimeout: 120_000 });

let e2e: E2E;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  e2e = await startE2E();
  receiver = await startReceiver();
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await e2e?.close();
});

describe('webhooks page', () => {
  it('creates a webhook, shows its secret once, sends a test and shows the delivery in the log', async () => {
    const { context, page } = await newPage(e2e);
    await login(page, DEMO.admin, e2e.demoPassword);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByText('No webhooks yet.').waitFor();

    await page.getByRole('button', { name: 'Add webhook' }).click();
    const form = page.getByRole('dialog', { name: 'New webhook' });
    await form.getByLabel('Name').fill('CRM');
    await form.getByLabel('URL').fill(receiver.url);
    await form.getByRole('button', { name: 'Save' }).click();
    // No event picked: the form says so and nothing is created.
    await form.getByText('Pick at least one event.').waitFor();
    await form.getByLabel('ticket.created').check();
    await form.getByLabel('message.received').check();
    await form.getByRole('button', { name: 'Save' }).click();

    const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
    const secret = (await secretDialog.getByTestId('webhook-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await shot(page, 'webhooks-secret');
    await page.keyboard.press('Escape');
    await secretDialog.waitFor({ state: 'detached' });

    const row = page.getByRole('row', { name: /CRM/ });
    await row.getByText('ticket.created, message.received').waitFor();
    await row.getByRole('button', { name: 'Send test' }).click();
    const log = page.getByRole('dialog', { name: 'Deliveries of CRM' });
    const delivery = log.getByTestId('webhook-delivery').first();
    await delivery.getByText('webhook.test').waitFor();
    await delivery.getByText('delivered').waitFor();
    await delivery.getByText('200', { exact: true }).waitFor();
    await shot(page, 'webhooks-log');

    expect(receiver.received.map((r) => r.event)).toEqual(['webhook.test']);
    expect(verifySignature(secret, receiver.received[0]!)).toBe(true);
    await context.close();
  });

  it("shows another admin's new, edited and deleted webhooks without a reload", async () => {
    // Another admin of the company (signing in as the same user would end the page's session).
    const demoAdmin = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
    await demoAdmin('POST', '/users', { name: 'Hook Ops', email: 'hooks@demo.zapdesk.local', password: 'Hooks-e2e-123', profile: 'admin' });
    const admin = await apiAs(e2e, 'hooks@demo.zapdesk.local', 'Hooks-e2e-123');
    const { context, page } = await newPage(e2e);
    await login(page, DEMO.admin, e2e.demoPassword);
    await page.goto('/webhooks');
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    const { id } = await admin<{ id: number }>('POST', '/webhooks', { name: 'ERP de outro', url: receiver.url, events: ['contact.created'] });
    await page.getByRole('row', { name: /ERP de outro/ }).waitFor({ timeout: 10_000 });
    await admin('PUT', `/webhooks/${id}`, { name: 'ERP renomeado', events: ['contact.created', 'ticket.created'] });
    const row = page.getByRole('row', { name: /ERP renomeado/ });
    await row.getByText('contact.created, ticket.created').waitFor({ timeout: 10_000 });
    await admin('DELETE', `/webhooks/${id}`);
    await row.waitFor({ state: 'detached', timeout: 10_000 });
    await context.close();
  });
});
