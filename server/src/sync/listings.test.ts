// Shared, content-addressed CVR listings (store.ts): one row per distinct listing of a company,
// CVR rows as maps view → listing id, a lost listing meaning a full resync, and garbage collection.
import { sql } from 'kysely';
import type { PatchOperation } from 'replicache';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Actor } from '../context.ts';
import { tenant } from '../db/tenant.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { seedCompany, seedPlan, seedTicket, seedUser } from '../../test/seed.ts';
import { pull } from './pull.ts';
import { CVRS_KEPT } from './cvr-writer.ts';
import { createSyncStore } from './store.ts';
import { VIEWS } from './views/index.ts';

describe.each(DIALECTS)('shared CVR listings (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  async function seedTeam() {
    const plan = await seedPlan(t);
    const company = await seedCompany(t, { planId: plan.id });
    const admin = await seedUser(t, company.id, { profile: 'admin' });
    const user = await seedUser(t, company.id, { profile: 'user' });
    const db = tenant(t.db, company.id);
    const tags = await db.insertInto('tags', [{ name: 't1' }, { name: 't2' }]).returning('id').execute();
    const qms = await db
      .insertInto('quickMessages', [
        { shortcode: 'shared', message: 'for all', geral: 1, userId: admin.id },
        { shortcode: 'admin-own', message: 'admin only', geral: 0, userId: admin.id },
        { shortcode: 'user-own', message: 'user only', geral: 0, userId: user.id },
      ])
      .returning('id')
      .execute();
    const actor = (u: { id: number; profile: string }): Actor => ({ userId: u.id, companyId: company.id, profile: u.profile as Actor['profile'], super: false, sessionId: 's' });
    return { company, db, tags: tags.map((r) => r.id), qms: qms.map((r) => r.id), admin: actor(admin), user: actor(user) };
  }

  const req = (clientGroupID: string, cookie: unknown) => ({ pullVersion: 1 as const, clientGroupID, cookie, profileID: 'p', schemaVersion: '' });
  const keysOf = (patch: PatchOperation[], op: 'put' | 'del') => patch.filter((p) => p.op === op).map((p) => (p as { key: string }).key).sort();
  const listingRows = (db: TestApp['db'], companyId: number) => tenant(db, companyId).selectFrom('replicacheListings').select(['replicacheListings.id', 'replicacheListings.entries']).execute();

  it('stores a listing once for everyone who sees it, and keeps what two audiences see apart', async () => {
    const w = await seedTeam();
    const store = createSyncStore(t.db, dialect);
    const forAdmin = await pull(t.deps, store, w.admin, req(`ga-${w.company.id}`, null));
    const forUser = await pull(t.deps, store, w.user, req(`gu-${w.company.id}`, null));
    const [shared, adminOwn, userOwn] = w.qms;
    expect(keysOf(forAdmin.response.patch, 'put')).toEqual(expect.arrayContaining([`quickMessage/${shared}`, `quickMessage/${adminOwn}`]));
    expect(keysOf(forAdmin.response.patch, 'put')).not.toContain(`quickMessage/${userOwn}`);
    expect(keysOf(forUser.response.patch, 'put')).toEqual(expect.arrayContaining([`quickMessage/${shared}`, `quickMessage/${userOwn}`]));
    expect(keysOf(forUser.response.patch, 'put')).not.toContain(`quickMessage/${adminOwn}`);

    // CVR rows are small maps of listing ids; listings seen by both users (tags, settings…) are one row.
    const cvrs = await w.db.selectFrom('replicacheCvrs').select(['replicacheCvrs.clientGroupId', 'replicacheCvrs.entries']).execute();
    expect(cvrs).toHaveLength(2);
    const refs = Object.fromEntries(cvrs.map((c) => [c.clientGroupId, JSON.parse(c.entries) as Record<string, string>]));
    const a = refs[`ga-${w.company.id}`]!;
    const u = refs[`gu-${w.company.id}`]!;
    expect(a.tag).toBe(u.tag);
    expect(a.setting).toBe(u.setting);
    expect(a['quickMessage.shared']).toBe(u['quickMessage.shared']);
    expect(a['quickMessage.own']).toBeTruthy();
    expect(a['quickMessage.own']).not.toBe(u['quickMessage.own']);
    const rows = await listingRows(t.db, w.company.id);
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set([...Object.values(a), ...Object.values(u)]));
    expect(rows.find((r) => r.id === a.tag)?.entries).toBe(JSON.stringify(w.tags.flatMap((id) => [id, 1])));

    // A change the admin pulls first: the user's pull after it gets the same rows, not the admin's.
    await w.db.updateTable('quickMessages').set({ message: 'changed', version: 2 }).where('id', 'in', [shared!, userOwn!]).execute();
    const adminNext = await pull(t.deps, store, w.admin, req(`ga-${w.company.id}`, forAdmin.response.cookie));
    const userNext = await pull(t.deps, store, w.user, req(`gu-${w.company.id}`, forUser.response.cookie));
    expect(keysOf(adminNext.response.patch, 'put')).toEqual([`quickMessage/${shared}`]);
    expect(keysOf(userNext.response.patch, 'put')).toEqual([`quickMessage/${shared}`, `quickMessage/${userOwn}`].sort());
    // A second server instance (cold memory) answers the same from the rows alone.
    const cold = createSyncStore(t.db, dialect);
    const again = await pull(t.deps, cold, w.user, req(`gu-${w.company.id}`, userNext.response.cookie));
    expect(again.stats.path).toBe('unchanged');
    await w.db.insertInto('tags', { name: 't3' }).execute();
    const afterTag = await pull(t.deps, cold, w.user, req(`gu-${w.company.id}`, userNext.response.cookie));
    expect(afterTag.response.patch.map((p) => p.op)).toEqual(['put']);
  });

  it('answers a CVR whose listing row is lost with a full resync, not an error', async () => {
    const w = await seedTeam();
    const store = createSyncStore(t.db, dialect);
    const first = await pull(t.deps, store, w.user, req(`g-${w.company.id}`, null));
    const all = keysOf(first.response.patch, 'put');
    await w.db.deleteFrom('replicacheListings').execute();
    await w.db.deleteFrom('tags').where('id', '=', w.tags[0]!).execute();
    const cold = createSyncStore(t.db, dialect);
    const next = await pull(t.deps, cold, w.user, req(`g-${w.company.id}`, first.response.cookie));
    expect(next.response.patch[0]).toEqual({ op: 'clear' });
    expect(keysOf(next.response.patch, 'put')).toEqual(all.filter((k) => k !== `tag/${w.tags[0]}`));
    expect((next.response.cookie as { order: number }).order).toBeGreaterThan((first.response.cookie as { order: number }).order);
    // The resync stored its listings again: the next pull is a normal one.
    const after = await pull(t.deps, createSyncStore(t.db, dialect), w.user, req(`g-${w.company.id}`, next.response.cookie));
    expect(after.stats.path).toBe('unchanged');
  });

  it('still reads a CVR row written with its listings inline', async () => {
    const w = await seedTeam();
    const store = createSyncStore(t.db, dialect);
    const first = await pull(t.deps, store, w.user, req(`g-${w.company.id}`, null));
    const order = (first.response.cookie as { order: number }).order;
    const row = await w.db.selectFrom('replicacheCvrs').select('replicacheCvrs.entries').where('replicacheCvrs.version', '=', order).executeTakeFirstOrThrow();
    const rows = new Map((await listingRows(t.db, w.company.id)).map((r) => [r.id, r.entries]));
    // Inline rows hold each view's pairs (a listing by parts: its parts' pairs, in order).
    const pairs = (text: string): unknown[] => (text.startsWith('{') ? (JSON.parse(text) as { parts: string[] }).parts.flatMap((id) => pairs(rows.get(id)!)) : (JSON.parse(text) as unknown[]));
    const inline = `{${Object.entries(JSON.parse(row.entries) as Record<string, string>)
      .map(([view, id]) => `${JSON.stringify(view)}:${JSON.stringify(pairs(rows.get(id)!))}`)
      .join(',')}}`;
    await w.db.updateTable('replicacheCvrs').set({ entries: inline }).where('replicacheCvrs.version', '=', order).execute();
    await w.db.deleteFrom('replicacheListings').execute();
    await w.db.insertInto('tags', { name: 'new' }).execute();
    const next = await pull(t.deps, createSyncStore(t.db, dialect), w.user, req(`g-${w.company.id}`, first.response.cookie));
    expect(next.response.patch.map((p) => p.op)).toEqual(['put']);
  });

  it("stores the messages by ticket: a new message stores its ticket's part and the list, and cold reads, collection and pulls agree", async () => {
    const w = await seedTeam();
    const tickets: Awaited<ReturnType<typeof seedTicket>>[] = [];
    for (let k = 0; k < 3; k++) {
      const ticket = await seedTicket(t, w.company.id, { status: 'open', userId: w.admin.userId });
      for (let m = 0; m < 4; m++) await w.db.insertInto('messages', { wid: `p-${ticket.id}-${m}`, ticketId: ticket.id, contactId: ticket.contactId, body: `m${m}` }).execute();
      tickets.push(ticket);
    }
    const store = createSyncStore(t.db, dialect);
    const group = `gm-${w.company.id}`;
    const first = await pull(t.deps, store, w.admin, req(group, null));
    expect(keysOf(first.response.patch, 'put').filter((k) => k.startsWith('message/'))).toHaveLength(12);
    const rowsBefore = new Map((await listingRows(t.db, w.company.id)).map((r) => [r.id, r.entries]));
    // Each ticket's messages a row of their own, listed by one `{"parts":[…]}` row.
    const lists = [...rowsBefore.values()].filter((e) => e.startsWith('{'));
    expect(lists.map((e) => (JSON.parse(e) as { parts: string[] }).parts.length)).toContain(3);

    await w.db.insertInto('messages', { wid: 'p-new', ticketId: tickets[1]!.id, contactId: tickets[1]!.contactId, body: 'new' }).execute();
    const second = await pull(t.deps, store, w.admin, req(group, first.response.cookie));
    expect(keysOf(second.response.patch, 'put').filter((k) => k.startsWith('message/'))).toHaveLength(1);
    const added = (await listingRows(t.db, w.company.id)).filter((r) => !rowsBefore.has(r.id));
    const addedParts = added.filter((r) => r.entries.startsWith('[') && r.entries.includes(`"${tickets[1]!.id}/`));
    expect(addedParts).toHaveLength(1);
    expect(added.filter((r) => r.entries.startsWith('{'))).toHaveLength(1);
    // No other ticket's messages were stored again.
    for (const other of [tickets[0]!, tickets[2]!]) expect(added.some((r) => r.entries.includes(`"${other.id}/`))).toBe(false);

    // A cold instance reads the list and its parts back: nothing changed, nothing sent.
    expect((await pull(t.deps, createSyncStore(t.db, dialect), w.admin, req(group, second.response.cookie))).stats.path).toBe('unchanged');

    // Collection: the first pull's list is no longer referenced once CVRS_KEPT newer ones exist;
    // it goes, and so does the part only it listed; the parts the kept lists name stay.
    let cookie = second.response.cookie;
    for (let i = 0; i < CVRS_KEPT; i++) {
      await w.db.insertInto('messages', { wid: `p-more-${i}`, ticketId: tickets[2]!.id, contactId: tickets[2]!.contactId, body: `more ${i}` }).execute();
      cookie = (await pull(t.deps, store, w.admin, req(group, cookie))).response.cookie;
    }
    expect(await store.collectGarbage(w.company.id, -1000)).toBeGreaterThan(0);
    const kept = new Map((await listingRows(t.db, w.company.id)).map((r) => [r.id, r.entries]));
    for (const entries of kept.values()) {
      for (const id of (entries.startsWith('{') ? (JSON.parse(entries) as { parts: string[] }).parts : [])) expect(kept.has(id)).toBe(true);
    }
    const cold = await pull(t.deps, createSyncStore(t.db, dialect), w.admin, req(group, cookie));
    expect(cold.stats.path).toBe('unchanged');
    await w.db.insertInto('messages', { wid: 'p-last', ticketId: tickets[0]!.id, contactId: tickets[0]!.contactId, body: 'last' }).execute();
    const last = await pull(t.deps, createSyncStore(t.db, dialect), w.admin, req(group, cookie));
    expect(keysOf(last.response.patch, 'put').filter((k) => k.startsWith('message/'))).toHaveLength(1);
    expect(last.response.patch.some((p) => p.op === 'clear')).toBe(false);
  });

  it('collects listings no CVR references, and only those', async () => {
    const w = await seedTeam();
    const other = await seedTeam();
    const store = createSyncStore(t.db, dialect);
    await pull(t.deps, store, other.admin, req(`g-${other.company.id}`, null));
    const otherRows = await listingRows(t.db, other.company.id);
    let cookie: unknown = null;
    // Each change makes a new tag listing; the group keeps its last CVRS_KEPT CVRs.
    for (let i = 0; i < CVRS_KEPT + 3; i++) {
      await w.db.insertInto('tags', { name: `gc-${i}` }).execute();
      cookie = (await pull(t.deps, store, w.admin, req(`g-${w.company.id}`, cookie))).response.cookie;
    }
    const referenced = new Set<string>();
    for (const c of await w.db.selectFrom('replicacheCvrs').select('replicacheCvrs.entries').execute()) for (const id of Object.values(JSON.parse(c.entries) as Record<string, string>)) referenced.add(id);
    const before = await listingRows(t.db, w.company.id);
    const unreferenced = before.filter((r) => !referenced.has(r.id));
    expect(unreferenced.length).toBe(3);

    // Recently touched rows are spared; past the grace period only the unreferenced ones go.
    expect(await store.collectGarbage(w.company.id)).toBe(0);
    expect(await store.collectGarbage(w.company.id, -1000)).toBe(3);
    const after = await listingRows(t.db, w.company.id);
    expect(new Set(after.map((r) => r.id))).toEqual(referenced);

    // Pulls go on as before, from this instance and from a cold one.
    expect((await pull(t.deps, store, w.admin, req(`g-${w.company.id}`, cookie))).stats.path).toBe('unchanged');
    await w.db.insertInto('tags', { name: 'gc-last' }).execute();
    const next = await pull(t.deps, createSyncStore(t.db, dialect), w.admin, req(`g-${w.company.id}`, cookie));
    expect(next.response.patch.map((p) => p.op)).toEqual(['put']);
    // Another company's listings are never touched.
    expect(await listingRows(t.db, other.company.id)).toEqual(otherRows);
  });

  it('writes the CVRs of pulls that come together in one go, and a failing one fails alone', async () => {
    const w = await seedTeam();
    const other = await seedTeam();
    const store = createSyncStore(t.db, dialect);
    const groups = Array.from({ length: 12 }, (_, i) => `gc-${w.company.id}-${i}`);
    const first = await Promise.all(groups.map((g) => pull(t.deps, store, w.user, req(g, null))));
    await w.db.updateTable('tags').set((eb) => ({ name: 'renamed', version: eb('version', '+', 1) })).where('id', '=', w.tags[0]!).execute();
    const after = await Promise.all(groups.map((g, i) => pull(t.deps, store, w.user, req(g, first[i]!.response.cookie))));
    for (const [i, r] of after.entries()) {
      expect(r.response.patch).toEqual([{ op: 'put', key: `tag/${w.tags[0]}`, value: expect.objectContaining({ name: 'renamed' }) }]);
      expect(r.response.cookie).not.toEqual(first[i]!.response.cookie);
    }
    const stored = await w.db.selectFrom('replicacheCvrs').select(['replicacheCvrs.clientGroupId']).where('replicacheCvrs.clientGroupId', 'in', groups).execute();
    expect(stored).toHaveLength(groups.length * 2);

    // A CVR of a group that turns out to be another company's fails; the others of its batch are saved.
    const foreign = `gc-${other.company.id}-foreign`;
    await pull(t.deps, store, other.user, req(foreign, null));
    const cvr = { watermark: 1, clients: {}, views: {} };
    const saves = await Promise.allSettled([store.saveCvr(w.user, `${groups[0]}-x`, 0, cvr), store.saveCvr(w.user, foreign, 0, cvr), store.saveCvr(w.user, `${groups[1]}-x`, 0, cvr)]);
    expect(saves.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((saves[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'ERR_NO_PERMISSION' });
    const mine = await w.db.selectFrom('replicacheCvrs').select(['replicacheCvrs.clientGroupId']).where('replicacheCvrs.clientGroupId', 'in', [`${groups[0]}-x`, `${groups[1]}-x`]).execute();
    expect(mine).toHaveLength(2);
    // PostgreSQL: the bookkeeping skips the WAL flush inside its own transactions only (SET LOCAL);
    // the pool's connections keep the durable default for everything else.
    if (dialect === 'postgres') {
      const shown = await Promise.all(Array.from({ length: 10 }, () => sql<{ synchronousCommit: string }>`SHOW synchronous_commit`.execute(t.db)));
      expect(new Set(shown.map((r) => r.rows[0]!.synchronousCommit))).toEqual(new Set(['on']));
    }

    // Two saves of one group in one batch get successive versions.
    const twice = await Promise.all([store.saveCvr(w.user, `${groups[2]}-x`, 0, cvr), store.saveCvr(w.user, `${groups[2]}-x`, 0, cvr)]);
    expect(twice.sort()).toEqual([1, 2]);
    const theirs = await tenant(t.db, other.company.id).selectFrom('replicacheCvrs').select(['replicacheCvrs.version']).where('replicacheCvrs.clientGroupId', '=', foreign).execute();
    expect(theirs).toHaveLength(1);
  });

  it('a pull whose rows fail to be read after its CVR was saved leaves the client where it was: its next pull brings them', async () => {
    const w = await seedTeam();
    const store = createSyncStore(t.db, dialect);
    const group = `gf-${w.company.id}`;
    const first = await pull(t.deps, store, w.admin, req(group, null));
    const fresh = await tenant(t.db, w.company.id).insertInto('tags', { name: 'after' }).returning('id').executeTakeFirstOrThrow();
    const tagView = VIEWS.find((v) => v.name === 'tag')!;
    const failing = vi.spyOn(tagView, 'getValues').mockRejectedValueOnce(new Error('the read failed'));
    try {
      await expect(pull(t.deps, store, w.admin, req(group, first.response.cookie))).rejects.toThrow('the read failed');
    } finally {
      failing.mockRestore();
    }
    // The failed pull saved its CVR (its write ran beside the read); the client never got that cookie.
    const versions = await tenant(t.db, w.company.id).selectFrom('replicacheCvrs').select('replicacheCvrs.version').where('replicacheCvrs.clientGroupId', '=', group).execute();
    expect(versions.map((r) => r.version).sort()).toEqual([1, 2]);
    const again = await pull(t.deps, store, w.admin, req(group, first.response.cookie));
    expect(keysOf(again.response.patch, 'put')).toContain(`tag/${fresh.id}`);
    expect(again.response.cookie).toEqual({ order: 3 });
  });
});
