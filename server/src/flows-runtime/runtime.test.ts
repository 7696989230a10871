// The flow runtime through the simulator on a fresh database of each dialect: a phrase starts a flow
// that sends, asks a menu, re-prompts an invalid answer, follows the chosen option's edge, waits an
// interval (the timer job run at a chosen moment) and hands over to a queue; redelivered messages,
// timers fired by two passes at once, an agent's stop, versions, inactive campaigns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { tenant } from '../db/tenant.ts';
import { write } from '../db/write.ts';
import { bumpVersion } from '../sync/version.ts';
import { takeInboundForFlow } from './runtime.ts';
import { waitFor } from '../channels/testing.ts';
import { fireDueFlowTimers, startFlowTimerJob } from './timers.ts';

type Desk = Awaited<ReturnType<typeof setupDesk>>;
const id = (s: string) => s.padEnd(30, '0');
const MSG = id('msg');
const MENU = id('menu');
const WAIT = id('wait');
const TICKET = id('ticket');
const BYE = id('bye');
const inSeconds = (s: number) => new Date(Date.now() + s * 1000);
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f5f1d40000000049454e44ae426082', 'hex');

/** start → message → menu; 1 → interval 2 s → ticket (queue); 2 → farewell. */
function supportFlow(queueId: number, farewell = 'Até logo!') {
  const node = (nodeId: string, type: string, data: Record<string, unknown>) => ({ id: nodeId, type, position: { x: 0, y: 0 }, data });
  const edge = (source: string, target: string, sourceHandle: string | null = null) => ({ source, target, sourceHandle, type: 'buttonedge' });
  return {
    nodes: [
      node('1', 'start', { label: 'Inicio do fluxo' }),
      node(MSG, 'message', { label: 'Olá {{firstName}}! Bem-vinda.' }),
      node(MENU, 'menu', { message: 'Como podemos ajudar?', arrayOption: [{ number: 1, value: 'Suporte' }, { number: 2, value: 'Nada' }] }),
      node(WAIT, 'interval', { sec: 2 }),
      node(TICKET, 'ticket', { queue: { id: queueId, name: 'Support' } }),
      node(BYE, 'message', { label: farewell }),
    ],
    connections: [edge('1', MSG, 'a'), edge(MSG, MENU), edge(MENU, WAIT, 'a1'), edge(MENU, BYE, 'a2'), edge(WAIT, TICKET)],
  };
}
const MENU_TEXT = 'Como podemos ajudar?\n\n1 - Suporte\n2 - Nada';
const INVALID = 'Opção inválida. Responda com o número de uma das opções abaixo.';

