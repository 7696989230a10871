import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startServer } from '../server.ts';
import { createMemoryLogger } from '../log.ts';
import { createPostgresDatabase, DIALECTS } from '../../test/harness.ts';
import { prepareGuardedDatabase } from '../../test/template-db.ts';
import { assertNoGuardViolations } from '../../test/version-guard.ts';

type FlowNode = { id: string; type: string; position: { x: number; y: number }; data: Record<string, unknown> };
type FlowGraph = { nodes: FlowNode[]; connections: { source: string; target: string; sourceHandle: string | null }[] };

// The first start of a fresh clone, through the real server (a temp DATA_DIR; its SQLite file, or a
// new PostgreSQL database when TEST_POSTGRES_URL is set), the version guard on.
describe.each(DIALECTS)('first start on %s', (dialect) => {
  const boot = (env: Record<string, string>) => {
    const config = loadConfig({ PORT: '0', JWT_SECRET: 's', JWT_REFRESH_SECRET: 'r', ...env });
    const log = createMemoryLogger();
    return startServer(config, { log, web: false }).then((running) => ({ ...running, log }));
  };
  /** A data folder and an empty database, migrated and guarded: the server's first start finds no users. */
  const freshData = async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-first-'));
    const pg = dialect === 'postgres' ? await createPostgresDatabase(process.env.TEST_POSTGRES_URL!) : undefined;
    await prepareGuardedDatabase(pg?.url ?? path.join(dataDir, 'zapdesk.db'));
    return { env: { DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) }, drop: async () => pg?.drop() };
  };
  const login = async (apiUrl: string, email: string, password: string) => {
    const res = await fetch(`${apiUrl}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    return { status: res.status, body: (await res.json()) as { token: string; user: { super: boolean } } };
  };

  it('creates the super-admin and the demo company once; later starts only migrate', { timeout: 60_000 }, async () => {
    const data = await freshData();
    const env = { ...data.env, ADMIN_EMAIL: 'root@example.test', ADMIN_PASSWORD: 'Root12345', DEMO_PASSWORD: 'Demo12345' };
    const first = await boot(env);
    try {
      expect(first.firstStart.superAdmin).toEqual({ email: 'root@example.test', password: 'Root12345', generated: false });
      expect(first.firstStart.demo?.users.map((u) => u.email)).toEqual(['admin@demo.zapdesk.local', 'bruno@demo.zapdesk.local', 'carla@demo.zapdesk.local']);
      const root = await login(first.apiUrl, 'root@example.test', 'Root12345');
      expect(root.status).toBe(200);
      expect(root.body.user.super).toBe(true);

      const admin = await login(first.apiUrl, 'admin@demo.zapdesk.local', 'Demo12345');
      expect(admin.status).toBe(200);
      const auth = { authorization: `Bearer ${admin.body.token}` };
      const get = async <T>(route: string): Promise<T> => {
        const res = await fetch(`${first.apiUrl}${route}`, { headers: auth });
        expect(res.status, `GET ${route}`).toBe(200);
        return (await res.json()) as T;
      };
      const post = async (route: string, body: unknown) => {
        const res = await fetch(`${first.apiUrl}${route}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expect(res.status, `POST ${route}: ${await res.clone().text()}`).toBeLessThan(300);
      };
      const queues = await get<{ id: number; name: string }[]>('/queue');
      expect(queues.map((q) => q.name)).toEqual(['Sales', 'Support']);
      const queueId = (name: string) => queues.find((q) => q.name === name)!.id;
      const [connection] = await get<{ id: number; name: string; status: string; isDefault: boolean }[]>('/whatsapp');
      expect(connection).toMatchObject({ status: 'CONNECTED', isDefault: true });
      // The demo customers wrote through the simulator: three pending tickets, two already routed.
      type Ticket = { id: number; contact: { name: string }; queue: { name: string } | null };
      const { tickets } = await get<{ tickets: Ticket[] }>('/tickets?status=pending&showAll=true');
      expect(tickets.map((t) => [t.contact.name, t.queue?.name ?? null]).sort()).toEqual([
        ['Julia Castro', null],
        ['Mariana Souza', 'Sales'],
        ['Pedro Lima', 'Support'],
      ]);

      // The sample flow, saved once (its version 1), drawn left to right with no two nodes in one place.
      const { flows } = await get<{ flows: { id: number; name: string; active: boolean; versionNo: number }[] }>('/flowbuilder');
      expect(flows).toEqual([expect.objectContaining({ name: 'Order status', active: true, versionNo: 1 })]);
      const graph = (await get<{ flow: { flow: FlowGraph } }>(`/flowbuilder/flow/${flows[0]!.id}`)).flow.flow;
      expect(graph.nodes.map((n) => n.type).sort()).toEqual(['menu', 'message', 'message', 'message', 'question', 'start', 'ticket', 'ticket']);
      const byId = new Map(graph.nodes.map((n) => [n.id, n]));
      expect(graph.nodes.filter((n) => n.type !== 'start').every((n) => /^[A-Za-z0-9]{30}$/.test(n.id))).toBe(true);
      expect(new Set(graph.nodes.map((n) => `${n.position.x},${n.position.y}`)).size).toBe(graph.nodes.length);
      expect(graph.connections.every((e) => byId.get(e.source)!.position.x < byId.get(e.target)!.position.x)).toBe(true);
      const ticketNodes = graph.nodes.filter((n) => n.type === 'ticket').map((n) => n.data);
      expect(ticketNodes).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ queueId: queueId('Sales'), queue: { id: queueId('Sales'), name: 'Sales' } }),
          expect.objectContaining({ queueId: queueId('Support'), queue: { id: queueId('Support'), name: 'Support' } }),
        ]),
      );
      const menu = graph.nodes.find((n) => n.type === 'menu')!;
      expect(graph.connections.filter((e) => e.source === menu.id).map((e) => e.sourceHandle).sort()).toEqual(['a1', 'a2']);

      // Its active phrase campaign, on the demo connection.
      const phrases = await get<{ list: unknown[] }>('/flowcampaign');
      expect(phrases.list).toEqual([expect.objectContaining({ name: 'Order status', phrase: 'order', status: true, flowId: flows[0]!.id, whatsappId: connection!.id })]);

      // The contact list and its four numbers, checked on WhatsApp once the connection paired.
      const lists = await get<{ records: { id: number; name: string; contactsCount: number }[] }>('/contact-lists');
      expect(lists.records).toEqual([expect.objectContaining({ name: 'Newsletter', contactsCount: 4 })]);
      type Item = { name: string; number: string; isWhatsappValid: boolean | null };
      const items = () => get<{ contacts: Item[] }>(`/contact-list-items?contactListId=${lists.records[0]!.id}`).then((r) => r.contacts);
      expect((await items()).map((c) => [c.name, c.number])).toEqual([
        ['Beatriz Rocha', '5521987650012'],
        ['Camila Ferreira', '5511987650014'],
        ['Lucas Martins', '5511987650011'],
        ['Rafael Almeida', '5531987650013'],
      ]);
      await expect.poll(async () => (await items()).map((c) => c.isWhatsappValid), { timeout: 10_000 }).toEqual([true, true, true, true]);

      // The campaign on that list: a draft, never scheduled, with nothing to report yet.
      const { records: campaigns } = await get<{ records: { id: number; status: string; scheduledAt: string | null }[] }>('/campaigns');
      expect(campaigns).toEqual([
        expect.objectContaining({ name: 'Newsletter: new arrivals', status: 'INATIVA', scheduledAt: null, contactList: { id: lists.records[0]!.id, name: 'Newsletter' }, whatsapp: { id: connection!.id, name: connection!.name }, editable: true }),
      ]);
      const campaign = await get<{ message1: string; message2: string }>(`/campaigns/${campaigns[0]!.id}`);
      expect(campaign.message1).toContain('{primeiro-nome}');
      const report = await get<{ totals: { recipients: number } }>(`/campaigns/${campaigns[0]!.id}/report`);
      expect(report.totals.recipients).toBe(0);

      // A customer writes the phrase: the flow greets by first name and shows its menu; 1 asks for the
      // order number; the answer is thanked, stored under `order`, and the ticket lands in Sales.
      const rita = { connectionId: connection!.id, from: '5511988887777', name: 'Rita Gomes' };
      const sent = () => get<{ body: string }[]>(`/simulator/outbox?connectionId=${connection!.id}&to=${rita.from}`).then((ms) => ms.map((m) => m.body));
      await post('/simulator/messages', { ...rita, body: 'order' });
      await expect.poll(sent, { timeout: 10_000 }).toEqual(['Hi Rita!', 'How can we help you today?\n\n1 - Order status\n2 - Talk to support']);
      await post('/simulator/messages', { ...rita, body: '1' });
      await expect.poll(sent, { timeout: 10_000 }).toHaveLength(3);
      expect((await sent())[2]).toBe('What is your order number?');
      await post('/simulator/messages', { ...rita, body: '1042' });
      await expect.poll(sent, { timeout: 10_000 }).toHaveLength(4);
      expect((await sent())[3]).toBe('Thanks, order 1042 noted. Someone from Sales will answer you here.');
      const ritaTicket = async () => (await get<{ tickets: Ticket[] }>('/tickets?searchParam=Rita&showAll=true')).tickets[0];
      await expect.poll(async () => (await ritaTicket())?.queue?.name, { timeout: 10_000 }).toBe('Sales');
      const { run } = await get<{ run: unknown }>(`/tickets/${(await ritaTicket())!.id}/flow`);
      expect(run).toMatchObject({ flowName: 'Order status', status: 'finished', endReason: 'handover', variables: { order: '1042' } });

      // Meanwhile the draft campaign sent nothing to its list.
      for (const c of await items()) expect(await get<unknown[]>(`/simulator/outbox?connectionId=${connection!.id}&to=${c.number}`)).toEqual([]);
    } finally {
      await first.close();
    }

    const second = await boot(env);
    try {
      expect(second.firstStart).toEqual({});
      const users = await second.deps.db.selectFrom('users').select('email').execute();
      expect(users).toHaveLength(4);
      expect(await second.deps.db.selectFrom('flows').select('name').execute()).toEqual([{ name: 'Order status' }]);
      expect(await second.deps.db.selectFrom('flowVersions').select('versionNo').execute()).toEqual([{ versionNo: 1 }]);
    } finally {
      await second.close();
      await data.drop();
    }
    assertNoGuardViolations([...first.log.lines, ...second.log.lines]);
  });

  it('with SEED_DEMO=0 creates only the platform, and prints a generated password', async () => {
    const data = await freshData();
    const running = await boot({ ...data.env, SEED_DEMO: '0' });
    try {
      const admin = running.firstStart.superAdmin!;
      expect(admin).toMatchObject({ email: 'admin@zapdesk.local', generated: true });
      expect(admin.password.length).toBeGreaterThanOrEqual(12);
      expect(running.firstStart.demo).toBeUndefined();
      expect(running.deps.config.simulator).toBe(false);
      expect((await login(running.apiUrl, admin.email, admin.password)).status).toBe(200);
      expect(await running.deps.db.selectFrom('companies').select('name').execute()).toEqual([{ name: 'zapdesk' }]);
      expect(await running.deps.db.selectFrom('flows').select('id').execute()).toEqual([]);
    } finally {
      await running.close();
      await data.drop();
    }
  });
});
