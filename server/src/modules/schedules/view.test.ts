// The schedules slice of the client view, read through POST /sync/pull as the web reads it, and
// the one read model (issue 12): the value at `schedule/<id>` is GET /schedules/{id}'s answer.
import { scheduledMessageSchema } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenant } from '../../db/tenant.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';
import { pullValue } from '../../../test/read-model.ts';

type Patch = { op: string; key?: string; value?: Record<string, unknown> }[];

describe.each(DIALECTS)('schedules in the sync view on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  let seq = 0;
  const pull = async (token: string, clientGroupID: string, cookie: unknown = null) => {
    const res = await t.request('POST', '/sync/pull', { token, body: { pullVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID, cookie } });
    expect(res.status).toBe(200);
    return res.body as { cookie: unknown; patch: Patch };
  };
  const schedulesIn = (patch: Patch) => patch.filter((p) => p.op === 'put' && p.key?.startsWith('schedule/'));

  it("admins get the company's schedules, users their own; changes and contact renames flow as puts and dels", async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    const contact = await tenant(t.db, a.company.id).insertInto('contacts', { name: 'Rita Alves', number: `55419${String(60000000 + ++seq)}` }).returningAll().executeTakeFirstOrThrow();
    const sendAt = new Date(Date.now() + 3600_000).toISOString();
    const post = (token: string, body: string) => t.request('POST', '/schedules', { token, body: { body, contactId: contact.id, sendAt } });
    const byAdmin = (await post(a.adminSession.token, 'From the admin')).body;
    const byUser = (await post(a.userSession.token, 'From the user')).body;

    const adminPull = await pull(a.adminSession.token, `admin-${seq}`);
    expect(schedulesIn(adminPull.patch).map((p) => p.key).sort()).toEqual([`schedule/${byAdmin.id}`, `schedule/${byUser.id}`].sort());
    expect(schedulesIn(adminPull.patch).find((p) => p.key === `schedule/${byUser.id}`)?.value).toMatchObject({
      id: byUser.id,
      body: 'From the user',
      status: 'PENDENTE',
      sendAt,
      contact: { id: contact.id, name: 'Rita Alves', number: contact.number },
      userId: a.user.id,
    });
    const userGroup = `user-${seq}`;
    const userPull = await pull(a.userSession.token, userGroup);
    expect(schedulesIn(userPull.patch).map((p) => p.key)).toEqual([`schedule/${byUser.id}`]);
    expect(schedulesIn((await pull(b.adminSession.token, `b-${seq}`)).patch)).toEqual([]);

    // A rename of the contact re-sends the schedule; a delete removes it.
    await tenant(t.db, a.company.id).updateTable('contacts').set((eb) => ({ name: 'Rita A. Alves', version: eb('contacts.version', '+', 1) })).where('id', '=', contact.id).execute();
    const renamed = await pull(a.userSession.token, userGroup, userPull.cookie);
    expect(schedulesIn(renamed.patch).map((p) => (p.value as { contact: { name: string } }).contact.name)).toEqual(['Rita A. Alves']);
    await t.request('DELETE', `/schedules/${byUser.id}`, { token: a.userSession.token });
    const deleted = await pull(a.userSession.token, userGroup, renamed.cookie);
    expect(deleted.patch).toContainEqual({ op: 'del', key: `schedule/${byUser.id}` });
  });

  it('REST and sync send the same schedule, it parses with scheduledMessageSchema, and renaming the author re-sends it', async () => {
    const a = await seedTenant(t);
    const contact = await tenant(t.db, a.company.id).insertInto('contacts', { name: 'Caio Souza', number: `55419${String(70000000 + ++seq)}` }).returningAll().executeTakeFirstOrThrow();
    const sendAt = new Date(Date.now() + 3600_000).toISOString();
    const created = await t.request('POST', '/schedules', { token: a.userSession.token, body: { body: 'Your order is ready', contactId: contact.id, sendAt } });
    expect(created.status).toBe(201);
    const key = `schedule/${created.body.id}`;

    for (const { token } of [a.adminSession, a.userSession]) {
      const rest = (await t.request('GET', `/schedules/${created.body.id}`, { token })).body;
      expect(rest).toMatchObject({ body: 'Your order is ready', status: 'PENDENTE', sendAt, contact: { name: 'Caio Souza' }, user: { id: a.user.id, name: a.user.name } });
      expect(await pullValue(t, token, key)).toEqual(rest);
      expect(scheduledMessageSchema.parse(rest)).toEqual(rest);
    }
    expect(created.body).toEqual((await t.request('GET', `/schedules/${created.body.id}`, { token: a.userSession.token })).body);

    // The author's name is part of the value, so renaming the author re-sends the schedule.
    const group = `rename-${++seq}`;
    const first = await pull(a.adminSession.token, group);
    await tenant(t.db, a.company.id).updateTable('users').set((eb) => ({ name: 'Renamed Author', version: eb('users.version', '+', 1) })).where('id', '=', a.user.id).execute();
    const next = await pull(a.adminSession.token, group, first.cookie);
    expect(schedulesIn(next.patch).map((p) => p.value?.user)).toEqual([{ id: a.user.id, name: 'Renamed Author' }]);
  });
});
