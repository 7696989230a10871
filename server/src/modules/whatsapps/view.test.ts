// One read model (issue 12): for the same connection, GET /whatsapp/{id} and the value the sync
// view puts at `connection/<id>` are the same object for each viewer (the token for admins only,
// on both transports), and both are what `connectionSchema` describes; `session=0` leaves out the
// QR code and retries and still parses. Renaming a linked queue re-sends the connection.
import { connectionSchema } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';
import { pullValue, syncClient } from '../../../test/read-model.ts';

describe.each(DIALECTS)('connection read model on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('REST and sync send the same connection per viewer, and it parses with connectionSchema', async () => {
    const { adminSession, userSession } = await seedTenant(t);
    const admin = adminSession.token;
    const queue = (await t.request('POST', '/queue', { token: admin, body: { name: 'Sales', color: '#22C55E', greetingMessage: 'Hi' } })).body;
    const created = await t.request('POST', '/whatsapp', {
      token: admin,
      body: { name: 'Main line', provider: 'simulator', token: 'secret-token-123', queueIds: [queue.id], schedules: [{ weekdayEn: 'friday', startTime: '08:00', endTime: '12:00' }] },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const key = `connection/${id}`;

    const asAdmin = (await t.request('GET', `/whatsapp/${id}`, { token: admin })).body;
    expect(asAdmin).toMatchObject({ token: 'secret-token-123', qrcode: '', retries: 0, queueIds: [queue.id], queues: [{ id: queue.id, name: 'Sales' }] });
    expect(await pullValue(t, admin, key)).toEqual(asAdmin);
    expect(connectionSchema.parse(asAdmin)).toEqual(asAdmin);
    expect(created.body).toEqual(asAdmin);

    const asUser = (await t.request('GET', `/whatsapp/${id}`, { token: userSession.token })).body;
    expect(asUser).not.toHaveProperty('token');
    expect(await pullValue(t, userSession.token, key)).toEqual(asUser);
    expect(connectionSchema.parse(asUser)).toEqual(asUser);
    const { token: _token, ...withoutToken } = asAdmin;
    expect(asUser).toEqual(withoutToken);

    // The side menu's light list: the same schema without the session details.
    const light = (await t.request('GET', '/whatsapp?session=0', { token: userSession.token })).body.find((w: { id: number }) => w.id === id);
    const { qrcode: _qrcode, retries: _retries, ...lightExpected } = asUser;
    expect(light).toEqual(lightExpected);
    expect(connectionSchema.parse(light)).toEqual(light);

    // The value shows the queue's name: renaming the queue re-sends the connection to a synced client.
    const client = syncClient(t, admin);
    await client.pull();
    expect((await t.request('PUT', `/queue/${queue.id}`, { token: admin, body: { name: 'Sales team' } })).status).toBe(200);
    const renamed = (await t.request('GET', `/whatsapp/${id}`, { token: admin })).body;
    expect(renamed.queues).toMatchObject([{ id: queue.id, name: 'Sales team' }]);
    expect((await client.pull()).puts.get(key)).toEqual(renamed);
  });
});
