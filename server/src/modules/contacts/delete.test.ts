// DELETE /contacts/{id} of a contact with many tickets (routes.ts): its messages, then its tickets
// with what hangs on them, a slice per write, then the contact. Every row that named the contact
// or its tickets goes, the foreign keys of the schema being the list; other contacts and companies
// keep theirs; a delete cut short finishes when asked again.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { noneNaming, rowsNaming } from '../../../test/schema-facts.ts';
import { seedContact, seedTenant, seedTicket } from '../../../test/seed.ts';
import { expectSearches, sliceBesideAnotherWrite, slicePlans } from '../../../test/slices.ts';
import { inSlices } from '../../db/slices.ts';
import { tenant } from '../../db/tenant.ts';
import { write } from '../../db/write.ts';
import { waitFor } from '../../channels/testing.ts';
import { saveTicketMedia } from '../media/storage.ts';
import { deleteContact, deleteContactTicketsSlice, emptyContactSlice } from './service.ts';

describe.each(DIALECTS)('deleting a contact with its tickets on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  /** A contact with `n` tickets, each with a message and one row of everything else that hangs on a ticket. */
  async function busyContact(companyId: number, n: number) {
    const db = tenant(t.db, companyId);
    const contact = await seedContact(t, companyId);
    const tag = await db.insertInto('tags', { name: `tag ${contact.id}`, color: '#123456' }).returning('tags.id').executeTakeFirstOrThrow();
    const flow = await db.insertInto('flows', { name: `flow ${contact.id}` }).returning('flows.id').executeTakeFirstOrThrow();
    const version = await db.insertInto('flowVersions', { flowId: flow.id, graph: '{}', versionNo: 1 }).returning('flowVersions.id').executeTakeFirstOrThrow();
    const bot = await db.insertInto('queueIntegrations', { name: `bot ${contact.id}`, type: 'typebot' }).returning('queueIntegrations.id').executeTakeFirstOrThrow();
    const ids = { contact: [contact.id], tickets: [] as number[], messages: [] as number[], runs: [] as number[] };
    for (let i = 0; i < n; i++) {
      const ticket = await seedTicket(t, companyId, { contactId: contact.id, status: i === 0 ? 'open' : 'closed' });
      const message = await db.insertInto('messages', { wid: `del-${ticket.id}`, ticketId: ticket.id, contactId: contact.id, body: 'hi' }).returning('messages.id').executeTakeFirstOrThrow();
      await db.insertInto('ticketTags', { ticketId: ticket.id, tagId: tag.id }).execute();
      await db.insertInto('ticketNotes', { ticketId: ticket.id, contactId: contact.id, note: 'a note' }).execute();
      await db.insertInto('ticketTrackings', { ticketId: ticket.id }).execute();
      await db.insertInto('userRatings', { ticketId: ticket.id, rate: 3 }).execute();
      const run = await db.insertInto('flowRuns', { ticketId: ticket.id, flowId: flow.id, flowVersionId: version.id, state: '{}', status: 'ended' }).returning('flowRuns.id').executeTakeFirstOrThrow();
      await db.insertInto('flowTimers', { runId: run.id, timerId: 'wait', dueAt: new Date().toISOString(), status: 'fired' }).execute();
      await db.insertInto('assistantTurns', { ticketId: ticket.id, messageId: message.id, kind: 'prompt', targetId: 1, state: 'done' }).execute();
      await db.insertInto('assistantSessions', { ticketId: ticket.id, integrationId: bot.id, sessionId: `s-${ticket.id}` }).execute();
      await db.insertInto('schedules', { ticketId: ticket.id, contactId: contact.id, body: 'later', sendAt: new Date(Date.now() + 86_400_000).toISOString() }).execute();
      ids.tickets.push(ticket.id);
      ids.messages.push(message.id);
      ids.runs.push(run.id);
    }
    return { contact, ids };
  }

  /** For each foreign key of the schema to contacts, tickets, messages or flow runs: its rows naming one of `ids`. */
  const naming = (ids: { contact: number[]; tickets: number[]; messages: number[]; runs: number[] }) =>
    rowsNaming(t, { contacts: ids.contact, tickets: ids.tickets, messages: ids.messages, flow_runs: ids.runs });
  const none = noneNaming;
  const ticketsOf = async (contactId: number) => (await t.db.selectFrom('tickets').select('id').where('contactId', '=', contactId).execute()).length;

  it("deletes a contact's tickets a slice at a time, what names them first, other writes in between; another company's id touches nothing", async () => {
    const { company, adminSession } = await seedTenant(t);
    const other = await seedTenant(t);
    const busy = await busyContact(company.id, 3);
    const bystander = await busyContact(company.id, 1);
    const before = await naming(busy.ids);
    // Each kind of row is there, so that the counts below say something.
    expect(before).toMatchObject({
      'tickets.contact_id': 3, 'messages.ticket_id': 3, 'ticket_tags.ticket_id': 3, 'ticket_notes.ticket_id': 3, 'ticket_trackings.ticket_id': 3,
      'user_ratings.ticket_id': 3, 'flow_runs.ticket_id': 3, 'flow_timers.run_id': 3, 'assistant_turns.ticket_id': 3, 'assistant_sessions.ticket_id': 3,
      'schedules.ticket_id': 3, 'schedules.contact_id': 3,
    });
    const bystanderBefore = await naming(bystander.ids);
    const schedules = () => t.db.selectFrom('schedules').select(['ticketId', 'version']).where('contactId', '=', busy.contact.id).orderBy('id').execute();
    const schedulesBefore = await schedules();

    // Asked for by another company, the contact's id matches none of its rows.
    await inSlices(t.deps, (tx, limit) => deleteContactTicketsSlice(tx, other.company.id, busy.contact.id, limit), 2);
    expect(await naming(busy.ids)).toEqual(before);

    await inSlices(t.deps, (tx, limit) => emptyContactSlice(tx, company.id, busy.contact.id, limit), 2);
    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => deleteContactTicketsSlice(tx, company.id, busy.contact.id, limit), async () => (await ticketsOf(busy.contact.id)) > 0);
    const after = await naming(busy.ids);
    // The contact and what names it alone stay for its own write; nothing names its tickets any more.
    expect(after).toEqual({ ...none(after), 'schedules.contact_id': 3, 'ticket_notes.contact_id': 0 });
    // Its schedules let go of the tickets with a new version, as synced clients must see.
    expect(await schedules()).toEqual(schedulesBefore.map((s) => ({ ticketId: null, version: s.version + 1 })));
    expect((await t.request('GET', `/contacts/${busy.contact.id}`, { token: adminSession.token })).status).toBe(200);
    expect(await naming(bystander.ids)).toEqual(bystanderBefore);

    expect((await t.request('DELETE', `/contacts/${busy.contact.id}`, { token: adminSession.token })).status).toBe(200);
    const gone = await naming(busy.ids);
    expect(gone).toEqual(none(gone));
    expect(await naming(bystander.ids)).toEqual(bystanderBefore);
  });

  it('the route deletes everything that named the contact; a delete cut short between slices finishes when asked again', async () => {
    const { company, admin, adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const whole = await busyContact(company.id, 3);
    expect((await t.request('DELETE', `/contacts/${whole.contact.id}`, { token })).status).toBe(200);
    const gone = await naming(whole.ids);
    expect(Object.keys(gone).length).toBeGreaterThanOrEqual(15);
    expect(gone).toEqual(none(gone));

    // Cut short: some messages emptied, then one ticket slice of 12 rows (the children of the first
    // tickets only), as a process that died there leaves it. On SQLite each statement's plan is checked.
    const cut = await busyContact(company.id, 3);
    const plans = [
      ...(await slicePlans(t, (tx, limit) => emptyContactSlice(tx, company.id, cut.contact.id, limit), 2)),
      ...(await slicePlans(t, (tx, limit) => deleteContactTicketsSlice(tx, company.id, cut.contact.id, limit), 12)),
    ];
    if (dialect === 'sqlite') expectSearches(plans);
    const partial = await naming(cut.ids);
    expect(partial['tickets.contact_id']).toBe(3);
    expect(partial['flow_timers.run_id']).toBe(0);
    expect(partial['ticket_tags.ticket_id']).toBe(3);
    expect((await t.request('GET', `/contacts/${cut.contact.id}`, { token })).status).toBe(200);

    expect((await t.request('DELETE', `/contacts/${cut.contact.id}`, { token })).status).toBe(200);
    const finished = await naming(cut.ids);
    expect(finished).toEqual(none(finished));
    expect((await t.request('GET', `/contacts/${cut.contact.id}`, { token })).status).toBe(404);

    // The contact's own write finds a ticket opened after the slices: a schedule naming it lets go
    // of it with a version bump (the test database's guard refuses the foreign key's silent set null).
    const late = await busyContact(company.id, 1);
    const actor = { userId: admin.id, companyId: company.id, profile: 'admin' as const, super: false, sessionId: 'test' };
    await write(t.deps, (tx) => deleteContact(tx, actor, late.contact.id));
    const lateGone = await naming(late.ids);
    expect(lateGone).toEqual(none(lateGone));
  });

  it("a quote of the contact's messages in another ticket lets go with a new version; its tickets' media folders go", async () => {
    const { company, admin, adminSession } = await seedTenant(t);
    const db = tenant(t.db, company.id);
    const elsewhere = await seedTicket(t, company.id, { contactId: (await seedContact(t, company.id)).id });
    const folderOf = (ticketId: number) => path.join(t.deps.config.mediaDir, String(company.id), 'tickets', String(ticketId));
    /** A contact whose one ticket holds a file, and a message of another ticket quoting its message. */
    const quotedContact = async () => {
      const busy = await busyContact(company.id, 1);
      await saveTicketMedia(t.deps.config.mediaDir, company.id, busy.ids.tickets[0]!, { data: Buffer.from('%PDF-1.4'), fileName: 'a.pdf', mimeType: 'application/pdf', mediaType: 'application', kind: 'document' });
      const reply = await db
        .insertInto('messages', { wid: `quote-${busy.ids.messages[0]}`, ticketId: elsewhere.id, contactId: elsewhere.contactId, body: 'about that', quotedMsgId: busy.ids.messages[0]! })
        .returningAll()
        .executeTakeFirstOrThrow();
      expect(existsSync(folderOf(busy.ids.tickets[0]!))).toBe(true);
      return { busy, reply };
    };
    const replyNow = (id: number) => db.selectFrom('messages').select(['body', 'quotedMsgId', 'version']).where('messages.id', '=', id).executeTakeFirstOrThrow();

    // Through the route (the slices).
    const sliced = await quotedContact();
    expect((await t.request('DELETE', `/contacts/${sliced.busy.contact.id}`, { token: adminSession.token })).status).toBe(200);
    expect(await replyNow(sliced.reply.id)).toEqual({ body: 'about that', quotedMsgId: null, version: sliced.reply.version + 1 });
    await waitFor(async () => existsSync(folderOf(sliced.busy.ids.tickets[0]!)), (exists) => !exists);

    // The contact's own write alone (tickets opened after the slices): the same.
    const late = await quotedContact();
    const actor = { userId: admin.id, companyId: company.id, profile: 'admin' as const, super: false, sessionId: 'test' };
    await write(t.deps, (tx) => deleteContact(tx, actor, late.busy.contact.id));
    expect(await replyNow(late.reply.id)).toEqual({ body: 'about that', quotedMsgId: null, version: late.reply.version + 1 });
    await waitFor(async () => existsSync(folderOf(late.busy.ids.tickets[0]!)), (exists) => !exists);
    // The other ticket's own folder was never touched.
    expect(await db.selectFrom('tickets').select('tickets.id').where('tickets.id', '=', elsewhere.id).execute()).toHaveLength(1);
  });

  it('a whole run of ticket slices: every statement searches an index on SQLite, and the contact then goes', async () => {
    const { company, adminSession } = await seedTenant(t);
    const small = await busyContact(company.id, 2);
    const plans = await slicePlans(t, (tx, limit) => deleteContactTicketsSlice(tx, company.id, small.contact.id, limit), 1_000);
    if (dialect === 'sqlite') expectSearches(plans);
    expect(await ticketsOf(small.contact.id)).toBe(0);
    expect((await t.request('DELETE', `/contacts/${small.contact.id}`, { token: adminSession.token })).status).toBe(200);
    const gone = await naming(small.ids);
    expect(gone).toEqual(none(gone));
  });
});
