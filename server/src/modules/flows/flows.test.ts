// Flows and phrase campaigns over REST (spec/03 §5, §7) on a fresh database of each dialect: every
// call's contract, versions on save, validation issues, uploads, permissions, plan flag and tenant
// isolation. The runtime (phrase → flow → messages, timers, stop) is tested in flows-runtime/.
import { flowSchema, flowWithGraphSchema, phraseCampaignSchema } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenant } from '../../db/tenant.ts';
import { inSlices } from '../../db/slices.ts';
import { clearEndedRunsSlice } from './service.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedConnection, seedContact, seedQueue, seedTenant } from '../../../test/seed.ts';
import { sliceBesideAnotherWrite } from '../../../test/slices.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f5f1d40000000049454e44ae426082', 'hex');
const OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(60)]);

/** A graph as the editor saves it: start → message → menu (1 → ticket, 2 → message). */
function graph(queueId: number, text = 'Olá {{firstName}}!') {
  const node = (id: string, type: string, data: Record<string, unknown>, x = 0) => ({ id, type, position: { x, y: 100 }, data, width: 200, selected: false });
  return {
    nodes: [
      node('1', 'start', { label: 'Inicio do fluxo' }),
      node('msg00000000000000000000000001', 'message', { label: text }, 260),
      node('menu0000000000000000000000001', 'menu', { message: 'Escolha:', arrayOption: [{ number: 1, value: 'Vendas' }, { number: 2, value: 'Sair' }] }, 520),
      node('tick0000000000000000000000001', 'ticket', { queue: { id: queueId, name: 'Vendas' } }, 780),
      node('bye00000000000000000000000001', 'message', { label: 'Até logo' }, 780),
    ],
    connections: [
      { source: '1', target: 'msg00000000000000000000000001', sourceHandle: 'a', type: 'buttonedge', id: 'e1' },
      { source: 'msg00000000000000000000000001', target: 'menu0000000000000000000000001', sourceHandle: null, type: 'buttonedge', id: 'e2' },
      { source: 'menu0000000000000000000000001', target: 'tick0000000000000000000000001', sourceHandle: 'a1', type: 'buttonedge', id: 'e3' },
      { source: 'menu0000000000000000000000001', target: 'bye00000000000000000000000001', sourceHandle: 'a2', type: 'buttonedge', id: 'e4' },
    ],
  };
}

