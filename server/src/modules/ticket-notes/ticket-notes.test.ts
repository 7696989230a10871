import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { loginAs, seedContact, seedTenant, seedTicket, seedUser } from '../../../test/seed.ts';

describe.each(DIALECTS)('ticket notes on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('adds notes, lists them newest first with their author, and deletes them', async () => {
    const { company, user, userSession } = await seedTenant(t);
    const ticket = await seedTicket(t, company.id, { userId: user.id });
    const token = userSession.token;
    const first = await t.request('POST', '/ticket-notes', { token, body: { note: '  Called back ', ticketId: ticket.id, contactId: ticket.contactId } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ note: 'Called back', ticketId: ticket.id, contactId: ticket.contactId, user: { id: user.id, name: user.name } });
    expect(typeof first.body.createdAt).toBe('string');
    const second = await t.request('POST', '/ticket-notes', { token, body: { note: 'Wants a refund', ticketId: ticket.id, contactId: ticket.contactId } });

    const list = await t.request('GET', `/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`, { token });
    expect(list.status).toBe(200);
    expect(list.body.map((n: { id: number }) => n.id)).toEqual([second.body.id, first.body.id]);
    expect(list.body[0]).toMatchObject({ note: 'Wants a refund', user: { id: user.id, name: user.name } });

    expect((await t.request('DELETE', `/ticket-notes/${first.body.id}`, { token })).status).toBe(200);
    const after = await t.request('GET', `/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`, { token });
    expect(after.body.map((n: { id: number }) => n.id)).toEqual([second.body.id]);
  });

  it('validates the note and the ticket/contact pair', async () => {
    const { company, adminSession } = await seedTenant(t);
    const ticket = await seedTicket(t, company.id);
    const stranger = await seedContact(t, company.id);
    const token = adminSession.token;
    const short = await t.request('POST', '/ticket-notes', { token, body: { note: ' a ', ticketId: ticket.id, contactId: ticket.contactId } });
    expect(short.status).toBe(400);
    expect(short.body.issues[0]).toMatchObject({ path: 'note', message: 'Too Short!' });
    expect((await t.request('POST', '/ticket-notes', { token, body: { note: 'ok ok' } })).status).toBe(400);
    expect((await t.request('POST', '/ticket-notes', { token, body: '{bad' })).body.error).toBe('ERR_INVALID_JSON');
    const wrongContact = await t.request('POST', '/ticket-notes', { token, body: { note: 'Fine note', ticketId: ticket.id, contactId: stranger.id } });
    expect(wrongContact.status).toBe(404);
    expect(wrongContact.body.error).toBe('ERR_NO_CONTACT_FOUND');
    expect((await t.request('GET', `/ticket-notes/list?ticketId=${ticket.id}`, { token })).status).toBe(400);
    expect(await t.db.selectFrom('ticketNotes').selectAll().where('ticketId', '=', ticket.id).execute()).toEqual([]);
  });

  it('lets only the author or an admin delete a note', async () => {
    const { company, user, userSession, adminSession } = await seedTenant(t);
    const colleague = await seedUser(t, company.id);
    const ticket = await seedTicket(t, company.id, { userId: user.id });
    const body = { note: 'Mine alone', ticketId: ticket.id, contactId: ticket.contactId };
    const note = await t.request('POST', '/ticket-notes', { token: userSession.token, body });
    // The colleague cannot see this ticket at all; an admin can, and may delete.
    const colleagueSession = await loginAs(t, colleague);
    expect((await t.request('DELETE', `/ticket-notes/${note.body.id}`, { token: colleagueSession.token })).status).toBe(403);
    const byAdmin = await t.request('POST', '/ticket-notes', { token: adminSession.token, body });
    expect((await t.request('DELETE', `/ticket-notes/${byAdmin.body.id}`, { token: userSession.token })).status).toBe(403);
    expect((await t.request('DELETE', `/ticket-notes/${note.body.id}`, { token: adminSession.token })).status).toBe(200);
  });

  it('refuses tickets outside the view and another company ids', async () => {
    const mine = await seedTenant(t);
    const theirs = await seedTenant(t);
    const hidden = await seedTicket(t, mine.company.id, { userId: mine.admin.id });
    const theirTicket = await seedTicket(t, theirs.company.id);
    const theirNote = await t.request('POST', '/ticket-notes', {
      token: theirs.adminSession.token,
      body: { note: 'Their note', ticketId: theirTicket.id, contactId: theirTicket.contactId },
    });
    const token = mine.userSession.token;
    expect((await t.request('POST', '/ticket-notes', { token, body: { note: 'Peek', ticketId: hidden.id, contactId: hidden.contactId } })).status).toBe(403);
    expect((await t.request('GET', `/ticket-notes/list?ticketId=${hidden.id}&contactId=${hidden.contactId}`, { token })).status).toBe(403);
    const admin = mine.adminSession.token;
    const foreign = await t.request('POST', '/ticket-notes', { token: admin, body: { note: 'Sneaky', ticketId: theirTicket.id, contactId: theirTicket.contactId } });
    expect(foreign.status).toBe(404);
    expect((await t.request('GET', `/ticket-notes/list?ticketId=${theirTicket.id}&contactId=${theirTicket.contactId}`, { token: admin })).status).toBe(404);
    expect((await t.request('DELETE', `/ticket-notes/${theirNote.body.id}`, { token: admin })).status).toBe(404);
    expect((await t.request('DELETE', '/ticket-notes/nope', { token: admin })).status).toBe(404);
  });
});
