// The read worker (README.md): pulls (HTTP and the poke socket) and the ticket list answered on a
// thread of its own, the same answers as on the main thread, its writes made by the main thread's
// writer, refusals alike, and reads going on while it dies and comes back.
import { ticketListQuerySchema } from '@zapdesk/sync';
import type { PatchOperation, PullResponseOKV1 } from 'replicache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../context.ts';
import { tenant } from '../db/tenant.ts';
import { DIALECTS } from '../../test/harness.ts';
import { connectClient, startLiveApp, waitFor, type LiveApp } from '../../test/live.ts';
import { seedContact, seedTenant, seedTicket } from '../../test/seed.ts';
import { localReads, type ReadWorker } from './host.ts';

describe.each(DIALECTS)('the read worker (%s)', (dialect) => {
  let live: LiveApp;
  let reads: ReadWorker;
  beforeAll(async () => {
    live = await startLiveApp(dialect, { readWorker: true });
    reads = live.deps.reads as ReadWorker;
    await waitFor(() => reads.threaded, 30_000, 'the read worker');
  }, 60_000);
  afterAll(() => live.close());

  async function seedDesk() {
    const w = await seedTenant(live);
    const tickets = [];
    for (let i = 0; i < 3; i++) {
      const contact = await seedContact(live, w.company.id, { name: `Cliente ${['Alfa', 'Beta', 'Gama'][i]}` });
      tickets.push(await seedTicket(live, w.company.id, { contactId: contact.id, status: 'open', userId: w.admin.id }));
    }
    const actor: Actor = { userId: w.admin.id, companyId: w.company.id, profile: 'admin', super: false, sessionId: 'test' };
    return { ...w, tickets, actor };
  }
  const pullBody = (clientGroupID: string, cookie: unknown) => ({ pullVersion: 1, clientGroupID, cookie, profileID: 'p', schemaVersion: '' });
  const byKey = (patch: PatchOperation[]) => Object.fromEntries(patch.map((op) => [op.op === 'clear' ? 'clear' : `${op.op} ${op.key}`, op]));

  it('answers the ticket list and pulls as the main thread would, and its CVRs are written by the main thread', async () => {
    const w = await seedDesk();
    const here = localReads(live.deps);
    const before = reads.answered;

    const list = await live.request('GET', '/tickets?status=open&showAll=true', { token: w.adminSession.token });
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toMatch(/^application\/json/);
    expect(list.body.tickets.map((t: { id: number }) => t.id).sort()).toEqual(w.tickets.map((t) => t.id).sort());
    const local = await here.run('ticketsPage', { actor: w.actor, query: ticketListQuerySchema.parse({ status: 'open', showAll: 'true' }) });
    expect(list.body).toEqual(JSON.parse(local.text));
    // A search too (its full-text indexes, the folding function).
    const found = await live.request('GET', '/tickets?searchParam=Beta&showAll=true', { token: w.adminSession.token });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.tickets.map((t: { id: number }) => t.id)).toEqual([w.tickets[1]!.id]);
    const foundHere = await here.run('ticketsPage', { actor: w.actor, query: ticketListQuerySchema.parse({ searchParam: 'Beta', showAll: 'true' }) });
    expect(found.body).toEqual(JSON.parse(foundHere.text));

    // A full pull over HTTP, against the same pull made on this thread for another client group.
    const first = await live.request('POST', '/sync/pull', { token: w.adminSession.token, body: pullBody(`rw-${w.company.id}`, null) });
    expect(first.status).toBe(200);
    const mine = await here.run('pull', { token: w.adminSession.token, body: pullBody(`rw-here-${w.company.id}`, null) });
    const theirs = JSON.parse(mine.text) as PullResponseOKV1;
    expect(byKey((first.body as PullResponseOKV1).patch)).toEqual(byKey(theirs.patch));
    expect(Object.keys(byKey(theirs.patch))).toEqual(expect.arrayContaining(w.tickets.map((t) => `put ticket/${t.id}`)));
    // The list, the search and the pull: the worker answered each.
    expect(reads.answered).toBe(before + 3);

    // The CVR is stored (a write the worker asked of this thread), so the next pull is incremental.
    // The worker answers once the CVR is sent to the writer, not once stored (store.ts answerBeforeSaved).
    const stored = () => tenant(live.db, w.company.id).selectFrom('replicacheCvrs').select(['replicacheCvrs.version']).where('replicacheCvrs.clientGroupId', '=', `rw-${w.company.id}`).execute();
    await waitFor(async () => (await stored()).length > 0, 5_000, 'the CVR stored');
    expect((await stored()).map((c) => c.version)).toEqual([first.body.cookie.order]);
    const tag = await live.request('POST', '/tags', { token: w.adminSession.token, body: { name: 'Urgente', color: '#ff0000' } });
    expect(tag.status).toBe(201);
    const next = await live.request('POST', '/sync/pull', { token: w.adminSession.token, body: pullBody(`rw-${w.company.id}`, first.body.cookie) });
    expect(next.status).toBe(200);
    expect(next.body.patch).toEqual([{ op: 'put', key: `tag/${tag.body.id}`, value: expect.objectContaining({ name: 'Urgente' }) }]);
    expect(next.body.cookie.order).toBeGreaterThan(first.body.cookie.order);

    // A message stored just before the search is found: the search index's catch-up is a write,
    // which the worker asks of this thread (on PostgreSQL the index is kept in the same transaction).
    const gama = w.tickets[2]!;
    await tenant(live.db, w.company.id).insertInto('messages', [{ wid: `rw-${gama.id}`, ticketId: gama.id, contactId: gama.contactId, body: 'segunda via do boleto' }]).execute();
    const byMessage = await live.request('GET', '/tickets?searchParam=boleto&showAll=true', { token: w.adminSession.token });
    expect(byMessage.status, JSON.stringify(byMessage.body)).toBe(200);
    expect(byMessage.body.tickets.map((t: { id: number }) => t.id)).toEqual([gama.id]);
  });

  it('refuses as the main thread does, and never shows another company', async () => {
    const w = await seedDesk();
    const other = await seedDesk();
    const group = `rw-own-${w.company.id}`;
    expect((await live.request('POST', '/sync/pull', { token: w.adminSession.token, body: pullBody(group, null) })).status).toBe(200);

    const foreign = await live.request('POST', '/sync/pull', { token: other.adminSession.token, body: pullBody(group, null) });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe('ERR_NO_PERMISSION');
    const wrong = await live.request('POST', '/sync/pull', { token: w.adminSession.token, body: { pullVersion: 1, clientGroupID: 7 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('ERR_VALIDATION');
    const old = await live.request('POST', '/sync/pull', { token: w.adminSession.token, body: { ...pullBody(group, null), pullVersion: 0 } });
    expect(old.body).toEqual({ error: 'VersionNotSupported', versionType: 'pull' });
    const anonymous = await live.request('POST', '/sync/pull', { token: 'not-a-token', body: pullBody(group, null) });
    expect(anonymous.status, JSON.stringify(anonymous.body)).toBe(401);
    expect(anonymous.body.error).toBe('ERR_SESSION_EXPIRED');

    // A session ended after its token was checked once: the worker reads the session itself.
    expect((await live.request('DELETE', '/auth/logout', { token: w.adminSession.token, cookie: w.adminSession.cookie })).status).toBeLessThan(300);
    const ended = await live.request('POST', '/sync/pull', { token: w.adminSession.token, body: pullBody(group, null) });
    expect(ended.status, JSON.stringify(ended.body)).toBe(401);
    expect(ended.body.error).toBe('ERR_SESSION_EXPIRED');

    const theirs = await live.request('GET', '/tickets?status=open&showAll=true', { token: other.adminSession.token });
    expect(theirs.body.tickets.map((t: { id: number }) => t.id).sort()).toEqual(other.tickets.map((t) => t.id).sort());
  });

  it('serves a real Replicache client over the poke socket', async () => {
    const w = await seedDesk();
    const before = reads.answered;
    const client = await connectClient(live, w.admin);
    try {
      await client.rep.pull();
      await waitFor(async () => (await client.rep.query((tx) => tx.scan({ prefix: 'ticket/' }).keys().toArray())).length === w.tickets.length, 10_000, 'the tickets');
      const tag = await live.request('POST', '/tags', { token: w.userSession.token, body: { name: 'VIP', color: '#00ff00' } });
      expect(tag.status).toBe(201);
      // The poke carries the pull the worker ran for this socket.
      await waitFor(() => client.rep.query((tx) => tx.get(`tag/${tag.body.id}`)), 10_000, 'the new tag');
      expect(reads.answered).toBeGreaterThanOrEqual(before + 2);
    } finally {
      await client.close();
    }
  });

  it('goes on answering while the worker dies: reads run on the main thread until it is back', async () => {
    const w = await seedDesk();
    const inFlight = live.request('POST', '/sync/pull', { token: w.adminSession.token, body: pullBody(`rw-dies-${w.company.id}`, null) });
    await reads.thread!.terminate();
    expect((await inFlight).status).toBe(200);
    expect(reads.threaded).toBe(false);
    const meanwhile = await live.request('GET', '/tickets?status=open&showAll=true', { token: w.adminSession.token });
    expect(meanwhile.status).toBe(200);
    expect(meanwhile.body.tickets).toHaveLength(w.tickets.length);
    expect(live.log.lines.some((l) => l.msg.startsWith('read worker stopped'))).toBe(true);

    await waitFor(() => reads.threaded, 30_000, 'the read worker back');
    const before = reads.answered;
    const again = await live.request('POST', '/sync/pull', { token: w.adminSession.token, body: pullBody(`rw-dies-${w.company.id}`, (await inFlight).body.cookie) });
    expect(again.status).toBe(200);
    expect(reads.answered).toBe(before + 1);
  }, 60_000);
});
