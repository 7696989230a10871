// GET /tickets/{id}/flow on a fresh database of each dialect: what agents see of a ticket's flow run
// (flow, node, what it waits for, the answers) while it runs and once it ended; who may read it; and
// the answers of a ticket's earlier runs carried into its next run (a condition skips the question
// already answered), but not into another customer's ticket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { tenant } from '../../db/tenant.ts';
import { bumpVersion } from '../../sync/version.ts';

const id = (s: string) => s.padEnd(30, '0');
const [HAS, ASK, THANKS, KNOWN] = [id('has'), id('ask'), id('thanks'), id('known')];
const node = (nodeId: string, type: string, data: Record<string, unknown>) => ({ id: nodeId, type, position: { x: 0, y: 0 }, data });
const edge = (source: string, target: string, sourceHandle: string | null = null) => ({ source, target, sourceHandle, type: 'buttonedge' });

/** start → condition (email exists?) — true → "Usando…"; false → question (email) → "Obrigado…". */
const signupFlow = {
  nodes: [
    node('1', 'start', {}),
    node(HAS, 'condition', { key: 'email', condition: 'exists', value: '' }),
    node(ASK, 'question', { typebotIntegration: { message: 'Qual é o seu e-mail?', answerKey: 'email' } }),
    node(THANKS, 'message', { label: 'Obrigado, {{email}}!' }),
    node(KNOWN, 'message', { label: 'Usando o seu e-mail {{email}}.' }),
  ],
  connections: [edge('1', HAS), edge(HAS, KNOWN, 'true'), edge(HAS, ASK, 'false'), edge(ASK, THANKS)],
};

describe.each(DIALECTS)('a ticket’s flow run on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  it('shows the run, its node and answers to those who may see the ticket; a new run starts from the earlier answers', async () => {
    const desk = await setupDesk(t, { queues: [{ name: 'Sales' }, { name: 'Support' }] });
    const token = desk.adminSession.token;
    const flowId = (await t.request('POST', '/flowbuilder', { token, body: { name: 'Cadastro' } })).body.id as number;
    expect((await t.request('POST', '/flowbuilder/flow', { token, body: { idFlow: flowId, ...signupFlow } })).status).toBe(200);
    expect((await t.request('POST', '/flowcampaign', { token, body: { name: 'Cadastro', flowId, phrase: 'cadastro' } })).status).toBe(201);
    const flowOf = async (ticketId: number, as = token) => t.request('GET', `/tickets/${ticketId}/flow`, { token: as });

    // A ticket no flow ever ran in.
    const quiet = newNumber();
    await desk.say(quiet, 'bom dia');
    const quietTicket = (await desk.ticketOf(quiet))!;
    expect((await flowOf(quietTicket.id)).body).toEqual({ run: null });

    const from = newNumber();
    await desk.say(from, 'Cadastro');
    expect((await desk.outbox(from)).map((m) => m.body)).toEqual(['Qual é o seu e-mail?']);
    const ticket = (await desk.ticketOf(from))!;
    const waiting = await flowOf(ticket.id);
    expect(waiting.status).toBe(200);
    expect(waiting.body.run).toMatchObject({
      flowId,
      flowName: 'Cadastro',
      versionNo: 1,
      status: 'running',
      endReason: null,
      nodeId: ASK,
      nodeType: 'question',
      nodeText: 'Qual é o seu e-mail?',
      awaiting: 'question',
      variables: {},
      endedAt: null,
    });

    // Who may read it: the company's people who see the ticket; not another company, not anonymous.
    const other = await setupDesk(t);
    expect((await flowOf(ticket.id, other.adminSession.token)).status).toBe(404);
    expect((await t.request('GET', `/tickets/${ticket.id}/flow`)).status).toBe(401);
    expect((await t.request('GET', '/tickets/abc/flow', { token })).status).toBe(404);

    await desk.say(from, ' ana@exemplo.com ');
    expect((await desk.outbox(from)).map((m) => m.body).at(-1)).toBe('Obrigado, ana@exemplo.com!');
    const ended = (await flowOf(ticket.id)).body.run;
    expect(ended).toMatchObject({ status: 'finished', endReason: 'completed', nodeId: THANKS, nodeType: 'message', awaiting: null, deadline: null, variables: { email: 'ana@exemplo.com' } });
    expect(ended.endedAt).not.toBeNull();

    // The same ticket runs the flow again: the answer is there, the question is not asked twice.
    await desk.say(from, 'cadastro');
    expect((await desk.outbox(from)).map((m) => m.body).at(-1)).toBe('Usando o seu e-mail ana@exemplo.com.');
    const again = (await flowOf(ticket.id)).body.run;
    expect(again.id).not.toBe(ended.id);
    expect(again).toMatchObject({ status: 'finished', nodeId: KNOWN, variables: { email: 'ana@exemplo.com' } });

    // Another customer's ticket starts from nothing.
    const stranger = newNumber();
    await desk.say(stranger, 'cadastro');
    expect((await desk.outbox(stranger)).map((m) => m.body)).toEqual(['Qual é o seu e-mail?']);
    const strangerTicket = (await desk.ticketOf(stranger))!;
    expect((await flowOf(strangerTicket.id)).body.run).toMatchObject({ status: 'running', variables: {} });

    // In the Sales queue: its attendant reads the run, the Support attendant is refused as for the ticket.
    await tenant(t.db, desk.companyId).updateTable('tickets').set({ queueId: desk.queues[0]!.id, ...bumpVersion() }).where('tickets.id', '=', ticket.id).execute();
    expect((await flowOf(ticket.id, desk.userSession.token)).body.run).toMatchObject({ id: again.id });
    expect((await flowOf(ticket.id, desk.outsiderSession.token)).status).toBe(403);
    expect((await t.request('GET', `/tickets/${ticket.id}`, { token: desk.outsiderSession.token })).status).toBe(403);
  });
});
