// Assistants in conversations, through the simulator and local fakes of the services, on a fresh
// database of each dialect: an AI prompt answers with the latest N messages, hands over by a tool
// call, hears voice notes, uses each prompt's own key, gives up on a slow AI (the ticket waits for
// people with a note), stays silent for a ticket an agent took; Typebot with choices, restart and
// finish keywords; a signed webhook retried until it answers; a Dialogflow round trip.
import { createPublicKey, createVerify, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { completion, startFakeServices, type FakeRequest, type FakeServices } from '../../test/fakes/services.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { generateMedia } from '../channels/simulator/media.ts';
import { tenant } from '../db/tenant.ts';
import { bumpVersion } from '../sync/version.ts';
import { signPayload } from './adapters/webhook.ts';

type Desk = Awaited<ReturnType<typeof setupDesk>>;
const PROMPT = 'You are the friendly assistant of Padaria Central. Answer questions about bread, cakes and opening hours.';

describe.each(DIALECTS)('assistants on %s', (dialect) => {
  let t: TestApp;
  let fake: FakeServices;
  beforeAll(async () => {
    fake = await startFakeServices();
    t = await createTestApp(dialect, {
      simulator: true,
      assistants: {
        concurrency: 16,
        timeoutMs: 1_500,
        attempts: 3,
        backoffMs: 30,
        openaiBaseUrl: `${fake.url}/v1`,
        transcriptionModel: 'whisper-1',
        dialogflowBaseUrl: fake.url,
        publicUrl: 'http://zapdesk.test',
        speechBaseUrl: `${fake.url}/tts`,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const settle = async () => {
    await t.deps.assistants.idle();
    await t.deps.outbox.idle();
  };
  const chatRequests = (since: number) => fake.requests.slice(since).filter((r) => r.path === '/v1/chat/completions');
  const bodies = async (desk: Desk, from: string) => (await desk.outbox(from)).map((m) => m.body);

  async function addPrompt(desk: Desk, values: { apiKey?: string; maxMessages?: number; queueId?: number | null; model?: string } = {}) {
    return tenant(t.db, desk.companyId)
      .insertInto('prompts', {
        name: `Padaria ${Math.random().toString(36).slice(2, 7)}`,
        prompt: PROMPT,
        model: values.model ?? 'gpt-4o-mini',
        maxTokens: 120,
        temperature: 0.4,
        maxMessages: values.maxMessages ?? 10,
        apiKeyEnc: t.deps.secrets.seal(values.apiKey ?? 'sk-test-padaria'),
        queueId: values.queueId === undefined ? (desk.queues[0]?.id ?? null) : values.queueId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  }
  async function addIntegration(desk: Desk, values: Record<string, unknown>) {
    return tenant(t.db, desk.companyId)
      .insertInto('queueIntegrations', { name: `Bot ${Math.random().toString(36).slice(2, 7)}`, type: 'webhook', ...values } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
  }
  const linkConnection = (desk: Desk, links: { promptId?: number | null; integrationId?: number | null }) =>
    tenant(t.db, desk.companyId).updateTable('whatsapps').set({ ...links, ...bumpVersion() }).where('whatsapps.id', '=', desk.connectionId).execute();
  const ticketRow = async (desk: Desk, from: string) => (await desk.ticketOf(from))!;
  const notesOf = (desk: Desk, ticketId: number) => tenant(t.db, desk.companyId).selectFrom('ticketNotes').select('ticketNotes.note').where('ticketNotes.ticketId', '=', ticketId).execute();

  it("a connection's prompt answers with the latest messages, then hands over by a tool call", async () => {
    // The prompt's queue (Humanos) is where the hand-over goes; the connection has no queue menu.
    const desk = await setupDesk(t, { queues: [{ name: 'Humanos' }] });
    await tenant(t.db, desk.companyId).deleteFrom('whatsappQueues').where('whatsappQueues.whatsappId', '=', desk.connectionId).execute();
    const { id: promptId } = await addPrompt(desk, { maxMessages: 3, apiKey: 'sk-own-key-1' });
    await linkConnection(desk, { promptId });
    let n = 0;
    fake.on(/^\/v1\/chat\/completions$/, (req) => {
      const last = (req.json as { messages: { content: string }[] }).messages.at(-1)!.content;
      if (/atendente/i.test(last)) return { json: completion({ toolCall: { name: 'transfer_to_human', args: { reason: 'pediu um atendente', message: 'Claro! Um atendente já vai falar com você.' } } }) };
      return { json: completion({ text: `Resposta ${++n}`, promptTokens: 40, completionTokens: 7 }) };
    });
    const from = newNumber();
    const since = fake.requests.length;
    await desk.say(from, 'Oi', { name: 'Bia Souza' });
    await settle();
    await desk.say(from, 'Vocês têm pão de queijo?');
    await settle();
    await desk.say(from, 'E bolo de cenoura?');
    await settle();
    expect(await bodies(desk, from)).toEqual(['Resposta 1', 'Resposta 2', 'Resposta 3']);

    const calls = chatRequests(since);
    expect(calls).toHaveLength(3);
    const third = calls[2]!.json as { model: string; messages: { role: string; content: string }[]; max_completion_tokens: number; temperature: number; tools: { function: { name: string } }[] };
    // The system prompt, then the LATEST three messages (not the oldest), in order.
    expect(third.messages[0]).toMatchObject({ role: 'system' });
    expect(third.messages[0]!.content).toContain(PROMPT);
    expect(third.messages.slice(1)).toEqual([
      { role: 'user', content: 'Vocês têm pão de queijo?' },
      { role: 'assistant', content: 'Resposta 2' },
      { role: 'user', content: 'E bolo de cenoura?' },
    ]);
    expect(third).toMatchObject({ model: 'gpt-4o-mini', max_completion_tokens: 120, temperature: 0.4 });
    expect(third.tools.map((x) => x.function.name)).toEqual(['transfer_to_human']);
    expect(calls[0]!.headers.authorization).toBe('Bearer sk-own-key-1');

    const before = await ticketRow(desk, from);
    expect(before).toMatchObject({ status: 'pending', assistantState: 'active', promptId, useIntegration: 1 });
    // The company's CRM hears transfers: the hand-over is one (the ticket goes to the prompt's queue).
    const crm: { event: string; data: { id: number; queueId: number | null } }[] = [];
    fake.on(/^\/crm$/, (req) => {
      crm.push(req.json as (typeof crm)[number]);
      return { json: { ok: true } };
    });
    const hook = await t.request('POST', '/webhooks', { token: desk.adminSession.token, body: { name: 'CRM', url: `${fake.url}/crm`, events: ['ticket.transferred'] } });
    expect(hook.status).toBe(201);
    await desk.say(from, 'Quero falar com um atendente');
    await settle();
    expect((await bodies(desk, from)).at(-1)).toBe('Claro! Um atendente já vai falar com você.');
    const after = await ticketRow(desk, from);
    expect(after).toMatchObject({ status: 'pending', userId: null, queueId: desk.queues[0]!.id, assistantState: 'off', chatbot: 0 });
    await t.deps.webhooks.idle();
    expect(crm.map((d) => [d.event, d.data.id, d.data.queueId])).toEqual([['ticket.transferred', after.id, desk.queues[0]!.id]]);
    expect((await notesOf(desk, after.id)).map((x) => x.note).join()).toMatch(/handed the conversation over: pediu um atendente/);
    // People have it now: the AI is not asked again.
    const quiet = fake.requests.length;
    await desk.say(from, 'Alô?');
    await settle();
    expect(chatRequests(quiet)).toHaveLength(0);
    expect(await bodies(desk, from)).toHaveLength(4);
    // Tokens counted for the company.
    const usage = await tenant(t.db, desk.companyId).selectFrom('assistantUsage').selectAll('assistantUsage').execute();
    expect(usage).toEqual([expect.objectContaining({ model: 'gpt-4o-mini', requests: 4, promptTokens: 3 * 40 + 50, completionTokens: 3 * 7 + 10 })]);
    const report = await t.request('GET', '/prompt/usage?days=7', { token: desk.adminSession.token });
    expect(report.status).toBe(200);
    expect(report.body).toEqual({
      usage: [{ day: new Date().toISOString().slice(0, 10), model: 'gpt-4o-mini', requests: 4, promptTokens: 170, completionTokens: 31 }],
      totals: { requests: 4, promptTokens: 170, completionTokens: 31 },
    });
    expect((await t.request('GET', '/prompt/usage', { token: desk.userSession.token })).status).toBe(403);
    expect((await t.request('GET', '/prompt/usage?days=0', { token: desk.adminSession.token })).body.error).toBe('ERR_VALIDATION');
    // Another company spent nothing.
    const other = await setupDesk(t);
    expect((await t.request('GET', '/prompt/usage', { token: other.adminSession.token })).body).toEqual({ usage: [], totals: { requests: 0, promptTokens: 0, completionTokens: 0 } });
  });

  it('two queues with prompts of different keys on one connection each use their own; reasoning models get no temperature', async () => {
    const desk = await setupDesk(t, { queues: [{ name: 'Pães' }, { name: 'Bolos' }] });
    const a = await addPrompt(desk, { apiKey: 'sk-key-paes', queueId: desk.queues[0]!.id });
    const b = await addPrompt(desk, { apiKey: 'sk-key-bolos', queueId: desk.queues[1]!.id, model: 'o4-mini' });
    const q = tenant(t.db, desk.companyId);
    await q.updateTable('queues').set({ promptId: a.id, ...bumpVersion() }).where('queues.id', '=', desk.queues[0]!.id).execute();
    await q.updateTable('queues').set({ promptId: b.id, ...bumpVersion() }).where('queues.id', '=', desk.queues[1]!.id).execute();
    const keys: string[] = [];
    fake.on(/^\/v1\/chat\/completions$/, (req) => {
      keys.push(String(req.headers.authorization));
      return { json: completion({ text: `${(req.json as { model: string }).model}: ${'temperature' in (req.json as object) ? 'with' : 'without'} temperature` }) };
    });
    const ana = newNumber();
    const caio = newNumber();
    await desk.say(ana, 'Oi');
    await desk.say(caio, 'Oi');
    await desk.say(ana, '1');
    await desk.say(caio, '2');
    await settle();
    // The queue menu first, then each queue's AI.
    expect((await bodies(desk, ana)).at(-1)).toBe('gpt-4o-mini: with temperature');
    expect((await bodies(desk, caio)).at(-1)).toBe('o4-mini: without temperature');
    expect(keys.sort()).toEqual(['Bearer sk-key-bolos', 'Bearer sk-key-paes']);
  });

  it('a voice note is transcribed before the model reads it', async () => {
    const desk = await setupDesk(t);
    const { id: promptId } = await addPrompt(desk, { queueId: null });
    await linkConnection(desk, { promptId });
    fake.on(/^\/v1\/audio\/transcriptions$/, () => ({ json: { text: 'Quero encomendar um bolo' } }));
    let seen = '';
    fake.on(/^\/v1\/chat\/completions$/, (req) => {
      seen = (req.json as { messages: { content: string }[] }).messages.at(-1)!.content;
      return { json: completion({ text: 'Para quando?' }) };
    });
    const from = newNumber();
    await desk.say(from, '', { mediaType: 'audio' });
    await settle();
    expect(seen).toBe('(voice note) Quero encomendar um bolo');
    expect(await bodies(desk, from)).toEqual(['Para quando?']);
    const transcripts = await tenant(t.db, desk.companyId).selectFrom('messageTranscripts').select('messageTranscripts.text').execute();
    expect(transcripts.map((x) => x.text)).toContain('Quero encomendar um bolo');
  });

  it('a slow AI leaves the ticket to people with a note, and an accepted ticket gets no late answer', async () => {
    const desk = await setupDesk(t);
    const { id: promptId } = await addPrompt(desk, { queueId: null });
    await linkConnection(desk, { promptId });
    fake.on(/^\/v1\/chat\/completions$/, () => ({ json: completion({ text: 'tarde demais' }), delayMs: 3_000 }));
    const slow = newNumber();
    await desk.say(slow, 'Oi?');
    await settle();
    expect(await bodies(desk, slow)).toEqual([]);
    const ticket = await ticketRow(desk, slow);
    expect(ticket).toMatchObject({ status: 'pending', userId: null, assistantState: 'off' });
    expect((await notesOf(desk, ticket.id)).map((x) => x.note).join()).toMatch(/could not answer \(no answer within 2 s\)/);

    // An agent accepts while the AI thinks: its answer is dropped.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    fake.on(/^\/v1\/chat\/completions$/, async () => {
      await held;
      return { json: completion({ text: 'não deveria sair' }) };
    });
    const taken = newNumber();
    await desk.say(taken, 'Bom dia');
    while (!fake.requests.some((r) => r.path === '/v1/chat/completions' && JSON.stringify(r.json).includes('Bom dia'))) await new Promise((r) => setTimeout(r, 10));
    const row = await ticketRow(desk, taken);
    const accepted = await t.request('PUT', `/tickets/${row.id}`, { token: desk.adminSession.token, body: { status: 'open', userId: desk.admin.id } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    release();
    await settle();
    expect((await bodies(desk, taken)).filter((b) => b === 'não deveria sair')).toEqual([]);
  });

  it('Typebot: choices as numbered options, an unknown answer, the restart and finish keywords', async () => {
    const desk = await setupDesk(t, { queues: [{ name: 'Atendimento' }] });
    const { id: integrationId } = await addIntegration(desk, {
      type: 'typebot', urlN8n: `${fake.url}/tb`, typebotSlug: 'padaria-bot', typebotDelayMessage: 0, typebotExpires: 30,
      typebotKeywordFinish: '#sair', typebotKeywordRestart: '#reiniciar', typebotRestartMessage: 'Vamos recomeçar!', typebotUnknownMessage: 'Não entendi, escolha um número.',
    });
    await linkConnection(desk, { integrationId });
    await tenant(t.db, desk.companyId).deleteFrom('whatsappQueues').where('whatsappQueues.whatsappId', '=', desk.connectionId).execute();
    let sessions = 0;
    const starts: FakeRequest[] = [];
    const continues: FakeRequest[] = [];
    fake.on(/^\/tb\/api\/v1\/typebots\/padaria-bot\/startChat$/, (req) => {
      starts.push(req);
      return {
        json: {
          sessionId: `s${++sessions}`,
          messages: [{ type: 'text', content: { type: 'markdown', markdown: 'Olá, **{{name}}**!'.replace('{{name}}', (req.json as { prefilledVariables: { name: string } }).prefilledVariables.name) } }],
          input: { type: 'choice input', items: [{ id: 'a', content: 'Pães' }, { id: 'b', content: 'Bolos' }] },
        },
      };
    });
    fake.on(/^\/tb\/api\/v1\/sessions\/[^/]+\/continueChat$/, (req) => {
      continues.push(req);
      const text = (req.json as { message: { text: string } }).message.text;
      return { json: { messages: [{ type: 'text', content: { type: 'markdown', markdown: `Você escolheu ${text}.` } }], input: { type: 'text input' } } };
    });
    const from = newNumber();
    await desk.say(from, 'Oi', { name: 'Rita' });
    await settle();
    expect(await bodies(desk, from)).toEqual(['Olá, *Rita*!', '*1* - Pães\n*2* - Bolos']);
    expect((starts[0]!.json as { prefilledVariables: Record<string, string> }).prefilledVariables).toMatchObject({ name: 'Rita', number: from });
    await desk.say(from, '7');
    await settle();
    expect((await bodies(desk, from)).slice(2)).toEqual(['Não entendi, escolha um número.', '*1* - Pães\n*2* - Bolos']);
    expect(continues).toHaveLength(0);
    await desk.say(from, '2');
    await settle();
    expect((await bodies(desk, from)).at(-1)).toBe('Você escolheu Bolos.');
    expect(continues.map((r) => r.path)).toEqual(['/tb/api/v1/sessions/s1/continueChat']);
    await desk.say(from, '#reiniciar');
    await settle();
    expect((await bodies(desk, from)).at(-1)).toBe('Vamos recomeçar!');
    await desk.say(from, 'De novo');
    await settle();
    expect(starts).toHaveLength(2);
    await desk.say(from, '#SAIR');
    await settle();
    expect(await ticketRow(desk, from)).toMatchObject({ status: 'pending', assistantState: 'off', integrationId });
    const count = fake.requests.length;
    await desk.say(from, 'Oi de novo');
    await settle();
    expect(fake.requests.length).toBe(count);
  });

  it('a webhook gets a signed delivery, is retried with the same id after a 500, and its reply is sent once', async () => {
    const desk = await setupDesk(t);
    const secret = 'whsec-test-123';
    const { id: integrationId } = await addIntegration(desk, { type: 'n8n', urlN8n: `${fake.url}/hook`, signingSecretEnc: t.deps.secrets.seal(secret) });
    await linkConnection(desk, { integrationId });
    const seen: { delivery: string; valid: boolean; payload: Record<string, unknown> }[] = [];
    fake.on(/^\/hook$/, (req) => {
      const ts = Number(req.headers['x-zapdesk-timestamp']);
      const valid = req.headers['x-zapdesk-signature'] === signPayload(secret, ts, req.raw.toString('utf8'));
      seen.push({ delivery: String(req.headers['x-zapdesk-delivery']), valid, payload: req.json as Record<string, unknown> });
      if (seen.length === 1) return { status: 500, json: { error: 'busy' } };
      return { json: { reply: `Recebido: ${(req.json as { message: { body: string } }).message.body}` } };
    });
    const from = newNumber();
    await desk.say(from, 'Pedido 42', { name: 'Leo' });
    await settle();
    expect(seen).toHaveLength(2);
    expect(seen.every((s) => s.valid)).toBe(true);
    expect(seen[0]!.delivery).toBe(seen[1]!.delivery);
    const ticket = await ticketRow(desk, from);
    expect(seen[1]!.payload).toMatchObject({
      event: 'message.received',
      company: { id: desk.companyId },
      connection: { id: desk.connectionId },
      ticket: { id: ticket.id, uuid: ticket.uuid },
      contact: { number: from, name: 'Leo' },
      message: { body: 'Pedido 42', fromMe: false },
    });
    expect(await bodies(desk, from)).toEqual(['Recebido: Pedido 42']);

    // A photo: its link opens without signing in, and only with the server's signature.
    await desk.say(from, 'comprovante', { mediaType: 'image', fileName: 'comprovante.png' });
    await settle();
    const link = new URL(String((seen.at(-1)!.payload.message as { mediaUrl: string }).mediaUrl));
    expect(link.origin).toBe('http://zapdesk.test');
    const file = await t.app.request(`${link.pathname}${link.search}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    // sig is the last parameter: one more character is another signature.
    const forged = await t.app.request(`${link.pathname}${link.search}x`);
    expect(forged.status).toBe(401);
  });

  it('Dialogflow: a signed token, detectIntent per contact in the language, the fulfilment sent, an ending intent hands over', async () => {
    const desk = await setupDesk(t);
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const account = { type: 'service_account', project_id: 'padaria-agent', client_email: 'bot@padaria-agent.iam.gserviceaccount.com', private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), token_uri: `${fake.url}/token` };
    const { id: integrationId } = await addIntegration(desk, { type: 'dialogflow', language: 'pt-BR', jsonContent: t.deps.secrets.seal(JSON.stringify(account)) });
    await linkConnection(desk, { integrationId });
    fake.on(/^\/token$/, (req) => {
      const assertion = new URLSearchParams(req.raw.toString('utf8')).get('assertion') ?? '';
      const [head, claims, sig] = assertion.split('.');
      const ok = createVerify('RSA-SHA256').update(`${head}.${claims}`).verify(createPublicKey(publicKey.export({ type: 'spki', format: 'pem' })), Buffer.from(sig ?? '', 'base64url'));
      const iss = JSON.parse(Buffer.from(claims ?? '', 'base64url').toString('utf8')).iss;
      return ok && iss === account.client_email ? { json: { access_token: 'ya29.fake', expires_in: 3600 } } : { status: 401, json: { error: 'invalid_grant' } };
    });
    const detects: FakeRequest[] = [];
    fake.on(/^\/v2\/projects\/padaria-agent\/agent\/sessions\/[^/]+:detectIntent$/, (req) => {
      detects.push(req);
      const text = (req.json as { queryInput: { text: { text: string } } }).queryInput.text.text;
      if (text.includes('tchau')) return { json: { queryResult: { fulfillmentMessages: [{ text: { text: ['Até mais!'] } }], intent: { displayName: 'despedida', endInteraction: true } } } };
      return { json: { queryResult: { fulfillmentText: 'Abrimos às 7h.', intent: { displayName: 'horario' } } } };
    });
    const from = newNumber();
    await desk.say(from, 'Que horas abre?');
    await settle();
    await desk.say(from, 'ok, tchau');
    await settle();
    expect(await bodies(desk, from)).toEqual(['Abrimos às 7h.', 'Até mais!']);
    expect(detects.every((r) => r.headers.authorization === 'Bearer ya29.fake')).toBe(true);
    expect(detects[0]!.json).toEqual({ queryInput: { text: { text: 'Que horas abre?', languageCode: 'pt-BR' } } });
    expect(new Set(detects.map((r) => r.path)).size).toBe(1);
    expect(await ticketRow(desk, from)).toMatchObject({ assistantState: 'off', status: 'pending' });

    // The dialog's test button: pasted credentials, or the stored ones of the integration.
    const token = desk.adminSession.token;
    const tried = await t.request('POST', '/queueIntegration/testSession', { token, body: { projectName: 'padaria', jsonContent: JSON.stringify(account), language: 'pt-BR' } });
    expect(tried.status).toBe(200);
    expect(tried.body).toEqual({ ok: true, reply: 'Abrimos às 7h.', handsOver: false });
    expect((detects.at(-1)!.json as { queryInput: { text: { text: string } } }).queryInput.text.text).toBe('Olá');
    const stored = await t.request('POST', '/queueIntegration/testSession', { token, body: { jsonContent: '••••', language: 'en', integrationId } });
    expect(stored.body).toMatchObject({ ok: true });
    const bad = await t.request('POST', '/queueIntegration/testSession', { token, body: { jsonContent: '{"nope":1}' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    expect((await t.request('POST', '/queueIntegration/testSession', { token, body: '{oops' })).body.error).toBe('ERR_INVALID_JSON');
    expect((await t.request('POST', '/queueIntegration/testSession', { token: desk.userSession.token, body: { jsonContent: JSON.stringify(account) } })).status).toBe(403);
    const stranger = await setupDesk(t);
    const foreign = await t.request('POST', '/queueIntegration/testSession', { token: stranger.adminSession.token, body: { integrationId } });
    expect(foreign.status).toBe(404);
  });

  it("a flow's openai node talks until the model hands over, then the flow goes on to its ticket node; a failing one takes its failed path", async () => {
    const desk = await setupDesk(t, { queues: [{ name: 'Sales' }, { name: 'Support' }] });
    const token = desk.adminSession.token;
    const support = desk.queues[1]!.id;
    const node = (nodeId: string, type: string, data: Record<string, unknown>) => ({ id: nodeId, type, position: { x: 0, y: 0 }, data });
    const edge = (source: string, target: string, sourceHandle: string | null = null) => ({ source, target, sourceHandle, type: 'buttonedge' });
    const id = (x: string) => x.padEnd(30, '0');
    const graph = (apiKey: string) => ({
      nodes: [
        node('1', 'start', { label: 'Inicio do fluxo' }),
        node(id('hi'), 'message', { label: 'Olá! Vou te passar para nossa IA.' }),
        node(id('ai'), 'openai', { typebotIntegration: { name: 'Padaria IA', apiKey, prompt: PROMPT, maxTokens: 80, temperature: 0.5, maxMessages: 5 } }),
        node(id('ticket'), 'ticket', { queue: { id: support, name: 'Support' } }),
        node(id('sorry'), 'message', { label: 'Nossa IA está fora do ar; um atendente já responde.' }),
      ],
      connections: [edge('1', id('hi'), 'a'), edge(id('hi'), id('ai')), edge(id('ai'), id('ticket')), edge(id('ai'), id('sorry'), 'failed'), edge(id('sorry'), id('ticket'))],
    });
    const flowId = (await t.request('POST', '/flowbuilder', { token, body: { name: 'IA' } })).body.id as number;
    expect((await t.request('POST', '/flowbuilder/flow', { token, body: { idFlow: flowId, ...graph('sk-flow-key') } })).status).toBe(200);
    // The node's key is sealed: no answer and no stored row shows it; saving the graph back as the
    // editor got it (key masked) keeps the key.
    const got = await t.request('GET', `/flowbuilder/flow/${flowId}`, { token });
    expect(JSON.stringify(got.body)).not.toContain('sk-flow-key');
    expect(JSON.stringify(got.body)).toContain('••••-key');
    const raw = await tenant(t.db, desk.companyId).selectFrom('flowVersions').select('flowVersions.graph').where('flowVersions.flowId', '=', flowId).execute();
    expect(raw.map((r) => r.graph).join()).not.toContain('sk-flow-key');
    const { nodes, connections } = got.body.flow.flow;
    expect((await t.request('POST', '/flowbuilder/flow', { token, body: { idFlow: flowId, nodes, connections } })).status).toBe(200);
    expect((await t.request('POST', '/flowcampaign', { token, body: { name: 'IA', flowId, whatsappId: desk.connectionId, phrase: 'quero comprar' } })).status).toBe(201);
    const asked: string[] = [];
    fake.on(/^\/v1\/chat\/completions$/, (req) => {
      const last = (req.json as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role === 'user').at(-1)!.content;
      asked.push(`${req.headers.authorization} ${last}`);
      if (/humano/.test(last)) return { json: completion({ text: 'Vou chamar alguém.', toolCall: { name: 'transfer_to_human', args: { reason: 'quer um humano' } } }) };
      return { json: completion({ text: `IA: ${last}` }) };
    });
    const from = newNumber();
    await desk.say(from, 'Quero comprar');
    await settle();
    expect(await bodies(desk, from)).toEqual(['Olá! Vou te passar para nossa IA.', 'IA: Quero comprar']);
    await desk.say(from, 'Tem pão?');
    await settle();
    expect((await bodies(desk, from)).at(-1)).toBe('IA: Tem pão?');
    expect(asked.every((a) => a.startsWith('Bearer sk-flow-key'))).toBe(true);
    // The company's CRM hears transfers: the flow's ticket node moving the customer is one.
    const crm: { event: string; data: { id: number; queueId: number | null } }[] = [];
    fake.on(/^\/flow-crm$/, (req) => {
      crm.push(req.json as (typeof crm)[number]);
      return { json: { ok: true } };
    });
    expect((await t.request('POST', '/webhooks', { token, body: { name: 'CRM', url: `${fake.url}/flow-crm`, events: ['ticket.transferred'] } })).status).toBe(201);
    await desk.say(from, 'quero um humano');
    await settle();
    expect((await bodies(desk, from)).at(-1)).toBe('Vou chamar alguém.');
    // The flow went on from the openai node: its ticket node put the customer in Support.
    const moved = await ticketRow(desk, from);
    expect(moved).toMatchObject({ status: 'pending', queueId: support, flowId: null, chatbot: 0 });
    await t.deps.webhooks.idle();
    expect(crm.map((d) => [d.event, d.data.id, d.data.queueId])).toEqual([['ticket.transferred', moved.id, support]]);

    // A model that refuses (401): the step's failed path runs, and the agents read why.
    fake.on(/^\/v1\/chat\/completions$/, () => ({ status: 401, json: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } }));
    const other = newNumber();
    await desk.say(other, 'quero comprar');
    await settle();
    expect(await bodies(desk, other)).toEqual(['Olá! Vou te passar para nossa IA.', 'Nossa IA está fora do ar; um atendente já responde.']);
    const failed = await ticketRow(desk, other);
    expect(failed).toMatchObject({ queueId: support, flowId: null });
    expect((await notesOf(desk, failed.id)).map((x) => x.note).join()).toMatch(/Padaria IA.*could not answer/);
  });

  it("a flow's openai node with a voice answers in voice notes, its voice key sealed; a refused voice answers in text", async () => {
    const desk = await setupDesk(t);
    const token = desk.adminSession.token;
    const node = (nodeId: string, type: string, data: Record<string, unknown>) => ({ id: nodeId, type, position: { x: 0, y: 0 }, data });
    const ai = 'voz'.padEnd(30, '0');
    const integration = { name: 'Padaria Voz', apiKey: 'sk-voice-flow', prompt: PROMPT, voice: 'pt-BR-FranciscaNeural', voiceKey: 'azure-key-0042', voiceRegion: 'brazilsouth' };
    const flowId = (await t.request('POST', '/flowbuilder', { token, body: { name: 'Voz' } })).body.id as number;
    const graph = { nodes: [node('1', 'start', {}), node(ai, 'openai', { typebotIntegration: integration })], connections: [{ source: '1', target: ai, sourceHandle: 'a' }] };
    expect((await t.request('POST', '/flowbuilder/flow', { token, body: { idFlow: flowId, ...graph } })).status).toBe(200);
    // Neither key is in an answer or in the stored graph; saved back masked, both are kept.
    const got = await t.request('GET', `/flowbuilder/flow/${flowId}`, { token });
    expect(JSON.stringify(got.body)).not.toMatch(/azure-key-0042|sk-voice-flow/);
    expect(got.body.flow.flow.nodes[1].data.typebotIntegration).toMatchObject({ voiceKey: '••••0042', voice: 'pt-BR-FranciscaNeural', voiceRegion: 'brazilsouth' });
    const raw = await tenant(t.db, desk.companyId).selectFrom('flowVersions').select('flowVersions.graph').where('flowVersions.flowId', '=', flowId).execute();
    expect(raw.map((r) => r.graph).join()).not.toContain('azure-key-0042');
    expect((await t.request('POST', '/flowbuilder/flow', { token, body: { idFlow: flowId, nodes: got.body.flow.flow.nodes, connections: got.body.flow.flow.connections } })).status).toBe(200);
    expect((await t.request('POST', '/flowcampaign', { token, body: { name: 'Voz', flowId, whatsappId: desk.connectionId, phrase: 'quero ouvir' } })).status).toBe(201);

    fake.on(/^\/v1\/chat\/completions$/, () => ({ json: completion({ text: 'Temos pão de queijo & café <quentinho>.' }) }));
    const spoken: FakeRequest[] = [];
    fake.on(/^\/tts\/cognitiveservices\/v1$/, (req) => {
      spoken.push(req);
      return { body: generateMedia('audio').data, headers: { 'content-type': 'audio/ogg' } };
    });
    const from = newNumber();
    await desk.say(from, 'Quero ouvir');
    await settle();
    // One voice note, no text: the customer hears the answer.
    const sent = await desk.outbox(from);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ mediaType: 'audio', body: '', fileName: 'voice.ogg' });
    expect(spoken).toHaveLength(1);
    expect(spoken[0]!.headers).toMatchObject({ 'ocp-apim-subscription-key': 'azure-key-0042', 'x-microsoft-outputformat': 'ogg-24khz-16bit-mono-opus' });
    const ssml = spoken[0]!.raw.toString('utf8');
    expect(ssml).toContain('<voice name="pt-BR-FranciscaNeural">Temos pão de queijo &amp; café &lt;quentinho&gt;.</voice>');
    expect(ssml).toContain('xml:lang="pt-BR"');
    // The agents' chat has the note, and what it says is its transcript (the model reads it next turn).
    const ticket = await ticketRow(desk, from);
    const note = await tenant(t.db, desk.companyId)
      .selectFrom('messages')
      .innerJoin('messageTranscripts', 'messageTranscripts.messageId', 'messages.id')
      .select(['messages.mediaType', 'messages.fromMe', 'messageTranscripts.text'])
      .where('messages.ticketId', '=', ticket.id)
      .where('messages.fromMe', '=', 1)
      .executeTakeFirstOrThrow();
    expect(note).toEqual({ mediaType: 'audio', fromMe: 1, text: 'Temos pão de queijo & café <quentinho>.' });
    const asked: string[] = [];
    fake.on(/^\/v1\/chat\/completions$/, (req) => {
      asked.push(...(req.json as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role === 'assistant').map((m) => m.content));
      return { json: completion({ text: 'Até já!' }) };
    });

    // The voice service refuses (a wrong key): the answer still reaches the customer, as text.
    fake.on(/^\/tts\/cognitiveservices\/v1$/, () => ({ status: 401, body: 'Unauthorized' }));
    await desk.say(from, 'Obrigada');
    await settle();
    expect(asked).toContain('(voice note) Temos pão de queijo & café <quentinho>.');
    expect((await desk.outbox(from)).map((m) => [m.mediaType ?? 'text', m.body])).toEqual([
      ['audio', ''],
      ['text', 'Até já!'],
    ]);
  });

  it("a connection's flowbuilder integration starts its flow on the first message, once per ticket", async () => {
    const desk = await setupDesk(t, { queues: [{ name: 'Sales' }, { name: 'Support' }] });
    const token = desk.adminSession.token;
    const node = (nodeId: string, type: string, data: Record<string, unknown>) => ({ id: nodeId, type, position: { x: 0, y: 0 }, data });
    const hi = 'hi'.padEnd(30, '0');
    const flowId = (await t.request('POST', '/flowbuilder', { token, body: { name: 'Boas-vindas' } })).body.id as number;
    const saved = await t.request('POST', '/flowbuilder/flow', {
      token,
      body: { idFlow: flowId, nodes: [node('1', 'start', {}), node(hi, 'message', { label: 'Bem-vindo à padaria!' })], connections: [{ source: '1', target: hi, sourceHandle: 'a' }] },
    });
    expect(saved.status).toBe(200);
    const created = await t.request('POST', '/queueIntegration', { token, body: { type: 'flowbuilder', name: 'Boas-vindas', flowId } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await linkConnection(desk, { integrationId: created.body.id });
    const from = newNumber();
    await desk.say(from, 'Oi');
    await settle();
    expect(await bodies(desk, from)).toEqual(['Bem-vindo à padaria!']);
    expect(await ticketRow(desk, from)).toMatchObject({ assistantState: 'flow', integrationId: created.body.id });
    // The flow ended: the next message goes on to the queue menu, and the flow does not start again.
    await desk.say(from, 'Oi de novo');
    await settle();
    const after = await bodies(desk, from);
    expect(after).toHaveLength(2);
    expect(after[1]).toContain('Welcome! Choose a department:');
  });
});