describe.each(DIALECTS)('flows REST on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  async function setup(plan: { useCampaigns?: 0 | 1 } = {}) {
    const tn = await seedTenant(t, plan);
    const queue = await seedQueue(t, tn.company.id, { name: 'Vendas' });
    const connection = await seedConnection(t, tn.company.id);
    const token = tn.adminSession.token;
    const req = (method: string, url: string, body?: unknown) => t.request(method, url, { token, body });
    return { ...tn, queue, connection, token, req };
  }

  function upload(token: string, route: string, files: { bytes: Buffer; name: string; type?: string }[], field = 'medias') {
    const form = new FormData();
    for (const f of files) form.append(field, new File([new Uint8Array(f.bytes)], f.name, f.type ? { type: f.type } : {}));
    form.set('body', 'x');
    form.set('fromMe', 'true');
    return t.app.request(`/flowbuilder/${route}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  }

  it('creates, lists, searches, renames, saves versions, reads, duplicates and deletes a flow', async () => {
    const { req, queue, company } = await setup();
    const created = await req('POST', '/flowbuilder', { name: 'Atendimento' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: 'Atendimento', active: true, versionNo: 0, version: 1 });
    // The answers are sync's wire shapes, exactly.
    expect(flowSchema.strict().parse(created.body)).toEqual(created.body);
    const id = created.body.id as number;
    await req('POST', '/flowbuilder', { name: 'Boas vindas' });
    expect((await req('GET', '/flowbuilder')).body.flows.map((f: { name: string }) => f.name)).toEqual(['Atendimento', 'Boas vindas']);
    expect((await req('GET', '/flowbuilder?searchParam=BOAS')).body.flows.map((f: { name: string }) => f.name)).toEqual(['Boas vindas']);

    const renamed = await req('PUT', '/flowbuilder', { flowId: id, name: 'Atendimento 24h' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: 'Atendimento 24h', version: 2 });

    // A new flow has no graph yet (spec/03 §7: "may be null").
    expect((await req('GET', `/flowbuilder/flow/${id}`)).body).toMatchObject({ flow: { id, name: 'Atendimento 24h', flow: null } });

    const saved = await req('POST', '/flowbuilder/flow', { idFlow: id, ...graph(queue.id) });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.flow).toMatchObject({ id, versionNo: 1 });
    expect(saved.body.warnings).toEqual([]);
    const read = await req('GET', `/flowbuilder/flow/${id}`);
    expect(flowWithGraphSchema.strict().parse(read.body.flow)).toEqual(read.body.flow);
    expect(read.body.flow.flow.nodes.map((n: { id: string }) => n.id)).toEqual(graph(queue.id).nodes.map((n) => n.id));
    expect(read.body.flow.flow.connections).toHaveLength(4);
    // React Flow's own fields survive the save.
    expect(read.body.flow.flow.nodes[1]).toMatchObject({ width: 200, selected: false, data: { label: 'Olá {{firstName}}!' } });

    // Each save is a new immutable version.
    const again = await req('POST', '/flowbuilder/flow', { idFlow: String(id), ...graph(queue.id, 'Oi de novo') });
    expect(again.body.flow.versionNo).toBe(2);
    const versions = await tenant(t.db, company.id).selectFrom('flowVersions').select(['flowVersions.versionNo', 'flowVersions.graph']).where('flowVersions.flowId', '=', id).orderBy('flowVersions.versionNo').execute();
    expect(versions.map((v) => v.versionNo)).toEqual([1, 2]);
    expect(versions[0]!.graph).toContain('Olá {{firstName}}!');
    expect(versions[1]!.graph).toContain('Oi de novo');

    // A warning does not block a save: an unreachable node.
    const stray = graph(queue.id);
    stray.nodes.push({ id: 'lost0000000000000000000000001', type: 'message', position: { x: 0, y: 400 }, data: { label: 'lost' }, width: 200, selected: false });
    const warned = await req('POST', '/flowbuilder/flow', { idFlow: id, ...stray });
    expect(warned.status).toBe(200);
    expect(warned.body.warnings).toContainEqual(expect.objectContaining({ code: 'unreachable', nodeId: 'lost0000000000000000000000001' }));

    // A node that could not run is refused, nothing saved: a queue that is another company's or
    // none, an integration likewise, an assistant's numbers and voice outside what a prompt accepts.
    const other = await setup();
    const otherIntegration = await tenant(t.db, other.company.id).insertInto('queueIntegrations', { name: 'Theirs', type: 'webhook', urlN8n: 'https://hooks.example.test/x' } as never).returning('id').executeTakeFirstOrThrow();
    for (const [queueId, path] of [[other.queue.id, 'nodes.3.data.queueId'], [999_999, 'nodes.3.data.queueId']] as const) {
      const refused = await req('POST', '/flowbuilder/flow', { idFlow: id, ...graph(queueId) });
      expect([refused.status, refused.body.error, refused.body.issues]).toEqual([400, 'ERR_VALIDATION', [{ path, message: `No queue ${queueId} in this company` }]]);
    }
    const assistant = graph(queue.id);
    assistant.nodes.push(
      { id: 'ai000000000000000000000000001', type: 'openai', position: { x: 0, y: 600 }, data: { typebotIntegration: { name: 'IA', apiKey: 'sk-x', prompt: 'Ajude o cliente com pedidos.', voice: 'Robot', temperature: 7, maxTokens: -5, maxMessages: 0, queueId: other.queue.id } }, width: 200, selected: false },
      { id: 'tb000000000000000000000000001', type: 'typebot', position: { x: 0, y: 800 }, data: { typebotIntegration: { id: otherIntegration.id, name: 'Theirs' } }, width: 200, selected: false },
    );
    const badNodes = await req('POST', '/flowbuilder/flow', { idFlow: id, ...assistant });
    expect(badNodes.status).toBe(400);
    expect(badNodes.body.issues.map((i: { path: string }) => i.path)).toEqual([
      'nodes.5.data.typebotIntegration.temperature', 'nodes.5.data.typebotIntegration.maxTokens', 'nodes.5.data.typebotIntegration.maxMessages',
      'nodes.5.data.typebotIntegration.voice', 'nodes.5.data.typebotIntegration.queueId', 'nodes.6.data.typebotIntegration.id',
    ]);
    expect((await req('GET', `/flowbuilder/flow/${id}`)).body.flow.versionNo).toBe(3);

    // The copy is named in its author's language (English by default).
    const copyIn = async (lang: string | null) => {
      if (lang) expect((await req('POST', `/users/set-language/${lang}`)).status).toBe(200);
      const copy = await req('POST', '/flowbuilder/duplicate', { flowId: id });
      expect(copy.status).toBe(201);
      return copy.body;
    };
    expect((await copyIn(null)).name).toBe('Atendimento 24h - copy');
    expect((await copyIn('es')).name).toBe('Atendimento 24h - copia');
    const dup = await copyIn('pt');
    expect(dup).toMatchObject({ name: 'Atendimento 24h - cópia', versionNo: 1 });
    expect((await req('GET', `/flowbuilder/flow/${dup.id}`)).body.flow.flow.nodes).toHaveLength(6);

    const deleted = await req('DELETE', `/flowbuilder/${id}`);
    expect(deleted.status).toBe(200);
    expect((await req('GET', `/flowbuilder/flow/${id}`)).status).toBe(404);
    expect((await req('GET', '/flowbuilder')).body.flows.map((f: { id: number }) => f.id)).not.toContain(id);
    // The copy stands alone.
    expect((await req('GET', `/flowbuilder/flow/${dup.id}`)).status).toBe(200);
  });

  it('clears a deleted flow’s ended runs a slice at a time, other writes in between; its running run goes with the delete', async () => {
    const { req, queue, company } = await setup();
    const other = await setup();
    const flowId = (await req('POST', '/flowbuilder', { name: 'Boas-vindas' })).body.id as number;
    expect((await req('POST', '/flowbuilder/flow', { idFlow: flowId, ...graph(queue.id) })).status).toBe(200);
    const keptFlow = (await req('POST', '/flowbuilder', { name: 'Outro' })).body.id as number;
    expect((await req('POST', '/flowbuilder/flow', { idFlow: keptFlow, ...graph(queue.id) })).status).toBe(200);
    const db = tenant(t.db, company.id);
    const versionOf = async (id: number) => (await db.selectFrom('flowVersions').select('flowVersions.id').where('flowVersions.flowId', '=', id).executeTakeFirstOrThrow()).id;
    const run = async (flow: number, status: 'running' | 'finished') => {
      const contact = await seedContact(t, company.id);
      const ticket = await db.insertInto('tickets', { uuid: crypto.randomUUID(), contactId: contact.id, status: 'pending', flowId: status === 'running' ? flow : null }).returning('tickets.id').executeTakeFirstOrThrow();
      await db.insertInto('flowRuns', { ticketId: ticket.id, flowId: flow, flowVersionId: await versionOf(flow), status, state: '{}' }).execute();
      return ticket.id;
    };
    for (let i = 0; i < 5; i++) await run(flowId, 'finished');
    const running = await run(flowId, 'running');
    await run(keptFlow, 'finished');
    const runs = async (flow: number) => (await db.selectFrom('flowRuns').select('flowRuns.status').where('flowRuns.flowId', '=', flow).execute()).map((r) => r.status).sort();

    // Asked for by another company, the flow's id matches none of its runs.
    await inSlices(t.deps, (tx, limit) => clearEndedRunsSlice(tx, other.company.id, flowId, limit), 2);
    expect(await runs(flowId)).toHaveLength(6);

    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => clearEndedRunsSlice(tx, company.id, flowId, limit), async () => (await runs(flowId)).length > 1);
    expect(await runs(flowId)).toEqual(['running']);
    expect(await runs(keptFlow)).toEqual(['finished']);

    expect((await req('DELETE', `/flowbuilder/${flowId}`)).status).toBe(200);
    expect(await runs(flowId)).toEqual([]);
    expect((await db.selectFrom('tickets').select('tickets.flowId').where('tickets.id', '=', running).executeTakeFirstOrThrow()).flowId).toBeNull();
    expect(await runs(keptFlow)).toEqual(['finished']);
  });

  it('refuses bad input with clear ERR_VALIDATION issues, never a 500', async () => {
    const { req, queue } = await setup();
    const id = (await req('POST', '/flowbuilder', { name: 'Fluxo' })).body.id as number;
    const name = async (body: unknown) => (await req('POST', '/flowbuilder', body)).body;
    expect(await name({ name: 'a' })).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'name', message: 'Muito curto!' }] });
    expect(await name({ name: 'x'.repeat(51) })).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'name', message: 'Muito longo!' }] });
    expect(await name({})).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'name', message: 'Digite um nome!' }] });
    expect((await req('PUT', '/flowbuilder', { flowId: 'abc', name: 'Fluxo' })).body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'flowId' }] });
    const { token } = await setup();
    expect((await t.request('POST', '/flowbuilder', { token, body: '{"name":' })).body.error).toBe('ERR_INVALID_JSON');
    expect((await t.request('POST', '/flowbuilder/flow', { token, body: '[1,' })).body.error).toBe('ERR_INVALID_JSON');

    const save = async (body: unknown) => req('POST', '/flowbuilder/flow', body);
    // No start node.
    const noStart = await save({ idFlow: id, nodes: [], connections: [] });
    expect(noStart.status).toBe(400);
    expect(noStart.body.issues).toContainEqual({ path: 'nodes', message: 'The flow has no start node' });
    // null lists read as empty (a new flow): still no start node.
    expect((await save({ idFlow: id, nodes: null, connections: null })).body.issues).toContainEqual({ path: 'nodes', message: 'The flow has no start node' });
    // An edge to a missing node, at the edge at fault.
    const g = graph(queue.id);
    g.connections.push({ source: 'menu0000000000000000000000001', target: 'nowhere', sourceHandle: 'a9', type: 'buttonedge', id: 'e9' });
    const edges = await save({ idFlow: id, ...g });
    expect(edges.status).toBe(400);
    expect(edges.body.issues.map((i: { path: string }) => i.path)).toEqual(expect.arrayContaining(['connections.4.target', 'connections.4.sourceHandle']));
    // The dialogs' rules: an interval beyond 120 s, a ticket node without a queue, an unknown node type.
    const rules = graph(queue.id);
    rules.nodes[3]!.data = {};
    rules.nodes.push({ id: 'wait0000000000000000000000001', type: 'interval', position: { x: 0, y: 0 }, data: { sec: 121 }, width: 1, selected: false });
    rules.nodes.push({ id: 'what0000000000000000000000001', type: 'teleport', position: { x: 0, y: 0 }, data: {}, width: 1, selected: false });
    const refused = await save({ idFlow: id, ...rules });
    expect(refused.status).toBe(400);
    const messages = refused.body.issues.map((i: { message: string }) => i.message).join(' | ');
    expect(messages).toContain('Adicione uma fila');
    expect(messages).toContain('Máximo de tempo atingido 120 segundos');
    expect(messages).toContain('teleport');
    expect((await save({ nodes: [], connections: [] })).body.issues).toContainEqual(expect.objectContaining({ path: 'idFlow' }));
    expect((await save({ idFlow: id, nodes: 'x', connections: 5 })).status).toBe(400);
    expect((await save({ idFlow: 999999, ...graph(queue.id) })).status).toBe(404);
    // Nothing was saved by the refusals.
    expect((await req('GET', `/flowbuilder/flow/${id}`)).body.flow).toMatchObject({ versionNo: 0, flow: null });
    expect((await req('GET', '/flowbuilder/flow/abc')).status).toBe(404);
    expect((await req('DELETE', '/flowbuilder/99999999999')).status).toBe(404);
    expect((await req('POST', '/flowbuilder/duplicate', { flowId: 0 })).status).toBe(400);
  });

  it('phrase campaigns: create, list, read, toggle, update and delete; refs must be the company’s', async () => {
    const { req, connection } = await setup();
    const flowId = (await req('POST', '/flowbuilder', { name: 'Fluxo' })).body.id as number;
    const created = await req('POST', '/flowcampaign', { name: 'Promo', flowId, whatsappId: connection.id, phrase: 'quero promo' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: 'Promo', flowId, whatsappId: connection.id, phrase: 'quero promo', status: true, matchMode: 'exact', version: 1 });
    expect(phraseCampaignSchema.strict().parse(created.body)).toEqual(created.body);
    const id = created.body.id as number;
    const any = await req('POST', '/flowcampaign', { name: 'Oi', flowId, whatsappId: '', phrase: 'oi', matchMode: 'contains', status: false });
    expect(any.body).toMatchObject({ whatsappId: null, matchMode: 'contains', status: false });
    expect((await req('GET', '/flowcampaign')).body.list.map((c: { id: number }) => c.id)).toEqual([id, any.body.id]);
    expect((await req('GET', `/flowcampaign/${id}`)).body).toMatchObject({ name: 'Promo', phrase: 'quero promo', status: true, flowId, whatsappId: connection.id });

    const toggled = await req('PUT', '/flowcampaign', { id, name: 'Promo', flowId, whatsappId: connection.id, phrase: 'quero promo', status: false });
    expect(toggled.status).toBe(200);
    expect(toggled.body).toMatchObject({ status: false, version: 2 });
    const edited = await req('PUT', '/flowcampaign', { id, name: 'Promo 2', flowId, phrase: 'promo' });
    expect(edited.body).toMatchObject({ name: 'Promo 2', phrase: 'promo', status: false, whatsappId: connection.id });

    const bad = await req('POST', '/flowcampaign', { name: '', flowId, phrase: '  ' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i: { path: string }) => i.path)).toEqual(expect.arrayContaining(['name', 'phrase']));
    expect((await req('POST', '/flowcampaign', { name: 'Sem fluxo', phrase: 'x' })).body.issues).toContainEqual(expect.objectContaining({ path: 'flowId' }));
    expect((await req('POST', '/flowcampaign', { name: 'Fluxo errado', flowId: 987654, phrase: 'x' })).body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'flowId', message: 'not found' }] });
    expect((await req('POST', '/flowcampaign', { name: 'Linha errada', flowId, whatsappId: 987654, phrase: 'x' })).body.issues).toEqual([{ path: 'whatsappId', message: 'not found' }]);
    expect((await req('PUT', '/flowcampaign', { id: 987654, name: 'Promo', flowId, phrase: 'x' })).status).toBe(404);

    // An active phrase that another active campaign already answers on that connection is refused,
    // on create and on turning it on (the older would always win); another mode, connection or an
    // inactive one is fine.
    const order = await req('POST', '/flowcampaign', { name: 'Pedido', flowId, whatsappId: connection.id, phrase: 'order' });
    expect(order.status).toBe(201);
    const twin = await req('POST', '/flowcampaign', { name: 'Pedido 2', flowId, whatsappId: connection.id, phrase: ' Órder! ' });
    expect([twin.status, twin.body.issues?.[0]?.path, twin.body.issues?.[0]?.message]).toEqual([400, 'phrase', expect.stringContaining('"Pedido"')]);
    const everywhere = await req('POST', '/flowcampaign', { name: 'Pedido geral', flowId, whatsappId: null, phrase: 'ORDER' });
    expect(everywhere.status).toBe(400);
    const off = await req('POST', '/flowcampaign', { name: 'Pedido 3', flowId, whatsappId: connection.id, phrase: 'order', status: false });
    expect(off.status).toBe(201);
    expect((await req('PUT', '/flowcampaign', { id: off.body.id, name: 'Pedido 3', flowId, phrase: 'order', status: true })).status).toBe(400);
    expect((await req('GET', `/flowcampaign/${off.body.id}`)).body.status).toBe(false);
    expect((await req('POST', '/flowcampaign', { name: 'Contém', flowId, whatsappId: connection.id, phrase: 'order', matchMode: 'contains' })).status).toBe(201);
    await req('DELETE', `/flowcampaign/${order.body.id}`);

    expect((await req('DELETE', `/flowcampaign/${id}`)).status).toBe(200);
    expect((await req('GET', `/flowcampaign/${id}`)).status).toBe(404);
    // Deleting a flow deletes its campaigns.
    await req('DELETE', `/flowbuilder/${flowId}`);
    expect((await req('GET', '/flowcampaign')).body.list).toEqual([]);
  });

  it('uploads images, audio, video and content files with their type and size rules', async () => {
    const { token, company } = await setup();
    const img = await upload(token, 'img', [{ bytes: PNG, name: 'foto.png', type: 'image/png' }]);
    expect(img.status).toBe(200);
    const name = (await img.json()) as string;
    expect(name).toMatch(/^\d+-[0-9a-f]{12}-foto\.png$/);
    const file = await t.app.request(`/flowbuilder/media/${name}`, { headers: { authorization: `Bearer ${token}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    // Another company's admin cannot read it.
    const other = await setup();
    expect((await t.app.request(`/flowbuilder/media/${name}`, { headers: { authorization: `Bearer ${other.token}` } })).status).toBe(404);
    expect((await t.app.request(`/flowbuilder/media/..%2F..%2Fsecrets.json`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);

    expect((await upload(token, 'audio', [{ bytes: OGG, name: 'voz.ogg' }])).status).toBe(200);
    expect((await upload(token, 'video', [{ bytes: Buffer.alloc(64), name: 'clip.mp4', type: 'video/mp4' }])).status).toBe(200);
    const content = await upload(token, 'content', [{ bytes: PNG, name: 'a.png' }, { bytes: OGG, name: 'b.opus' }]);
    expect(content.status).toBe(200);
    expect(((await content.json()) as string[]).map((n) => n.replace(/^\d+-[0-9a-f]{12}-/, ''))).toEqual(['a.png', 'b.opus']);

    const tooBig = await upload(token, 'img', [{ bytes: Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]), name: 'big.png' }]);
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { issues: { message: string }[] }).issues[0]!.message).toBe('Arquivo é muito grande! 2MB máximo');
    expect((await upload(token, 'audio', [{ bytes: Buffer.alloc(5 * 1024 * 1024 + 1), name: 'long.mp3' }])).status).toBe(413);
    expect((await upload(token, 'img', [{ bytes: PNG, name: 'anim.gif' }])).status).toBe(415);
    expect((await upload(token, 'img', [{ bytes: PNG, name: 'foto.png', type: 'text/html' }])).status).toBe(415);
    expect((await upload(token, 'audio', [{ bytes: OGG, name: 'voz.opus' }])).status).toBe(415);
    expect((await upload(token, 'content', [{ bytes: Buffer.from('MZ\x90\x00'), name: 'run.mp4' }])).status).toBe(415);
    expect((await upload(token, 'img', [{ bytes: PNG, name: 'a.png' }, { bytes: PNG, name: 'b.png' }])).status).toBe(400);
    expect((await upload(token, 'img', [])).status).toBe(400);
    expect((await t.request('POST', '/flowbuilder/img', { token, body: { medias: 'x' } })).status).toBe(415);
    expect(company.id).toBeGreaterThan(0);
  });

  it('is for admins of a plan with campaigns; another company’s ids answer 404', async () => {
    const a = await setup();
    const flowId = (await a.req('POST', '/flowbuilder', { name: 'Fluxo A' })).body.id as number;
    const campaignId = (await a.req('POST', '/flowcampaign', { name: 'Promo', flowId, phrase: 'promo' })).body.id as number;
    const calls: [string, string, unknown?][] = [
      ['GET', '/flowbuilder'],
      ['POST', '/flowbuilder', { name: 'Fluxo' }],
      ['PUT', '/flowbuilder', { flowId, name: 'Fluxo' }],
      ['DELETE', `/flowbuilder/${flowId}`],
      ['POST', '/flowbuilder/duplicate', { flowId }],
      ['GET', `/flowbuilder/flow/${flowId}`],
      ['POST', '/flowbuilder/flow', { idFlow: flowId, ...graph(a.queue.id) }],
      ['GET', '/flowcampaign'],
      ['GET', `/flowcampaign/${campaignId}`],
      ['POST', '/flowcampaign', { name: 'Promo', flowId, phrase: 'x' }],
      ['PUT', '/flowcampaign', { id: campaignId, name: 'Promo', flowId, phrase: 'x' }],
      ['DELETE', `/flowcampaign/${campaignId}`],
    ];
    for (const [method, url, body] of calls) {
      expect((await t.request(method, url, { body })).status, `${method} ${url} anonymous`).toBe(401);
      expect((await t.request(method, url, { token: a.userSession.token, body })).status, `${method} ${url} as user`).toBe(403);
    }
    expect((await upload(a.userSession.token, 'img', [{ bytes: PNG, name: 'a.png' }])).status).toBe(403);

    const noPlan = await setup({ useCampaigns: 0 });
    for (const [method, url, body] of calls) {
      const res = await noPlan.req(method, url, body);
      expect(res.status, `${method} ${url} without the plan`).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await upload(noPlan.token, 'img', [{ bytes: PNG, name: 'a.png' }])).status).toBe(403);

    const b = await setup();
    const bFlow = (await b.req('POST', '/flowbuilder', { name: 'Fluxo B' })).body.id as number;
    for (const [method, url, body] of calls.filter(([m, u]) => !(m === 'GET' && u === '/flowbuilder') && !(m === 'GET' && u === '/flowcampaign') && !(m === 'POST' && u === '/flowbuilder'))) {
      const res = await b.req(method, url, body);
      if (method === 'POST' && url === '/flowcampaign') expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'flowId' }] });
      else if (method === 'PUT' && url === '/flowcampaign') expect(res.status, `${method} ${url}`).toBe(404);
      else expect(res.status, `${method} ${url} from another company`).toBe(404);
    }
    expect((await b.req('GET', '/flowbuilder')).body.flows.map((f: { id: number }) => f.id)).toEqual([bFlow]);
    expect((await b.req('GET', '/flowcampaign')).body.list).toEqual([]);
    // A's rows are intact.
    expect((await a.req('GET', `/flowbuilder/flow/${flowId}`)).body.flow).toMatchObject({ name: 'Fluxo A', versionNo: 0 });
    expect((await a.req('GET', `/flowcampaign/${campaignId}`)).body).toMatchObject({ phrase: 'promo' });
  });
});
