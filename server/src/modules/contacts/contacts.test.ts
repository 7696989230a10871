import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { loginAs, seedContact, seedTenant, seedTicket, seedUser } from '../../../test/seed.ts';
import { sliceBesideAnotherWrite } from '../../../test/slices.ts';
import { inSlices } from '../../db/slices.ts';
import { bumpVersion } from '../../sync/version.ts';
import { emptyContactSlice } from './service.ts';

describe.each(DIALECTS)('contacts on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const create = (token: string, body: unknown) => t.request('POST', '/contacts', { token, body });

  it('creates, reads, updates and deletes a contact with its extra info', async () => {
    const { adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const created = await create(token, {
      name: '  Maria Souza ',
      number: '+55 (11) 98888-7777',
      email: 'Maria@Example.com',
      extraInfo: [{ name: 'CPF', value: '123' }, { name: 'Plano', value: 'Ouro' }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Maria Souza', number: '5511988887777', email: 'maria@example.com', isGroup: false, version: 1 });
    expect(created.body.extraInfo).toEqual([expect.objectContaining({ name: 'CPF', value: '123' }), expect.objectContaining({ name: 'Plano', value: 'Ouro' })]);
    const id = created.body.id;

    const one = await t.request('GET', `/contacts/${id}`, { token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(created.body);

    const updated = await t.request('PUT', `/contacts/${id}`, { token, body: { name: 'Maria S.', number: '5511988887770', email: '', extraInfo: [{ name: 'Plano', value: 'Prata' }] } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Maria S.', number: '5511988887770', email: '', version: 2 });
    expect(updated.body.extraInfo).toEqual([expect.objectContaining({ name: 'Plano', value: 'Prata' })]);
    expect(updated.body.updatedAt >= created.body.updatedAt).toBe(true);

    // A field left out keeps its value, and so does the extra info.
    const renamed = await t.request('PUT', `/contacts/${id}`, { token, body: { name: 'Maria' } });
    expect(renamed.body).toMatchObject({ name: 'Maria', number: '5511988887770', version: 3, extraInfo: [expect.objectContaining({ value: 'Prata' })] });

    const removed = await t.request('DELETE', `/contacts/${id}`, { token });
    expect(removed.status).toBe(200);
    expect((await t.request('GET', `/contacts/${id}`, { token })).body.error).toBe('ERR_NO_CONTACT_FOUND');
    expect(await t.db.selectFrom('contactCustomFields').selectAll().where('contactId', '=', id).execute()).toEqual([]);
  });

  it("deleting a contact keeps what they said in a group's ticket, without them, with a new version", async () => {
    const { company, adminSession } = await seedTenant(t);
    const group = await seedTicket(t, company.id);
    const member = await seedContact(t, company.id, { name: 'Group member' });
    const said = await t.db.insertInto('messages').values({ companyId: company.id, wid: `w-${member.id}`, ticketId: group.id, contactId: member.id, body: 'Hi all' }).returningAll().executeTakeFirstOrThrow();
    expect((await t.request('DELETE', `/contacts/${member.id}`, { token: adminSession.token })).status).toBe(200);
    expect(await t.db.selectFrom('messages').select(['contactId', 'body', 'version']).where('id', '=', said.id).executeTakeFirstOrThrow()).toEqual({
      contactId: null,
      body: 'Hi all',
      version: said.version + 1,
    });
  });

  it("empties a deleted contact's messages a slice at a time, other writes in between; another company's id touches nothing", async () => {
    const { company, adminSession } = await seedTenant(t);
    const other = await seedTenant(t);
    const contact = await seedContact(t, company.id, { name: 'Busy customer' });
    const tickets = [await seedTicket(t, company.id, { contactId: contact.id }), await seedTicket(t, company.id, { contactId: contact.id, status: 'closed' })];
    const group = await seedTicket(t, company.id);
    const bystander = await seedContact(t, company.id, { name: 'Bystander' });
    const message = (ticketId: number, contactId: number, i: number) => ({ companyId: company.id, wid: `slice-${ticketId}-${contactId}-${i}`, ticketId, contactId, body: `m${i}` });
    await t.db.insertInto('messages').values([
      ...tickets.flatMap((tk) => [0, 1, 2].map((i) => message(tk.id, contact.id, i))),
      ...[0, 1].map((i) => message(group.id, contact.id, i)),
      message(group.id, bystander.id, 9),
    ]).execute();
    const left = async () => ({
      own: (await t.db.selectFrom('messages').select('id').where('ticketId', 'in', tickets.map((tk) => tk.id)).execute()).length,
      saidInGroup: (await t.db.selectFrom('messages').select('id').where('ticketId', '=', group.id).where('contactId', '=', contact.id).execute()).length,
    });
    expect(await left()).toEqual({ own: 6, saidInGroup: 2 });

    // Asked for by another company, the contact's id matches none of its rows.
    await inSlices(t.deps, (tx, limit) => emptyContactSlice(tx, other.company.id, contact.id, limit), 2);
    expect(await left()).toEqual({ own: 6, saidInGroup: 2 });

    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => emptyContactSlice(tx, company.id, contact.id, limit), async () => {
      const now = await left();
      return now.own + now.saidInGroup > 0;
    });
    expect(await left()).toEqual({ own: 0, saidInGroup: 0 });
    // What they said in the group stays, without them; the bystander's message is untouched.
    expect(await t.db.selectFrom('messages').select(['body', 'contactId']).where('ticketId', '=', group.id).orderBy('body').execute()).toEqual([
      { body: 'm0', contactId: null },
      { body: 'm1', contactId: null },
      { body: 'm9', contactId: bystander.id },
    ]);

    expect((await t.request('DELETE', `/contacts/${contact.id}`, { token: adminSession.token })).status).toBe(200);
    expect(await t.db.selectFrom('tickets').select('id').where('contactId', '=', contact.id).execute()).toEqual([]);
    expect((await t.request('GET', `/contacts/${bystander.id}`, { token: adminSession.token })).status).toBe(200);
  });

  it('validates name, number, email and extra info', async () => {
    const { adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const issueOf = async (body: unknown) => (await create(token, body)).body.issues?.[0]?.path;
    expect(await issueOf({ number: '5511999990000' })).toBe('name');
    expect(await issueOf({ name: 'A', number: '5511999990000' })).toBe('name');
    expect(await issueOf({ name: 'x'.repeat(51), number: '5511999990000' })).toBe('name');
    expect(await issueOf({ name: 'Ana' })).toBe('number');
    expect(await issueOf({ name: 'Ana', number: '123-45' })).toBe('number');
    expect(await issueOf({ name: 'Ana', number: 'call me 55119999' })).toBe('number');
    expect(await issueOf({ name: 'Ana', number: '1'.repeat(51) })).toBe('number');
    expect(await issueOf({ name: 'Ana', number: '5511999990000', email: 'nope' })).toBe('email');
    expect(await issueOf({ name: 'Ana', number: '5511999990000', extraInfo: [{ name: '', value: 'x' }] })).toBe('extraInfo.0.name');
    const bad = await create(token, { name: 'Ana', number: 5511 });
    expect(bad).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    // 50 digits is still a number (spec/02 §5: 8 to 50).
    expect((await create(token, { name: 'Long', number: '1'.repeat(50) })).status).toBe(201);
    expect((await t.request('PUT', '/contacts/1', { token, body: { email: 'x@' } })).status).toBe(400);
  });

  it('refuses a second contact with the same normalised number, on create and on update', async () => {
    const { company, adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const first = await create(token, { name: 'First', number: '5511977776666' });
    const dup = await create(token, { name: 'Second', number: '+55 11 97777-6666' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_DUPLICATED_CONTACT');
    const other = await create(token, { name: 'Other', number: '5511955554444' });
    const clash = await t.request('PUT', `/contacts/${other.body.id}`, { token, body: { number: '(55) 11 9777 76666' } });
    expect(clash.status).toBe(409);
    expect((await t.request('GET', `/contacts/${other.body.id}`, { token })).body).toMatchObject({ number: '5511955554444', version: 1 });
    // A refused write rolls back whole and pokes no one; a committed one pokes the company once.
    const pokes = vi.spyOn(t.deps.realtime, 'pokeCompany');
    const pokesOfCompany = () => pokes.mock.calls.filter(([id]) => id === company.id).length;
    try {
      const clashWithInfo = await t.request('PUT', `/contacts/${other.body.id}`, { token, body: { number: '5511977776666', extraInfo: [{ name: 'CPF', value: '1' }] } });
      expect(clashWithInfo.status).toBe(409);
      expect((await create(token, { name: 'Third', number: '5511977776666', extraInfo: [{ name: 'CPF', value: '2' }] })).status).toBe(409);
      expect(pokesOfCompany()).toBe(0);
      expect((await t.request('GET', `/contacts/${other.body.id}`, { token })).body).toMatchObject({ version: 1, extraInfo: [] });
      expect((await t.request('PUT', `/contacts/${other.body.id}`, { token, body: { name: 'Renamed' } })).status).toBe(200);
      expect(pokesOfCompany()).toBe(1);
    } finally {
      pokes.mockRestore();
    }
    // The same number in another company is another contact.
    const elsewhere = await seedTenant(t);
    expect((await create(elsewhere.adminSession.token, { name: 'First', number: '5511977776666' })).status).toBe(201);
    expect(first.status).toBe(201);
  });

  it('lists 20 by name with count, searches name and number through the index, filters by creation date', async () => {
    const { company, adminSession } = await seedTenant(t);
    const token = adminSession.token;
    for (let i = 0; i < 23; i++) await create(token, { name: `Cliente ${String(i).padStart(2, '0')}`, number: `55219000000${String(i).padStart(2, '0')}` });
    await create(token, { name: 'João da Silva', number: '5531987654321' });
    await create(token, { name: 'Joana Prado', number: '5531912345678' });

    const first = await t.request('GET', '/contacts?pageNumber=1', { token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ hasMore: true, count: 25 });
    expect(first.body.contacts).toHaveLength(20);
    expect(first.body.contacts[0]).toMatchObject({ name: 'Cliente 00', extraInfo: [] });
    const third = await t.request('GET', '/contacts/?pageNumber=2', { token });
    expect(third.body).toMatchObject({ hasMore: false, count: 25 });
    expect(third.body.contacts).toHaveLength(5);

    const names = async (q: string) => (await t.request('GET', `/contacts?searchParam=${encodeURIComponent(q)}`, { token })).body.contacts.map((c: { name: string }) => c.name);
    expect(await names('joao')).toEqual(['João da Silva']);
    expect(await names('jo')).toEqual(['Joana Prado', 'João da Silva']);
    expect(await names('silva jo')).toEqual(['João da Silva']);
    expect(await names('JOÃO')).toEqual(['João da Silva']);
    expect(await names('+55 31 9876')).toEqual(['João da Silva']);
    expect(await names('553191')).toEqual(['Joana Prado']);
    // FTS syntax in the input is only words: nothing reaches the query language.
    expect(await names('"*) OR 1=1 --')).toEqual([]);
    expect(await names('*')).toHaveLength(20);
    const counted = await t.request('GET', '/contacts?searchParam=cliente', { token });
    expect(counted.body).toMatchObject({ count: 23, hasMore: true });

    const old = await seedContact(t, company.id, { name: 'Old Timer', number: '5511000000001' });
    await t.db.updateTable('contacts').set({ createdAt: '2020-03-04T12:00:00.000Z', ...bumpVersion() }).where('id', '=', old.id).execute();
    const byDay = await t.request('GET', '/contacts?date=2020-03-04', { token });
    expect(byDay.body).toMatchObject({ count: 1, contacts: [expect.objectContaining({ name: 'Old Timer' })] });
    const range = await t.request('GET', '/contacts?dateStart=2020-03-01&dateEnd=2020-03-04', { token });
    expect(range.body.count).toBe(1);
    expect((await t.request('GET', '/contacts?dateEnd=2020-03-03', { token })).body.count).toBe(0);
    expect((await t.request('GET', '/contacts?dateStart=2020-03-05', { token })).body.count).toBe(25);
    expect((await t.request('GET', '/contacts?date=yesterday', { token })).status).toBe(400);

    const options = await t.request('GET', '/contacts/list', { token });
    expect(options.body).toHaveLength(26);
    expect(options.body[0]).toEqual({ id: expect.any(Number), name: 'Cliente 00', number: '5521900000000' });
    const filtered = await t.request('GET', '/contacts/list?name=joa', { token });
    expect(filtered.body.map((c: { name: string }) => c.name)).toEqual(['Joana Prado', 'João da Silva']);
  });

  it('lets admins and supervisors delete, not attendants', async () => {
    const { company, userSession, adminSession } = await seedTenant(t);
    const supervisor = await loginAs(t, await seedUser(t, company.id, { profile: 'supervisor' }));
    const a = await create(adminSession.token, { name: 'Keep me', number: '5511911112222' });
    const b = await create(adminSession.token, { name: 'Remove me', number: '5511933334444' });
    const refused = await t.request('DELETE', `/contacts/${a.body.id}`, { token: userSession.token });
    expect(refused).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await t.request('GET', `/contacts/${a.body.id}`, { token: userSession.token })).status).toBe(200);
    // Attendants may still create and edit.
    expect((await t.request('PUT', `/contacts/${a.body.id}`, { token: userSession.token, body: { name: 'Kept' } })).status).toBe(200);
    expect((await t.request('DELETE', `/contacts/${b.body.id}`, { token: supervisor.token })).status).toBe(200);
    expect((await t.request('DELETE', `/contacts/${b.body.id}`, { token: supervisor.token })).status).toBe(404);
  });

  it('deletes the contact with its tickets', async () => {
    const { company, adminSession } = await seedTenant(t);
    const contact = await seedContact(t, company.id);
    const ticket = await seedTicket(t, company.id, { contactId: contact.id });
    expect((await t.request('DELETE', `/contacts/${contact.id}`, { token: adminSession.token })).status).toBe(200);
    expect(await t.db.selectFrom('tickets').select('id').where('id', '=', ticket.id).executeTakeFirst()).toBeUndefined();
  });

  it('deletes a contact whose ticket has messages, the messages with it (no sender nulled behind the back of sync)', async () => {
    const { company, adminSession } = await seedTenant(t);
    const contact = await seedContact(t, company.id);
    const ticket = await seedTicket(t, company.id, { contactId: contact.id });
    await t.db.insertInto('messages').values({ companyId: company.id, wid: `w-own-${contact.id}`, ticketId: ticket.id, contactId: contact.id, body: 'Hello' }).execute();
    // The test database's version guard refuses the message update the foreign key's own `set null` would be.
    expect((await t.request('DELETE', `/contacts/${contact.id}`, { token: adminSession.token })).status).toBe(200);
    expect(await t.db.selectFrom('messages').select('id').where('ticketId', '=', ticket.id).execute()).toEqual([]);
  });

  it("refuses another company's contacts everywhere and leaves them unchanged", async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    const theirs = await create(b.adminSession.token, { name: 'Private', number: '5511944445555', extraInfo: [{ name: 'k', value: 'v' }] });
    const token = a.adminSession.token;
    const id = theirs.body.id;
    expect((await t.request('GET', `/contacts/${id}`, { token })).status).toBe(404);
    expect((await t.request('PUT', `/contacts/${id}`, { token, body: { name: 'Hijacked', extraInfo: [] } })).status).toBe(404);
    expect((await t.request('DELETE', `/contacts/${id}`, { token })).status).toBe(404);
    expect((await t.request('GET', '/contacts?searchParam=private', { token })).body).toEqual({ contacts: [], hasMore: false, count: 0 });
    expect((await t.request('GET', '/contacts/list', { token })).body).toEqual([]);
    const still = await t.request('GET', `/contacts/${id}`, { token: b.adminSession.token });
    expect(still.body).toMatchObject({ name: 'Private', version: 1, extraInfo: [expect.objectContaining({ name: 'k' })] });
    // Their number is free in this company.
    expect((await create(token, { name: 'Mine', number: '5511944445555' })).status).toBe(201);
  });

  it('needs a session and answers 404 for malformed ids', async () => {
    const { adminSession } = await seedTenant(t);
    expect((await t.request('GET', '/contacts')).status).toBe(401);
    expect((await t.request('GET', '/contacts/abc', { token: adminSession.token })).body.error).toBe('ERR_NO_CONTACT_FOUND');
    expect((await t.request('POST', '/contacts', { token: adminSession.token, body: '{"name":' })).body.error).toBe('ERR_INVALID_JSON');
  });
});
