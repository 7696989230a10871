// Prompts and queue integrations in a real Chromium against the real server (spec/03 §2; issue 16):
// a prompt made from the prompts screen (the 'set sector' refusal first, the key hidden behind its
// toggle and never shown again), a webhook integration made from the integrations screen (its
// generated signing secret shown once), then both picked in a queue's modal; the queue keeps them.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { promptCreateSchema } from '@zapdesk/sync';
import { write } from '../server/src/db/write.ts';
import { createPrompt } from '../server/src/modules/prompts/service.ts';
import { bumpVersion } from '../server/src/sync/version.ts';
import { DEMO, login, newPage, shot, startE2E, type E2E } from './harness.ts';

vi.setConfig({ testTimeout: 90_000 });

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
}, 120_000);
afterAll(async () => {
  await e2e?.close();
});

const KEY = 'sk-e2e-secret-key-abcdefghijklmnop';

describe('prompts and queue integrations screens', () => {
  it('creates a prompt and a webhook integration and picks both in a queue', async () => {
    const { context, page } = await newPage(e2e);
    await login(page, DEMO.admin, e2e.demoPassword);

    await page.goto('/prompts');
    await page.getByRole('heading', { name: 'Prompts' }).waitFor();
    await page.getByRole('button', { name: 'Add prompt' }).click();
    const modal = page.getByRole('dialog', { name: 'New prompt' });
    await modal.getByLabel('Name').fill('Sales assistant');
    await modal.getByLabel('Prompt', { exact: true }).fill('You answer customers of the demo shop about prices and delivery, briefly and politely.');
    await modal.getByLabel('API key').fill(KEY);
    expect(await modal.getByLabel('API key').getAttribute('type')).toBe('password');
    await modal.getByRole('button', { name: 'Show password' }).click();
    expect(await modal.getByLabel('API key').getAttribute('type')).toBe('text');
    // The queue is where the assistant hands over; where it answers is chosen in a queue or a connection.
    await modal.getByText('The queue it hands a conversation over to when the customer needs a person.').waitFor();
    await modal.getByRole('button', { name: 'Save' }).click();
    // No queue: the 'set sector' rule.
    await modal.getByText('Set a queue (sector) for the prompt.').first().waitFor();
    await modal.getByLabel('Queue').selectOption({ label: 'Sales' });
    await modal.getByLabel('Temperature').fill('0.4');
    await modal.getByRole('button', { name: 'Save' }).click();
    await modal.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /Sales assistant/ });
    await row.getByRole('cell', { name: 'Sales', exact: true }).waitFor();
    await row.getByRole('cell', { name: '100', exact: true }).waitFor();
    await row.getByRole('cell', { name: 'Nowhere yet: choose it as the Prompt of a queue or a connection.' }).waitFor();
    await shot(page, 'prompts');

    // Live: a prompt written elsewhere (the server's own write path, as another admin's request would
    // run it; signing in as this admin again would end the browser's session) shows without a reload.
    const deps = e2e.server.deps;
    const support = await deps.db.selectFrom('queues').select(['id', 'companyId']).where('name', '=', 'Support').executeTakeFirstOrThrow();
    const admin = await deps.db.selectFrom('users').select('id').where('email', '=', DEMO.admin).executeTakeFirstOrThrow();
    const actor = { userId: admin.id, companyId: support.companyId, profile: 'admin' as const, super: false, sessionId: 'e2e' };
    const input = promptCreateSchema.parse({ name: 'Support assistant', prompt: 'You help customers of the demo shop with orders that went wrong, kindly.', apiKey: 'sk-live-0000000000001111', queueId: support.id, maxTokens: 300 });
    await write(deps, (tx) => createPrompt(tx, deps.secrets, actor, input));
    await page.getByRole('row', { name: /Support assistant/ }).getByRole('cell', { name: '300', exact: true }).waitFor();

    // Editing shows the mask, never the key; leaving the field empty keeps it.
    await row.getByRole('button', { name: 'Edit Sales assistant' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit prompt' });
    await edit.getByText('A key is stored (••••mnop). Leave empty to keep it.').waitFor();
    expect(await edit.getByLabel('API key').inputValue()).toBe('');
    expect(await page.content()).not.toContain(KEY);
    await shot(page, 'prompt-modal');
    await edit.getByRole('button', { name: 'Cancel' }).click();

    await page.goto('/queue-integration');
    await page.getByRole('heading', { name: 'Integrations' }).waitFor();
    await page.getByRole('button', { name: 'Add integration' }).click();
    const add = page.getByRole('dialog', { name: 'New integration' });
    // Each type shows its own fields; a pasted JSON that is not a service account is refused.
    await add.getByRole('radio', { name: /Typebot/ }).click();
    await add.getByLabel('Typebot slug').waitFor();
    expect(await add.getByLabel('Delay between messages (ms)').inputValue()).toBe('1000');
    await shot(page, 'integration-modal-typebot');
    await add.getByRole('radio', { name: /Dialogflow/ }).click();
    await add.getByLabel('Name', { exact: true }).fill('Agent');
    await add.getByLabel('Service account JSON').fill('{"project_id": "x"');
    await add.getByRole('button', { name: 'Save' }).click();
    await add.getByText('Paste a valid service account JSON.').waitFor();
    await shot(page, 'integration-modal-dialogflow');
    await add.getByRole('radio', { name: /Webhook/ }).click();
    await add.getByLabel('Name', { exact: true }).fill('Orders hook');
    await add.getByRole('button', { name: 'Save' }).click();
    await add.getByLabel('URL').and(page.locator('[aria-invalid=true]')).waitFor();
    await add.getByLabel('URL').fill('https://hooks.example.com/zapdesk');
    await shot(page, 'integration-modal');
    await add.getByRole('button', { name: 'Save' }).click();
    const secret = page.getByRole('dialog', { name: 'Signing secret' });
    const shown = await secret.getByTestId('signing-secret').textContent();
    expect(shown).toMatch(/^whsec_/);
    await secret.getByRole('button', { name: 'Done' }).click();
    const hookRow = page.getByRole('row', { name: /Orders hook/ });
    await hookRow.getByRole('img', { name: 'Webhook' }).waitFor();
    await hookRow.getByRole('cell', { name: 'Nowhere yet: choose it as the Integration of a queue or a connection.' }).waitFor();
    await shot(page, 'queue-integrations');

    // The queue modal's pickers.
    await page.goto('/queues');
    await page.getByRole('button', { name: 'Edit Sales' }).click();
    const queueModal = page.getByRole('dialog', { name: 'Edit queue' });
    await queueModal.getByLabel('Integration').selectOption({ label: 'Orders hook (webhook)' });
    await queueModal.getByLabel('Prompt').selectOption({ label: 'Sales assistant' });
    await shot(page, 'queue-modal-pickers');
    await queueModal.getByRole('button', { name: 'Save' }).click();
    await queueModal.waitFor({ state: 'detached' });

    const db = e2e.server.deps.db;
    const queue = await db.selectFrom('queues').select(['promptId', 'integrationId']).where('name', '=', 'Sales').executeTakeFirstOrThrow();
    const prompt = await db.selectFrom('prompts').select(['id', 'apiKeyEnc']).where('name', '=', 'Sales assistant').executeTakeFirstOrThrow();
    const hook = await db.selectFrom('queueIntegrations').select(['id', 'signingSecretEnc']).where('name', '=', 'Orders hook').executeTakeFirstOrThrow();
    expect(queue).toEqual({ promptId: prompt.id, integrationId: hook.id });
    expect(e2e.server.deps.secrets.open(prompt.apiKeyEnc)).toBe(KEY);
    expect(e2e.server.deps.secrets.open(hook.signingSecretEnc!)).toBe(shown);

    // Opened again (after a reload, so the synced queue is the saved one), the modal shows what was
    // picked once the pickers' lists have come.
    await page.reload();
    await page.getByRole('button', { name: 'Edit Sales' }).click();
    const again = page.getByRole('dialog', { name: 'Edit queue' });
    await expect.poll(() => again.getByLabel('Prompt').inputValue()).toBe(String(prompt.id));
    await expect.poll(() => again.getByLabel('Integration').inputValue()).toBe(String(hook.id));
    await again.getByRole('button', { name: 'Cancel' }).click();

    // The connection modal's Integrations tab has the same pickers.
    await page.goto('/connections');
    await page.getByRole('button', { name: 'Edit Demo WhatsApp (simulator)' }).click();
    const connModal = page.getByRole('dialog', { name: 'Edit connection' });
    await connModal.getByRole('tab', { name: 'Integrations' }).click();
    await connModal.getByLabel('Prompt').selectOption({ label: 'Sales assistant' });
    await shot(page, 'connection-modal-pickers');
    await connModal.getByRole('button', { name: 'Save' }).click();
    await connModal.waitFor({ state: 'detached' });
    const connection = await db.selectFrom('whatsapps').select(['promptId', 'integrationId']).where('name', '=', 'Demo WhatsApp (simulator)').executeTakeFirstOrThrow();
    expect(connection).toEqual({ promptId: prompt.id, integrationId: null });

    // The prompts page now says where it answers.
    await page.goto('/prompts');
    await page.getByRole('row', { name: /Sales assistant/ }).getByRole('cell', { name: 'queue Sales, connection Demo WhatsApp (simulator)', exact: true }).waitFor();
    await shot(page, 'prompts-in-use');
    await page.goto('/queue-integration');
    await page.getByRole('row', { name: /Orders hook/ }).getByRole('cell', { name: 'queue Sales', exact: true }).waitFor();
    await context.close();
  });

  it('sends a company whose plan lacks AI away from /prompts with the refusal toast after 1 s', async () => {
    const db = e2e.server.deps.db;
    const company = await db.selectFrom('companies').select('planId').where('name', '=', 'Demo Company').executeTakeFirstOrThrow();
    await db.updateTable('plans').set({ useOpenAi: 0, ...bumpVersion() }).where('id', '=', company.planId!).execute();
    try {
      const { context, page } = await newPage(e2e);
      await login(page, DEMO.admin, e2e.demoPassword);
      await page.goto('/prompts');
      await page.getByText('This company is not allowed to open this page. Redirecting you.').waitFor();
      expect(new URL(page.url()).pathname).toBe('/prompts');
      await expect(page.getByRole('heading', { name: 'Prompts' }).count()).resolves.toBe(0);
      await page.waitForURL((url) => url.pathname === '/');
      await context.close();
    } finally {
      await db.updateTable('plans').set({ useOpenAi: 1, ...bumpVersion() }).where('id', '=', company.planId!).execute();
    }
  });
});
