// Ticket notes in the client view, read through POST /sync/pull: each note is what
// GET /ticket-notes/list answers for it, its author's name included.
import { ticketNoteSchema, type TicketNote } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { expectOneReadModel, syncClient } from '../../../test/read-model.ts';
import { seedTenant, seedTicket } from '../../../test/seed.ts';

describe.each(DIALECTS)('ticket notes in the sync view on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('puts each note as GET /ticket-notes/list answers it, and again when its author is renamed', async () => {
    const { company, user, userSession, adminSession } = await seedTenant(t);
    const ticket = await seedTicket(t, company.id, { userId: user.id });
    const token = userSession.token;
    const body = { ticketId: ticket.id, contactId: ticket.contactId };
    expect((await t.request('POST', '/ticket-notes', { token, body: { ...body, note: 'Call at 5' } })).status).toBe(201);
    expect((await t.request('POST', '/ticket-notes', { token: adminSession.token, body: { ...body, note: 'VIP customer' } })).status).toBe(201);

    const client = syncClient(t, token);
    const expectSame = async () => {
      await client.pull();
      const rest = await t.request('GET', `/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`, { token });
      expect(rest.status).toBe(200);
      const notes = rest.body as TicketNote[];
      expect(notes).toHaveLength(2);
      for (const n of notes) expectOneReadModel(ticketNoteSchema, n, client.get(`ticketNote/${n.id}`));
      return notes;
    };
    await expectSame();
    const renamed = `Ana ${Date.now()}`;
    expect((await t.request('PUT', `/users/${user.id}`, { token: adminSession.token, body: { name: renamed } })).status).toBe(200);
    const notes = await expectSame();
    expect(notes.find((n) => n.userId === user.id)?.user).toEqual({ id: user.id, name: renamed });
  });
});
