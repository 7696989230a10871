// An AI prompt answering a customer, end to end (issue 16): the real server with OPENAI_BASE_URL on a
// local fake of OpenAI's chat completions, the simulator as the customer's phone, and an attendant's
// real Chromium. The connection's prompt answers a new customer; the attendant sees the AI's reply
// in the waiting ticket's chat as it happens; when the customer asks for a person the model calls
// its hand-over tool: the ticket moves to the prompt's queue (Support) with a note for the agents.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { completion, startFakeServices, type FakeServices } from '../server/test/fakes/services.ts';
import { ADMIN_PASSWORD, apiAs, DEMO, login, newPage, shot, startE2E, type E2E } from './harness.ts';

vi.setConfig({ testTimeout: 120_000 });

type Api = Awaited<ReturnType<typeof apiAs>>;
let fake: FakeServices;
let e2e: E2E;
let simulator: Api;
let admin: Api;
const OPS = { email: 'ai-ops@demo.zapdesk.local', password: 'Ops-e2e-1234' };
const CUSTOMER = { from: '5511977772601', name: 'Helena Prado' };

beforeAll(async () => {
  fake = await startFakeServices();
  fake.on(/^\/v1\/chat\/completions$/, (req) => {
    const messages = (req.json as { messages: { role: string; content: string }[] }).messages;
    const last = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    if (/atendente/i.test(last)) return { json: completion({ text: 'Claro! Vou chamar uma pessoa do suporte.', toolCall: { name: 'transfer_to_human', args: { reason: 'pediu um atendente' } } }) };
    return { json: completion({ text: 'Entregamos sim, hoje até as 18h.' }) };
  });
  e2e = await startE2E({ OPENAI_BASE_URL: `${fake.url}/v1` });
  simulator = await apiAs(e2e, DEMO.superAdmin, ADMIN_PASSWORD);
  // The browser signs in as the demo admin; the test's own calls go as a second admin.
  const demoAdmin = await apiAs(e2e, DEMO.admin, e2e.demoPassword);
  await demoAdmin('POST', '/users', { name: 'AI Ops', email: OPS.email, password: OPS.password, profile: 'admin' });
  admin = await apiAs(e2e, OPS.email, OPS.password);
}, 120_000);
afterAll(async () => {
  await e2e?.close();
  await fake?.close();
});

const ticketRow = (page: Page, name: string) => page.getByTestId('ticket-item').filter({ hasText: name });

describe('an AI prompt in a conversation', () => {
  it('answers the customer live in the chat, then hands over to the Support queue by a tool call', async () => {
    const queues = await admin<{ id: number; name: string }[]>('GET', '/queue');
    const support = queues.find((q) => q.name === 'Support')!;
    const prompt = await admin<{ id: number; apiKey: string }>('POST', '/prompt', {
      name: 'Assistente da loja',
      prompt: 'Você atende clientes da loja de demonstração: entregas, preços e horários, com frases curtas.',
      apiKey: 'sk-e2e-conversation-key-123456',
      queueId: support.id,
      model: 'gpt-4o-mini',
    });
    expect(prompt.apiKey).toBe('••••3456');
    const connection = (await admin<{ id: number }[]>('GET', '/whatsapp'))[0]!;
    await admin('PUT', `/whatsapp/${connection.id}`, { promptId: prompt.id });

    const { page, context } = await newPage(e2e);
    await login(page, DEMO.admin, e2e.demoPassword);
    await page.goto('/tickets');
    await page.getByRole('tab', { name: /^Waiting \(\d+\)$/ }).click();

    await simulator('POST', '/simulator/messages', { connectionId: connection.id, ...CUSTOMER, body: 'Oi! Vocês entregam hoje?' });
    // The waiting ticket shows the AI's answer as its last message, without a reload.
    const row = ticketRow(page, CUSTOMER.name);
    await row.getByText('Entregamos sim, hoje até as 18h.').waitFor();
    await row.getByRole('button', { name: 'Peek at the conversation' }).click();
    const chat = page.getByRole('dialog', { name: `Conversation of ${CUSTOMER.name}` });
    await chat.getByText('Oi! Vocês entregam hoje?').waitFor();
    await chat.getByText('Entregamos sim, hoje até as 18h.').waitFor();
    const outbox = () => simulator<{ body: string }[]>('GET', `/simulator/outbox?connectionId=${connection.id}&to=${CUSTOMER.from}`).then((ms) => ms.map((m) => m.body));
    await expect.poll(outbox).toEqual(['Entregamos sim, hoje até as 18h.']);
    // The model read the whole conversation with the prompt's own key.
    const call = fake.requests.find((r) => r.path === '/v1/chat/completions')!;
    expect(call.headers.authorization).toBe('Bearer sk-e2e-conversation-key-123456');

    await simulator('POST', '/simulator/messages', { connectionId: connection.id, ...CUSTOMER, body: 'Quero falar com um atendente' });
    // In the open conversation, live.
    await chat.getByText('Claro! Vou chamar uma pessoa do suporte.').waitFor();
    await expect.poll(outbox).toEqual(['Entregamos sim, hoje até as 18h.', 'Claro! Vou chamar uma pessoa do suporte.']);
    const deps = e2e.server.deps;
    const ticket = await deps.db
      .selectFrom('tickets')
      .innerJoin('contacts', 'contacts.id', 'tickets.contactId')
      .select(['tickets.id', 'tickets.queueId', 'tickets.status', 'tickets.assistantState'])
      .where('contacts.number', '=', CUSTOMER.from)
      .executeTakeFirstOrThrow();
    expect(ticket).toMatchObject({ queueId: support.id, status: 'pending', assistantState: 'off' });
    const notes = await deps.db.selectFrom('ticketNotes').select('note').where('ticketId', '=', ticket.id).execute();
    expect(notes.map((n) => n.note).join()).toContain('pediu um atendente');
    await shot(page, 'ai-conversation');
    // What the AI spent shows on the prompts page (two answers of the fake's 50 + 10 tokens).
    await page.goto('/prompts');
    await expect.poll(() => page.getByTestId('ai-usage').textContent()).toBe('AI usage, last 30 days: 2 answers, 100 tokens read, 20 written');
    await context.close();
  });
});