describe.each(DIALECTS)('flow runtime on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  /** A desk with two queues (so the queue menu would answer), a saved flow and its phrase campaign. */
  async function setup(campaign: Record<string, unknown> = {}) {
    const desk = await setupDesk(t, { queues: [{ name: 'Sales' }, { name: 'Support' }] });
    const token = desk.adminSession.token;
    const support = desk.queues[1]!.id;
    const flowId = (await t.request('POST', '/flowbuilder', { token, body: { name: 'Atendimento' } })).body.id as number;
    const saved = await t.request('POST', '/flowbuilder/flow', { token, body: { idFlow: flowId, ...supportFlow(support) } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const created = await t.request('POST', '/flowcampaign', { token, body: { name: 'Ajuda', flowId, whatsappId: desk.connectionId, phrase: 'quero ajuda', ...campaign } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { desk, token, support, flowId, campaignId: created.body.id as number };
  }
  const bodies = async (desk: Desk, from: string) => (await desk.outbox(from)).map((m) => m.body);
  const ticketApi = async (desk: Desk, from: string) => {
    const ticket = await desk.ticketOf(from);
    return (await t.request('GET', `/tickets/${ticket!.id}`, { token: desk.adminSession.token })).body;
  };
  const runsOf = async (desk: Desk, ticketId: number) =>
    tenant(t.db, desk.companyId).selectFrom('flowRuns').selectAll('flowRuns').where('flowRuns.ticketId', '=', ticketId).orderBy('flowRuns.id').execute();

  it('a phrase starts the flow: message, menu, re-prompt, chosen edge, interval, hand-over to the queue', async () => {
    const { desk, support, flowId } = await setup();
    const from = newNumber();
    // Case, accents and punctuation do not matter; the queue menu stays silent while the flow runs.
    await desk.say(from, '  QUERO AJUDA! ', { name: 'Ana Lima' });
    expect(await bodies(desk, from)).toEqual(['Olá Ana! Bem-vinda.', MENU_TEXT]);
    expect(await ticketApi(desk, from)).toMatchObject({ status: 'pending', flowId, flowNodeId: MENU, queueId: null });

    await desk.say(from, 'banana');
    expect((await bodies(desk, from)).slice(2)).toEqual([INVALID, MENU_TEXT]);

    await desk.say(from, 'Suporte');
    // The interval waits: nothing sent, a timer row pending, the ticket at the interval node.
    expect(await bodies(desk, from)).toHaveLength(4);
    const ticket = (await desk.ticketOf(from))!;
    expect(await ticketApi(desk, from)).toMatchObject({ flowId, flowNodeId: WAIT });
    const [run] = await runsOf(desk, ticket.id);
    expect(run).toMatchObject({ status: 'running', nodeId: WAIT });
    expect(run!.deadline).not.toBeNull();
    const timers = await tenant(t.db, desk.companyId).selectFrom('flowTimers').selectAll('flowTimers').where('flowTimers.runId', '=', run!.id).execute();
    expect(timers.map((x) => x.status)).toEqual(['pending']);

    // Messages during the wait are not answers, and the queue menu does not answer them either.
    await desk.say(from, 'alô?');
    expect(await bodies(desk, from)).toHaveLength(4);
    // Not yet due: nothing fires.
    expect((await fireDueFlowTimers(t.deps, { now: new Date() })).fired).toBe(0);
    expect((await fireDueFlowTimers(t.deps, { now: inSeconds(3) })).fired).toBe(1);

    const after = await ticketApi(desk, from);
    expect(after).toMatchObject({ status: 'pending', queueId: support, userId: null, chatbot: false, flowId: null, flowNodeId: null });
    expect((await runsOf(desk, ticket.id))[0]).toMatchObject({ status: 'finished', endReason: 'handover', nodeId: TICKET });
    // The attendants of Support see it waiting.
    const list = await t.request('GET', '/tickets?status=pending', { token: desk.userSession.token });
    expect(list.body.tickets.map((x: { id: number }) => x.id)).not.toContain(ticket.id);
    const supportList = await t.request('GET', '/tickets?status=pending', { token: desk.outsiderSession.token });
    expect(supportList.body.tickets.map((x: { id: number }) => x.id)).toContain(ticket.id);
    // After the hand-over the bot stays quiet.
    await desk.say(from, 'obrigada');
    expect(await bodies(desk, from)).toHaveLength(4);
  });

  it('the other option follows its own edge and ends the flow; the contained phrase does not match in exact mode', async () => {
    const { desk } = await setup();
    const other = newNumber();
    await desk.say(other, 'oi, quero ajuda por favor');
    // No flow: the queue menu answers as usual.
    expect((await bodies(desk, other))[0]).toContain('*1* - Sales');

    const from = newNumber();
    await desk.say(from, 'Quero ajuda');
    await desk.say(from, '2');
    expect(await bodies(desk, from)).toEqual([expect.stringMatching(/^Olá .*Bem-vinda\.$/), MENU_TEXT, 'Até logo!']);
    const ticket = (await desk.ticketOf(from))!;
    expect((await runsOf(desk, ticket.id))[0]).toMatchObject({ status: 'finished', endReason: 'completed' });
    expect(ticket).toMatchObject({ flowId: null, queueId: null });
  });

  it('a redelivered message (same WhatsApp id) never advances the flow twice', async () => {
    const { desk } = await setup();
    const from = newNumber();
    await desk.say(from, 'quero ajuda');
    const wid = await desk.say(from, 'xyz');
    expect(await bodies(desk, from)).toHaveLength(4);
    await desk.say(from, 'xyz', { id: wid });
    await desk.say(from, 'xyz', { id: wid });
    expect(await bodies(desk, from)).toHaveLength(4);
    const ticket = (await desk.ticketOf(from))!;
    const [run] = await runsOf(desk, ticket.id);
    expect(JSON.parse(run!.state).awaiting).toMatchObject({ kind: 'menu', invalidCount: 1 });

    // And below the message store: the same message handed to the runtime twice is taken once.
    const message = await tenant(t.db, desk.companyId).selectFrom('messages').select('messages.id').where('messages.wid', '=', wid).executeTakeFirstOrThrow();
    const hand = () => write(t.deps, (tx) => takeInboundForFlow(tx, { ticket, connectionId: desk.connectionId, messageId: message.id, body: '1', now: new Date() }));
    expect(await hand()).toBe(true);
    expect(await hand()).toBe(true);
    expect(await bodies(desk, from)).toHaveLength(4);
    expect(JSON.parse((await runsOf(desk, ticket.id))[0]!.state).awaiting).toMatchObject({ invalidCount: 1 });
  });

  it('a due timer fires once even when two passes run at the same time', async () => {
    const { desk, support } = await setup();
    const from = newNumber();
    await desk.say(from, 'quero ajuda');
    await desk.say(from, '1');
    const at = inSeconds(5);
    const [a, b] = await Promise.all([fireDueFlowTimers(t.deps, { now: at }), fireDueFlowTimers(t.deps, { now: at })]);
    expect(a.fired + b.fired).toBe(1);
    expect((await fireDueFlowTimers(t.deps, { now: inSeconds(60) })).fired).toBe(0);
    const ticket = (await desk.ticketOf(from))!;
    expect(ticket).toMatchObject({ queueId: support, status: 'pending' });
    const timers = await tenant(t.db, desk.companyId).selectFrom('flowTimers').innerJoin('flowRuns', 'flowRuns.id', 'flowTimers.runId').select('flowTimers.status').where('flowRuns.ticketId', '=', ticket.id).execute();
    expect(timers.map((x) => x.status)).toEqual(['fired']);
    // One tracking row for the queue move.
    const tracks = await tenant(t.db, desk.companyId).selectFrom('ticketTrackings').select('ticketTrackings.queueId').where('ticketTrackings.ticketId', '=', ticket.id).execute();
    expect(tracks.filter((x) => x.queueId === support)).toHaveLength(1);
  });

  it('the timer job wakes when a wait comes due, not at its next tick', async () => {
    const { desk, support } = await setup();
    const from = newNumber();
    await desk.say(from, 'quero ajuda');
    await desk.say(from, '1');
    const ticket = (await desk.ticketOf(from))!;
    // A tick far longer than the 2 s interval: only the timer's due time can wake the job in time.
    const job = startFlowTimerJob(t.deps, { tickMs: 60_000 });
    try {
      await waitFor(() => desk.ticketOf(from), (x) => x?.queueId === support, 15_000);
    } finally {
      await job.stop();
    }
    const [timer] = await tenant(t.db, desk.companyId).selectFrom('flowTimers').innerJoin('flowRuns', 'flowRuns.id', 'flowTimers.runId').select(['flowTimers.dueAt', 'flowTimers.firedAt']).where('flowRuns.ticketId', '=', ticket.id).execute();
    expect(Date.parse(timer!.firedAt!)).toBeGreaterThanOrEqual(Date.parse(timer!.dueAt));
    expect(Date.parse(timer!.firedAt!) - Date.parse(timer!.dueAt)).toBeLessThan(5_000);
  });

  it('an agent stops the flow: its timer is cancelled, the ticket leaves the flow, the queue menu takes over', async () => {
    const { desk } = await setup();
    const from = newNumber();
    await desk.say(from, 'quero ajuda');
    await desk.say(from, '1');
    const ticket = (await desk.ticketOf(from))!;
    // An attendant who cannot see the ticket cannot stop it.
    const other = await setupDesk(t);
    expect((await t.request('POST', `/tickets/${ticket.id}/flow/stop`, { token: other.adminSession.token })).status).toBe(404);
    expect((await t.request('POST', `/tickets/${ticket.id}/flow/stop`)).status).toBe(401);

    const stopped = await t.request('POST', `/tickets/${ticket.id}/flow/stop`, { token: desk.adminSession.token });
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ stopped: true, ticket: { id: ticket.id, flowId: null, flowNodeId: null } });
    expect((await runsOf(desk, ticket.id))[0]).toMatchObject({ status: 'stopped', endReason: 'stopped', deadline: null });
    expect((await fireDueFlowTimers(t.deps, { now: inSeconds(60) })).fired).toBe(0);
    expect((await t.request('POST', `/tickets/${ticket.id}/flow/stop`, { token: desk.adminSession.token })).body.stopped).toBe(false);
    const sent = (await bodies(desk, from)).length;
    await desk.say(from, 'e agora?');
    const out = await bodies(desk, from);
    expect(out).toHaveLength(sent + 1);
    expect(out.at(-1)).toContain('*1* - Sales');
  });

  it('an agent accepting the ticket ends its flow; its timer never sends', async () => {
    const { desk } = await setup();
    const from = newNumber();
    await desk.say(from, 'quero ajuda');
    await desk.say(from, '1');
    const ticket = (await desk.ticketOf(from))!;
    const taken = await t.request('PUT', `/tickets/${ticket.id}`, { token: desk.adminSession.token, body: { status: 'open', userId: desk.admin.id } });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(taken.body).toMatchObject({ status: 'open', flowId: null, flowNodeId: null });
    expect((await runsOf(desk, ticket.id))[0]).toMatchObject({ status: 'stopped', endReason: 'stopped' });
    const sent = (await bodies(desk, from)).length;
    expect((await fireDueFlowTimers(t.deps, { now: inSeconds(5) })).fired).toBe(0);
    expect(await bodies(desk, from)).toHaveLength(sent);
    expect(await desk.ticketOf(from)).toMatchObject({ status: 'open', queueId: null, flowId: null });
    // Given back to pending, the ticket does not resume the old flow: the queue menu answers.
    const back = await t.request('PUT', `/tickets/${ticket.id}`, { token: desk.adminSession.token, body: { status: 'pending', userId: null } });
    expect(back.body, JSON.stringify(back.body)).toMatchObject({ status: 'pending', userId: null });
    await desk.say(from, '2');
    const out = await bodies(desk, from);
    expect(out.slice(sent)).not.toContain('Até logo!');
    expect(out.at(-1)).toContain('*1* - Sales');
  });

  it('a conversation keeps the version it started on; an inactive flow or campaign starts nothing', async () => {
    const { desk, token, flowId, support, campaignId } = await setup();
    const from = newNumber();
    await desk.say(from, 'quero ajuda');
    // Saved while the conversation runs: the new version says goodbye differently.
    const saved = await t.request('POST', '/flowbuilder/flow', { token, body: { idFlow: flowId, ...supportFlow(support, 'Tchau da versão 2') } });
    expect(saved.body.flow.versionNo).toBe(2);
    await desk.say(from, '2');
    expect((await bodies(desk, from)).at(-1)).toBe('Até logo!');
    // A new conversation starts on version 2.
    const next = newNumber();
    await desk.say(next, 'quero ajuda');
    await desk.say(next, '2');
    expect((await bodies(desk, next)).at(-1)).toBe('Tchau da versão 2');

    // An inactive flow starts nothing either.
    expect((await t.request('PUT', '/flowbuilder', { token, body: { flowId, name: 'Atendimento', active: false } })).body).toMatchObject({ active: false });
    const fourth = newNumber();
    await desk.say(fourth, 'quero ajuda');
    expect((await bodies(desk, fourth))[0]).toContain('*1* - Sales');
    await t.request('PUT', '/flowbuilder', { token, body: { flowId, name: 'Atendimento', active: true } });

    await t.request('PUT', '/flowcampaign', { token, body: { id: campaignId, name: 'Ajuda', flowId, phrase: 'quero ajuda', status: false } });
    const third = newNumber();
    await desk.say(third, 'quero ajuda');
    const out = await bodies(desk, third);
    expect(out).toHaveLength(1);
    expect(out[0]).toContain('*1* - Sales');
    expect((await desk.ticketOf(third))!.flowId).toBeNull();
  });

  it('a campaign turned on, or created, answers the very next message where nothing else would', async () => {
    // No queues, no greeting: only a phrase campaign could answer, so the pipeline asks whether one is active.
    const desk = await setupDesk(t);
    const token = desk.adminSession.token;
    const flowId = (await t.request('POST', '/flowbuilder', { token, body: { name: 'Boas-vindas' } })).body.id as number;
    const node = (nodeId: string, type: string, data: Record<string, unknown>) => ({ id: nodeId, type, position: { x: 0, y: 0 }, data });
    const saved = await t.request('POST', '/flowbuilder/flow', {
      token,
      body: { idFlow: flowId, nodes: [node('1', 'start', { label: 'Inicio' }), node(MSG, 'message', { label: 'Olá! Em que posso ajudar?' })], connections: [{ source: '1', target: MSG, sourceHandle: 'a', type: 'buttonedge' }] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const created = await t.request('POST', '/flowcampaign', { token, body: { name: 'Ajuda', flowId, whatsappId: desk.connectionId, phrase: 'quero ajuda', status: false } });
    const campaignId = created.body.id as number;
    const first = newNumber();
    await desk.say(first, 'quero ajuda');
    expect(await bodies(desk, first)).toEqual([]);
    expect((await t.request('PUT', '/flowcampaign', { token, body: { id: campaignId, name: 'Ajuda', flowId, phrase: 'quero ajuda', status: true } })).status).toBe(200);
    const second = newNumber();
    await desk.say(second, 'quero ajuda');
    expect(await bodies(desk, second)).toEqual(['Olá! Em que posso ajudar?']);
    // Off again, then a new campaign with another phrase: the next message starts it.
    await t.request('PUT', '/flowcampaign', { token, body: { id: campaignId, name: 'Ajuda', flowId, phrase: 'quero ajuda', status: false } });
    const third = newNumber();
    await desk.say(third, 'quero ajuda');
    expect(await bodies(desk, third)).toEqual([]);
    expect((await t.request('POST', '/flowcampaign', { token, body: { name: 'Novo', flowId, phrase: 'quero comprar' } })).status).toBe(201);
    const fourth = newNumber();
    await desk.say(fourth, 'quero comprar');
    expect(await bodies(desk, fourth)).toEqual(['Olá! Em que posso ajudar?']);
  });

  it('contains mode matches the phrase as whole words; another connection’s campaign does not start', async () => {
    const { desk, token, flowId } = await setup({ phrase: 'orçamento', matchMode: 'contains' });
    const from = newNumber();
    await desk.say(from, 'Oi, queria um ORCAMENTO por favor');
    expect(await bodies(desk, from)).toEqual([expect.stringMatching(/^Olá /), MENU_TEXT]);
    const other = await t.request('POST', '/whatsapp', { token, body: { name: 'Outra linha', provider: 'simulator' } });
    expect(other.status).toBe(201);
    await t.request('POST', '/flowcampaign', { token, body: { name: 'Outra', flowId, whatsappId: other.body.id, phrase: 'só na outra' } });
    const next = newNumber();
    await desk.say(next, 'só na outra');
    expect((await bodies(desk, next))[0]).toContain('*1* - Sales');
    // Another company's customers never start this company's flows.
    const otherCompany = await setupDesk(t, { queues: [{ name: 'Sales' }, { name: 'Support' }] });
    const stranger = newNumber();
    await otherCompany.say(stranger, 'um orçamento');
    expect((await otherCompany.outbox(stranger)).map((m) => m.body)).toEqual([expect.stringContaining('*1* - Sales')]);
    expect(await tenant(t.db, otherCompany.companyId).selectFrom('flowRuns').select('flowRuns.id').execute()).toEqual([]);
  });

  it('a menu with a timeout path: an answer cancels its timer; silence takes the timeout path once', async () => {
    const desk = await setupDesk(t);
    const token = desk.adminSession.token;
    const [ASKMENU, LATE, OK] = [id('askmenu'), id('late'), id('ok')];
    const flowId = (await t.request('POST', '/flowbuilder', { token, body: { name: 'Tempo' } })).body.id as number;
    const saved = await t.request('POST', '/flowbuilder/flow', {
      token,
      body: {
        idFlow: flowId,
        nodes: [
          { id: '1', type: 'start', position: { x: 0, y: 0 }, data: {} },
          { id: ASKMENU, type: 'menu', position: { x: 1, y: 0 }, data: { message: 'Confirma?', arrayOption: [{ number: 1, value: 'Sim' }], timeoutSec: 60 } },
          { id: OK, type: 'message', position: { x: 2, y: 0 }, data: { label: 'Confirmado' } },
          { id: LATE, type: 'message', position: { x: 2, y: 1 }, data: { label: 'Tempo esgotado' } },
        ],
        connections: [{ source: '1', target: ASKMENU }, { source: ASKMENU, target: OK, sourceHandle: 'a1' }, { source: ASKMENU, target: LATE, sourceHandle: 'timeout' }],
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await t.request('POST', '/flowcampaign', { token, body: { name: 'Tempo', flowId, phrase: 'confirmar' } });
    const timersOf = async (from: string) => {
      const ticket = (await desk.ticketOf(from))!;
      return (await tenant(t.db, desk.companyId).selectFrom('flowTimers').innerJoin('flowRuns', 'flowRuns.id', 'flowTimers.runId').select('flowTimers.status').where('flowRuns.ticketId', '=', ticket.id).orderBy('flowTimers.id').execute()).map((x) => x.status);
    };

    const quick = newNumber();
    await desk.say(quick, 'confirmar');
    await desk.say(quick, 'sim');
    expect((await desk.outbox(quick)).map((m) => m.body)).toEqual(['Confirma?\n\n1 - Sim', 'Confirmado']);
    expect(await timersOf(quick)).toEqual(['cancelled']);

    const slow = newNumber();
    await desk.say(slow, 'confirmar');
    expect((await fireDueFlowTimers(t.deps, { now: inSeconds(30) })).fired).toBe(0);
    expect((await fireDueFlowTimers(t.deps, { now: inSeconds(61) })).fired).toBe(1);
    expect((await fireDueFlowTimers(t.deps, { now: inSeconds(120) })).fired).toBe(0);
    expect((await desk.outbox(slow)).map((m) => m.body)).toEqual(['Confirma?\n\n1 - Sim', 'Tempo esgotado']);
    expect(await timersOf(slow)).toEqual(['fired']);
    expect(await timersOf(quick)).toEqual(['cancelled']);
  });
  it('sends an uploaded image, asks a question whose answer fills a later text, runs a content block with its wait', async () => {
    const desk = await setupDesk(t, { queues: [{ name: 'Sales' }, { name: 'Support' }] });
    const token = desk.adminSession.token;
    const form = new FormData();
    form.set('medias', new File([new Uint8Array(PNG)], 'cardapio.png', { type: 'image/png' }));
    const uploaded = await t.app.request('/flowbuilder/img', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const url = (await uploaded.json()) as string;
    const [IMG, ASK, BLOCK] = [id('img'), id('ask'), id('block')];
    const flowId = (await t.request('POST', '/flowbuilder', { token, body: { name: 'Cardápio' } })).body.id as number;
    const edge = (source: string, target: string, sourceHandle: string | null = null) => ({ source, target, sourceHandle, type: 'buttonedge' });
    const saved = await t.request('POST', '/flowbuilder/flow', {
      token,
      body: {
        idFlow: flowId,
        nodes: [
          { id: '1', type: 'start', position: { x: 0, y: 0 }, data: {} },
          { id: IMG, type: 'img', position: { x: 1, y: 0 }, data: { url, caption: 'Nosso cardápio' } },
          { id: ASK, type: 'question', position: { x: 2, y: 0 }, data: { typebotIntegration: { message: 'Qual prato?', answerKey: 'prato' } } },
          {
            id: BLOCK,
            type: 'singleBlock',
            position: { x: 3, y: 0 },
            data: { seq: ['message1', 'interval2', 'message3'], elements: [{ number: 'message1', value: 'Anotado: {{prato}}' }, { number: 'interval2', value: '1' }, { number: 'message3', value: 'Pedido enviado!' }] },
          },
        ],
        connections: [edge('1', IMG), edge(IMG, ASK), edge(ASK, BLOCK)],
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await t.request('POST', '/flowcampaign', { token, body: { name: 'Menu', flowId, phrase: 'cardapio' } });
    const from = newNumber();
    await desk.say(from, 'Cardápio');
    const first = await desk.outbox(from);
    expect(first.map((m) => [m.body, m.mediaType ?? null])).toEqual([['Nosso cardápio', 'image'], ['Qual prato?', null]]);
    expect(first[0]!.fileName).toBe('cardapio.png');
    // The image is the ticket's own copy, served with the ticket's rules.
    const ticket = (await desk.ticketOf(from))!;
    const image = await tenant(t.db, desk.companyId).selectFrom('messages').select('messages.mediaUrl').where('messages.ticketId', '=', ticket.id).where('messages.mediaType', '=', 'image').executeTakeFirstOrThrow();
    expect(image.mediaUrl).toMatch(new RegExp(`^${desk.companyId}/tickets/${ticket.id}/`));

    await desk.say(from, '  Feijoada ');
    expect((await desk.outbox(from)).map((m) => m.body).slice(2)).toEqual(['Anotado: Feijoada']);
    expect(await desk.ticketOf(from)).toMatchObject({ flowNodeId: BLOCK });
    expect((await fireDueFlowTimers(t.deps, { now: inSeconds(2) })).fired).toBe(1);
    expect((await desk.outbox(from)).map((m) => m.body).slice(3)).toEqual(['Pedido enviado!']);
    const [run] = await runsOf(desk, ticket.id);
    expect(run).toMatchObject({ status: 'finished', endReason: 'completed' });
    expect(JSON.parse(run!.state).variables).toEqual({ prato: 'Feijoada' });
  });

  it('a typebot or openai node takes its not-configured path when the plan lacks the feature', async () => {
    const desk = await setupDesk(t);
    const token = desk.adminSession.token;
    // A plan without AI prompts (the assistants' own tests run these nodes: assistants/assistants.test.ts).
    await t.db.updateTable('plans').set({ useOpenAi: 0, ...bumpVersion() }).where('plans.id', '=', desk.plan.id).execute();
    const [AI, FALLBACK] = [id('ai'), id('fallback')];
    const flowId = (await t.request('POST', '/flowbuilder', { token, body: { name: 'IA' } })).body.id as number;
    const saved = await t.request('POST', '/flowbuilder/flow', {
      token,
      body: {
        idFlow: flowId,
        nodes: [
          { id: '1', type: 'start', position: { x: 0, y: 0 }, data: {} },
          { id: AI, type: 'openai', position: { x: 1, y: 0 }, data: { typebotIntegration: { name: 'Bot', apiKey: 'sk-x', prompt: 'Você é um assistente' } } },
          { id: FALLBACK, type: 'message', position: { x: 2, y: 0 }, data: { label: 'Um atendente vai responder.' } },
        ],
        connections: [{ source: '1', target: AI }, { source: AI, target: FALLBACK, sourceHandle: 'notConfigured' }],
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await t.request('POST', '/flowcampaign', { token, body: { name: 'IA', flowId, phrase: 'robo' } });
    const from = newNumber();
    await desk.say(from, 'robô');
    expect((await desk.outbox(from)).map((m) => m.body)).toEqual(['Um atendente vai responder.']);
    expect(t.log.lines.some((l) => l.msg === 'flow error' && l.data?.code === 'not_configured')).toBe(true);
  });
  it('deleting a flow ends its conversations; a plan without campaigns starts no flow', async () => {
    const { desk, token, flowId } = await setup();
    const from = newNumber();
    await desk.say(from, 'quero ajuda');
    await desk.say(from, '1');
    const ticket = (await desk.ticketOf(from))!;
    expect(ticket.flowId).toBe(flowId);
    expect((await t.request('DELETE', `/flowbuilder/${flowId}`, { token })).status).toBe(200);
    expect(await ticketApi(desk, from)).toMatchObject({ flowId: null, flowNodeId: null, status: 'pending' });
    expect(await runsOf(desk, ticket.id)).toEqual([]);
    expect((await fireDueFlowTimers(t.deps, { now: inSeconds(60) })).fired).toBe(0);

    const again = await setup();
    await t.db.updateTable('plans').set({ useCampaigns: 0, ...bumpVersion() }).where('id', '=', again.desk.plan.id).execute();
    const next = newNumber();
    await again.desk.say(next, 'quero ajuda');
    const out = await bodies(again.desk, next);
    expect(out).toEqual([expect.stringContaining('*1* - Sales')]);
  });
  it('an agent accepting while the timer fires: both settle, in one order or the other, no error', async () => {
    const { desk, support } = await setup();
    const froms = [newNumber(), newNumber(), newNumber()];
    for (const from of froms) {
      await desk.say(from, 'quero ajuda');
      await desk.say(from, '1');
    }
    const tickets = await Promise.all(froms.map(async (from) => (await desk.ticketOf(from))!));
    const accepts = tickets.map((ticket) => t.request('PUT', `/tickets/${ticket.id}`, { token: desk.adminSession.token, body: { status: 'open', userId: desk.admin.id } }));
    const [pass, ...answers] = await Promise.all([fireDueFlowTimers(t.deps, { now: inSeconds(5) }), ...accepts]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(pass.fired + pass.lost).toBeLessThanOrEqual(3);
    for (const ticket of tickets) {
      const after = (await tenant(t.db, desk.companyId).selectFrom('tickets').selectAll('tickets').where('tickets.id', '=', ticket.id).executeTakeFirstOrThrow());
      // Accepted by the agent either way; the flow ended (handed over to Support first, or stopped).
      expect(after).toMatchObject({ status: 'open', userId: desk.admin.id, flowId: null });
      expect([null, support]).toContain(after.queueId);
      expect((await runsOf(desk, ticket.id))[0]!.status).not.toBe('running');
    }
    expect(t.log.lines.filter((l) => l.msg === 'flow timer failed')).toEqual([]);
  });
});
