// Company webhooks through the real app: signed deliveries to a local receiver (node:http), once per
// event, retried after failures with the same event id, in order per ticket, none for a rolled-back
// write; admin-only, tenant-isolated, URL and events validated; "send test" and the delivery log.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inSlices } from '../../db/slices.ts';
import { tenant } from '../../db/tenant.ts';
import { write } from '../../db/write.ts';
import { emptyWebhookLogSlice } from './service.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';
import { startReceiver, verifySignature } from '../../../test/webhook-receiver.ts';
import { webhookPayloadProblem } from '../../../test/openapi-check.ts';
import { sliceBesideAnotherWrite } from '../../../test/slices.ts';
import { createContact } from '../contacts/service.ts';
import { deliveryRows, insertDeliveries } from '../../webhooks/queue.ts';
import { expireInactiveTickets } from '../../jobs/ticket-jobs.ts';
import { createWebhookWorker } from '../../webhooks/worker.ts';

describe.each(DIALECTS)('company webhooks (%s)', (dialect) => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true, webhooks: { concurrency: 10, timeoutMs: 5_000, attempts: 4, backoffMs: 10, allowPrivate: true, retentionDays: 7, keepPerWebhook: 1_000 } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
    // Every payload received matched the document's `webhooks` schema for its event (/openapi.json).
    // (The ordering test's hand-written rows carry made-up data: `{i}`, `{free}`.)
    const handMade = (d: unknown) => typeof d === 'object' && d !== null && ('i' in d || 'free' in d);
    const real = receiver.received.filter((r) => !handMade(r.json.data));
    expect(real.map((r) => webhookPayloadProblem(r.event, r.json)).filter(Boolean)).toEqual([]);
  });

  async function hooked(events: string[]) {
    const tn = await seedTenant(t);
    const res = await t.request('POST', '/webhooks', { token: tn.adminSession.token, body: { name: 'CRM', url: receiver.url, events } });
    expect(res.status).toBe(201);
    const mine = () => receiver.received.filter((r) => r.json.companyId === tn.company.id);
    return { ...tn, token: tn.adminSession.token, hook: res.body as { id: number; secret: string }, mine };
  }
  const settle = () => t.deps.webhooks.idle();
  const waitUntil = async (ok: () => boolean) => {
    while (!ok()) await new Promise((r) => setTimeout(r, 10));
  };

  it('delivers each event once, signed, with its id, type, company, time and the REST record', async () => {
    const { token, hook, mine, company } = await hooked(['contact.created', 'contact.updated']);
    expect(hook.secret).toMatch(/^whsec_/);
    // Masked after: only the write that made it shows it.
    const listed = await t.request('GET', '/webhooks', { token });
    expect(listed.body).toEqual([expect.objectContaining({ id: hook.id, url: receiver.url, events: ['contact.created', 'contact.updated'], enabled: true, secret: `••••${hook.secret.slice(-4)}` })]);

    const contact = await t.request('POST', '/contacts', { token, body: { name: 'Ana', number: '5511988880001' } });
    const renamed = await t.request('PUT', `/contacts/${contact.body.id}`, { token, body: { name: 'Ana Maria' } });
    await settle();
    expect(mine().map((r) => r.event)).toEqual(['contact.created', 'contact.updated']);
    const [created, updated] = mine();
    for (const r of mine()) {
      expect(verifySignature(hook.secret, r)).toBe(true);
      expect(r.delivery).toBe(r.json.id);
      expect(r.json.companyId).toBe(company.id);
      expect(Date.parse(r.json.timestamp)).not.toBeNaN();
    }
    expect(created!.json).toMatchObject({ event: 'contact.created', data: contact.body });
    expect(updated!.json).toMatchObject({ event: 'contact.updated', data: renamed.body });
    expect(verifySignature('whsec_wrong', created!)).toBe(false);

    const log = await t.request('GET', `/webhooks/${hook.id}/deliveries`, { token });
    expect(log.body.deliveries).toHaveLength(2);
    expect(log.body.deliveries[0]).toMatchObject({ event: 'contact.updated', state: 'done', attempts: 1, responseStatus: 200, eventId: updated!.json.id });
    expect(log.body.deliveries[0].durationMs).toBeGreaterThanOrEqual(0);
  });

  it('delivers a contact.created per contact of an import batch, each with its REST record', async () => {
    const { token, mine } = await hooked(['contact.created']);
    const rows = [0, 1, 2].map((i) => ({ name: `Sheet ${i}`, number: `55119777${dialect === 'sqlite' ? 1 : 2}000${i}` }));
    const res = await t.request('POST', '/contacts/import/rows', { token, body: { rows, firstRow: 2 } });
    expect(res.body).toMatchObject({ imported: 3 });
    await settle();
    expect(mine().map((r) => r.event)).toEqual(['contact.created', 'contact.created', 'contact.created']);
    expect(new Set(mine().map((r) => r.json.id)).size).toBe(3);
    for (const r of mine()) {
      const data = r.json.data as { id: number };
      expect(data).toEqual((await t.request('GET', `/contacts/${data.id}`, { token })).body);
    }
    expect(mine().map((r) => (r.json.data as { name: string }).name).sort()).toEqual(['Sheet 0', 'Sheet 1', 'Sheet 2']);
  });

  it('retries a failing receiver with backoff and the same event id (500, 500, then 200)', async () => {
    const { token, hook, mine } = await hooked(['contact.created']);
    receiver.answerNext(500, 500);
    await t.request('POST', '/contacts', { token, body: { name: 'Bia', number: '5511988880002' } });
    await settle();
    expect(mine().map((r) => r.status)).toEqual([500, 500, 200]);
    expect(new Set(mine().map((r) => r.delivery)).size).toBe(1);
    const [delivery] = (await t.request('GET', `/webhooks/${hook.id}/deliveries`, { token })).body.deliveries;
    expect(delivery).toMatchObject({ state: 'done', attempts: 3, responseStatus: 200, error: null });
  });

  it("keeps a ticket's events in order: a later one waits while an earlier one is retried", async () => {
    const { token, mine } = await hooked(['ticket.created', 'ticket.status_changed', 'ticket.transferred']);
    const contact = await t.request('POST', '/contacts', { token, body: { name: 'Caio', number: '5511988880003' } });
    const queue = await t.request('POST', '/queue', { token, body: { name: 'Sales', color: '#123456' } });
    const connection = await t.request('POST', '/whatsapp', { token, body: { name: 'Line' } });
    receiver.answerNext(500);
    const ticket = await t.request('POST', '/tickets', { token, body: { contactId: contact.body.id, status: 'open', whatsappId: connection.body.id } });
    expect(ticket.status).toBe(201);
    await t.request('PUT', `/tickets/${ticket.body.id}`, { token, body: { queueId: queue.body.id } });
    await t.request('PUT', `/tickets/${ticket.body.id}`, { token, body: { status: 'closed' } });
    await settle();
    expect(mine().map((r) => [r.event, r.status])).toEqual([
      ['ticket.created', 500],
      ['ticket.created', 200],
      // Moved to a queue: back to pending (a status change) and a transfer, one write, in that order.
      ['ticket.status_changed', 200],
      ['ticket.transferred', 200],
      ['ticket.status_changed', 200],
    ]);
    expect(mine().every((r) => (r.json.data as { id: number }).id === ticket.body.id)).toBe(true);
  });

  it('delivers the status change of a ticket the auto-close job closed', async () => {
    const { token, mine, company } = await hooked(['ticket.status_changed']);
    const connection = await t.request('POST', '/whatsapp', { token, body: { name: 'Line', expiresTicket: 5 } });
    const contact = await t.request('POST', '/contacts', { token, body: { name: 'Idle', number: '5511988880009' } });
    const ticket = await t.request('POST', '/tickets', { token, body: { contactId: contact.body.id, status: 'open', whatsappId: connection.body.id } });
    const old = new Date(Date.now() - 3_600_000).toISOString();
    await t.db.updateTable('tickets').set((eb) => ({ lastInteractionAt: old, version: eb('version', '+', 1) })).where('id', '=', ticket.body.id).where('companyId', '=', company.id).execute();
    expect(await expireInactiveTickets(t.deps)).toBeGreaterThanOrEqual(1);
    await settle();
    expect(mine().map((r) => [r.event, (r.json.data as { id: number; status: string }).status])).toEqual([['ticket.status_changed', 'closed']]);
  });

  it('does not let a held-back ticket stall the others, however many of its events wait', async () => {
    const { hook, mine, company } = await hooked(['ticket.created']);
    // 100 events of one ticket wait behind its first, whose retry is an hour away (more than a
    // claim's page), then one event of another ticket.
    await write(t.deps, async (tx) => {
      const held = Array.from({ length: 100 }, (_, i) => deliveryRows([hook.id], 'ticket.created', company.id, 'ticket:held', { i }));
      await insertDeliveries(tx, company.id, held.flat());
      // Held back in the same write, so the worker never sees them due.
      await tx.db.updateTable('webhookDeliveries').set({ notBefore: new Date(Date.now() + 3_600_000).toISOString() }).where('orderKey', '=', 'ticket:held').where('companyId', '=', company.id).execute();
      await insertDeliveries(tx, company.id, deliveryRows([hook.id], 'ticket.created', company.id, 'ticket:free', { free: true }));
    });
    try {
      await waitUntil(() => mine().length > 0);
      expect(mine().map((r) => r.json.data)).toEqual([{ free: true }]);
    } finally {
      // The other tests wait for an empty queue.
      await t.db.deleteFrom('webhookDeliveries').where('orderKey', '=', 'ticket:held').where('companyId', '=', company.id).execute();
    }
  });

  it('delivers nothing for a write that rolled back', async () => {
    const { token, hook, mine, company, admin } = await hooked(['contact.created']);
    const actor = { userId: admin.id, companyId: company.id, profile: 'admin' as const, super: false, sessionId: '' };
    await expect(
      write(t.deps, async (tx) => {
        await createContact(tx, actor, { name: 'Ghost', number: '5511988880004', email: '', extraInfo: [] });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await t.request('POST', '/contacts', { token, body: { name: 'Real', number: '5511988880005' } });
    await settle();
    expect(mine().map((r) => (r.json.data as { name: string }).name)).toEqual(['Real']);
    expect((await t.request('GET', `/webhooks/${hook.id}/deliveries`, { token })).body.deliveries).toHaveLength(1);
  });

  it('sends a test delivery and shows it in the log', async () => {
    const { token, hook, mine } = await hooked(['payment.confirmed']);
    const queued = await t.request('POST', `/webhooks/${hook.id}/test`, { token });
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ event: 'webhook.test', webhookId: hook.id });
    await settle();
    expect(mine().map((r) => r.event)).toEqual(['webhook.test']);
    expect(verifySignature(hook.secret, mine()[0]!)).toBe(true);
    const [logged] = (await t.request('GET', `/webhooks/${hook.id}/deliveries`, { token })).body.deliveries;
    expect(logged).toMatchObject({ id: queued.body.id, state: 'done', responseStatus: 200 });
  });

  it("empties a deleted webhook's log a slice at a time, other writes in between; other webhooks keep theirs", async () => {
    const { company, token, hook } = await hooked(['contact.created']);
    const other = await hooked(['contact.created']);
    const db = tenant(t.db, company.id);
    const kept = (await t.request('POST', '/webhooks', { token, body: { name: 'Kept', url: receiver.url, events: ['contact.created'] } })).body as { id: number };
    const rows = (webhookId: number, n: number) => Array.from({ length: n }, (_, k) => ({ webhookId, eventId: `log-${webhookId}-${k}`, event: 'contact.created', orderKey: `log-${k}`, payload: '{}', state: 'done' }));
    await db.insertInto('webhookDeliveries', [...rows(hook.id, 7), ...rows(kept.id, 1)]).execute();
    const count = async (webhookId: number) => (await db.selectFrom('webhookDeliveries').select('webhookDeliveries.id').where('webhookDeliveries.webhookId', '=', webhookId).execute()).length;

    // Asked for by another company, the webhook's id matches none of its deliveries.
    await inSlices(t.deps, (tx, limit) => emptyWebhookLogSlice(tx, other.company.id, hook.id, limit), 2);
    expect(await count(hook.id)).toBe(7);

    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => emptyWebhookLogSlice(tx, company.id, hook.id, limit), async () => (await count(hook.id)) > 0);
    expect(await count(hook.id)).toBe(0);
    expect((await t.request('DELETE', `/webhooks/${hook.id}`, { token })).body).toEqual({ message: 'Webhook deleted.' });
    expect((await t.request('GET', `/webhooks/${hook.id}`, { token })).status).toBe(404);
    expect(await count(kept.id)).toBe(1);
  });

  it("pokes the company's users after each change of its webhooks, and only then", async () => {
    const tn = await seedTenant(t);
    const token = tn.adminSession.token;
    const pokes = vi.spyOn(t.deps.realtime, 'pokeCompany');
    const pokedAfter = async (call: () => Promise<{ status: number }>, status: number) => {
      pokes.mockClear();
      expect((await call()).status).toBe(status);
      return pokes.mock.calls.filter(([id]) => id === tn.company.id).length;
    };
    try {
      let id = 0;
      expect(await pokedAfter(async () => {
        const res = await t.request('POST', '/webhooks', { token, body: { name: 'CRM', url: receiver.url, events: ['contact.created'] } });
        id = res.body.id;
        return res;
      }, 201)).toBe(1);
      expect(await pokedAfter(() => t.request('PUT', `/webhooks/${id}`, { token, body: { name: 'CRM 2' } }), 200)).toBe(1);
      expect(await pokedAfter(() => t.request('PUT', `/webhooks/${id}`, { token, body: { rotateSecret: true } }), 200)).toBe(1);
      // Refused: nothing changed, nobody poked.
      expect(await pokedAfter(() => t.request('PUT', `/webhooks/${id}`, { token, body: { url: 'ftp://example.com' } }), 400)).toBe(0);
      expect(await pokedAfter(() => t.request('DELETE', `/webhooks/${id}`, { token }), 200)).toBe(1);
      expect(await pokedAfter(() => t.request('DELETE', `/webhooks/${id}`, { token }), 404)).toBe(0);
    } finally {
      pokes.mockRestore();
    }
  });

  it('is for admins only, of their own company; bad input changes nothing', async () => {
    const a = await hooked(['contact.created']);
    const b = await seedTenant(t);
    expect((await t.request('GET', '/webhooks', { token: a.userSession.token })).body.error).toBe('ERR_NO_PERMISSION');
    expect((await t.request('POST', '/webhooks', { token: a.userSession.token, body: { name: 'x', url: receiver.url, events: ['contact.created'] } })).status).toBe(403);
    for (const [method, path] of [['GET', ''], ['PUT', ''], ['DELETE', ''], ['POST', '/test'], ['GET', '/deliveries']] as const) {
      const res = await t.request(method, `/webhooks/${a.hook.id}${path}`, { token: b.adminSession.token, body: method === 'PUT' ? { name: 'Mine now' } : undefined });
      expect([method, path, res.status, res.body.error]).toEqual([method, path, 404, 'ERR_NOT_FOUND']);
    }
    expect((await t.request('GET', '/webhooks', { token: b.adminSession.token })).body).toEqual([]);
    const bad = async (body: unknown) => (await t.request('POST', '/webhooks', { token: a.token, body })).body;
    expect(await bad({ name: 'x1', url: 'ftp://example.com', events: ['contact.created'] })).toMatchObject({ error: 'ERR_VALIDATION' });
    expect(await bad({ name: 'x2', url: 'https://user:pw@example.com/h', events: ['contact.created'] })).toMatchObject({ error: 'ERR_VALIDATION' });
    expect(await bad({ name: 'x3', url: receiver.url, events: ['ticket.exploded'] })).toMatchObject({ error: 'ERR_VALIDATION' });
    expect(await bad({ name: 'x4', url: receiver.url, events: [] })).toMatchObject({ error: 'ERR_VALIDATION' });
    expect((await t.request('GET', '/webhooks', { token: a.token })).body).toHaveLength(1);
    // B's events never reach A's webhook.
    await t.request('POST', '/contacts', { token: b.adminSession.token, body: { name: 'Other', number: '5511988880006' } });
    await t.request('POST', '/contacts', { token: a.token, body: { name: 'Own', number: '5511988880007' } });
    await settle();
    expect(a.mine().map((r) => (r.json.data as { name: string }).name)).toEqual(['Own']);
    // Disabled, then deleted: no more deliveries, and its log goes with it.
    await t.request('PUT', `/webhooks/${a.hook.id}`, { token: a.token, body: { enabled: false } });
    await t.request('POST', '/contacts', { token: a.token, body: { name: 'Muted', number: '5511988880008' } });
    expect((await t.request('DELETE', `/webhooks/${a.hook.id}`, { token: a.token })).status).toBe(200);
    await settle();
    expect(a.mine()).toHaveLength(1);
    expect((await t.request('GET', `/webhooks/${a.hook.id}/deliveries`, { token: a.token })).status).toBe(404);
  });

  it('delivers message.received and ticket.created for a customer message from the simulator', async () => {
    const { token, mine } = await hooked(['message.received', 'ticket.created', 'contact.created']);
    const created = await t.request('POST', '/whatsapp', { token, body: { name: 'Line', provider: 'simulator' } });
    const id = (created.body as { id: number }).id;
    await t.request('POST', `/whatsappsession/${id}`, { token });
    await t.request('POST', `/simulator/connections/${id}/scan`, { token, body: { number: '5511900002222' } });
    const sent = await t.request('POST', '/simulator/messages', { token, body: { connectionId: id, from: '5511977770001', name: 'Dora', body: 'hello there' } });
    expect(sent.status).toBe(200);
    await settle();
    expect(mine().map((r) => r.event)).toEqual(['contact.created', 'ticket.created', 'message.received']);
    expect(mine()[2]!.json.data).toMatchObject({ body: 'hello there', fromMe: false });
  });

  it('posts again, with the same event id, a delivery a dead process left in flight', async () => {
    const { token, hook, mine } = await hooked(['contact.created']);
    // The worker stops (the process "dies") with the row claimed an hour ago: running, attempts 1
    // (PostgreSQL spares rows claimed lately: another live instance may be posting them).
    await t.deps.webhooks.stop();
    const queued = await t.request('POST', `/webhooks/${hook.id}/test`, { token });
    await t.db.updateTable('webhookDeliveries').set({ state: 'running', attempts: 1, claimedBy: 'dead-instance', claimedAt: new Date(Date.now() - 3_600_000).toISOString() }).where('id', '=', queued.body.id).execute();
    // A new process starts: the row goes back to the queue and is posted.
    t.deps.webhooks = createWebhookWorker({ ...t.deps.config.webhooks, pollMs: 50 });
    await t.deps.webhooks.start(t.deps);
    await settle();
    expect(mine().map((r) => r.delivery)).toEqual([queued.body.eventId]);
    const [logged] = (await t.request('GET', `/webhooks/${hook.id}/deliveries`, { token })).body.deliveries;
    expect(logged).toMatchObject({ state: 'done', attempts: 2, eventId: queued.body.eventId });
  });
});
