// What the user modal's two settings do once saved (spec/02 §6, spec/03 users): the default
// connection (whatsappId) is the one a user's new tickets use, and "tickets without a queue"
// (showNoQueue) lets the user see waiting tickets that have no queue, on REST and in the sync view
// alike, leaving it again when switched off. Both are changed only by those allowed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { syncClient } from '../../../test/read-model.ts';
import { seedConnection, seedContact, seedQueue, seedTenant, seedTicket, seedUserQueues } from '../../../test/seed.ts';

describe.each(DIALECTS)('a user default connection and tickets without a queue on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it("new tickets leave through the user's default connection, set by an admin", async () => {
    const { company, user, adminSession, userSession } = await seedTenant(t);
    const first = await seedConnection(t, company.id, { name: 'Main line' });
    const second = await seedConnection(t, company.id, { name: 'Backup line' });
    const queue = await seedQueue(t, company.id);
    await seedUserQueues(t, company.id, user.id, [queue.id]);
    const open = async () => {
      const contact = await seedContact(t, company.id);
      const res = await t.request('POST', '/tickets', { token: userSession.token, body: { contactId: contact.id, status: 'open', userId: user.id, queueId: queue.id } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.whatsappId as number;
    };
    expect(await open()).toBe(first.id);
    const saved = await t.request('PUT', `/users/${user.id}`, { token: adminSession.token, body: { whatsappId: second.id } });
    expect(saved.body).toMatchObject({ whatsappId: second.id });
    expect(await open()).toBe(second.id);
    // The user may not choose it alone; '' (the modal's "none") goes back to the company's default.
    expect((await t.request('PUT', `/users/${user.id}`, { token: userSession.token, body: { whatsappId: first.id } })).status).toBe(403);
    await t.request('PUT', `/users/${user.id}`, { token: adminSession.token, body: { whatsappId: '' } });
    expect(await open()).toBe(first.id);
  });

  it('tickets without a queue show to the user on REST and sync once allowed, and leave when not', async () => {
    const { company, user, adminSession, userSession } = await seedTenant(t);
    await seedConnection(t, company.id);
    const waiting = await seedTicket(t, company.id, { status: 'pending', queueId: null });
    const key = `ticket/${waiting.id}`;
    const listed = async () => ((await t.request('GET', '/tickets?status=pending', { token: userSession.token })).body.tickets as { id: number }[]).map((x) => x.id);
    const client = syncClient(t, userSession.token);

    expect(await listed()).not.toContain(waiting.id);
    await client.pull();
    expect(client.get(key)).toBeUndefined();
    expect((await t.request('GET', `/tickets/${waiting.id}`, { token: userSession.token })).status).toBe(403);

    expect((await t.request('PUT', `/users/${user.id}`, { token: userSession.token, body: { showNoQueue: true } })).status).toBe(403);
    expect((await t.request('PUT', `/users/${user.id}`, { token: adminSession.token, body: { showNoQueue: true } })).body).toMatchObject({ showNoQueue: true });
    expect(await listed()).toContain(waiting.id);
    expect((await client.pull()).puts.has(key)).toBe(true);
    expect((await t.request('GET', `/tickets/${waiting.id}`, { token: userSession.token })).status).toBe(200);

    await t.request('PUT', `/users/${user.id}`, { token: adminSession.token, body: { showNoQueue: false } });
    expect(await listed()).not.toContain(waiting.id);
    expect((await client.pull()).dels.has(key)).toBe(true);
  });
});
