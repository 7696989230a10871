import { PAGE_SIZE } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { loginAs, seedConnection, seedQueue, seedSuper, seedTenant, seedTicket, seedUser } from '../../../test/seed.ts';
import { tenant } from '../../db/tenant.ts';
import { inSlices } from '../../db/slices.ts';
import { releaseUserSlice } from './service.ts';

const newUser = (over: Record<string, unknown> = {}) => ({
  name: 'Maria Souza',
  email: `maria-${Math.random().toString(36).slice(2)}@example.test`,
  password: 'secret1',
  ...over,
});

describe.each(DIALECTS)('users on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  describe('GET /users', () => {
    it('pages the company users for an admin, searching name and email case-insensitively', async () => {
      const { company, adminSession } = await seedTenant(t, { users: 100 });
      await seedUser(t, company.id, { name: 'Zélia Alvarez', email: 'zelia@shop.test' });
      await seedUser(t, company.id, { name: 'Bob', email: 'ALVAREZ.bob@shop.test' });
      await seedUser(t, company.id, { name: '50% off', email: 'promo@shop.test' });
      const other = await seedTenant(t);
      await seedUser(t, other.company.id, { name: 'Alvarez Elsewhere' });

      const res = await t.request('GET', '/users?searchParam=alvAREZ', { token: adminSession.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ count: 2, hasMore: false });
      expect(res.body.users.map((u: { name: string }) => u.name)).toEqual(['Bob', 'Zélia Alvarez']);
      expect(res.body.users[0]).toMatchObject({ companyId: company.id, super: false, showNoQueue: false, online: false, queues: [] });
      expect(res.body.users[0].passwordHash).toBeUndefined();
      // LIKE wildcards in the search are literal.
      const pct = await t.request('GET', '/users?searchParam=50%25', { token: adminSession.token });
      expect(pct.body.users.map((u: { name: string }) => u.name)).toEqual(['50% off']);
      expect((await t.request('GET', '/users/?searchParam=%25', { token: adminSession.token })).body.count).toBe(1);
    });

    it('pages by PAGE_SIZE with count and hasMore', async () => {
      const { company, adminSession } = await seedTenant(t, { users: 100 });
      for (let i = 0; i < PAGE_SIZE; i++) await seedUser(t, company.id, { name: `Pager ${String(i).padStart(2, '0')}` });
      const first = await t.request('GET', '/users?pageNumber=1', { token: adminSession.token });
      expect(first.body.users).toHaveLength(PAGE_SIZE);
      expect(first.body).toMatchObject({ count: PAGE_SIZE + 2, hasMore: true });
      const second = await t.request('GET', '/users?pageNumber=2', { token: adminSession.token });
      expect(second.body.users).toHaveLength(2);
      expect(second.body.hasMore).toBe(false);
      const ids = new Set([...first.body.users, ...second.body.users].map((u: { id: number }) => u.id));
      expect(ids.size).toBe(PAGE_SIZE + 2);
      expect((await t.request('GET', '/users?pageNumber=0', { token: adminSession.token })).body.error).toBe('ERR_VALIDATION');
    });

    it('refuses a plain user; a super-admin may list another company', async () => {
      const { company, userSession } = await seedTenant(t);
      const res = await t.request('GET', '/users', { token: userSession.token });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
      expect((await t.request('GET', '/users')).status).toBe(401);
      const { session } = await seedSuper(t);
      const other = await t.request('GET', `/users?companyId=${company.id}`, { token: session.token });
      expect(other.body.count).toBe(2);
      expect(other.body.users.every((u: { companyId: number }) => u.companyId === company.id)).toBe(true);
    });
  });

  describe('GET /users/list', () => {
    it('lists every user of the caller company in short form for any user; another companyId only for the super-admin', async () => {
      const { company, admin, user, userSession } = await seedTenant(t);
      const queue = await seedQueue(t, company.id, { name: 'Sales' });
      await t.db.insertInto('userQueues').values({ companyId: company.id, userId: user.id, queueId: queue.id }).execute();
      const other = await seedTenant(t);

      const foreign = await t.request('GET', `/users/list?companyId=${other.company.id}`, { token: userSession.token });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe('ERR_NO_COMPANY_FOUND');
      const res = await t.request('GET', `/users/list?companyId=${company.id}`, { token: userSession.token });
      expect(res.status).toBe(200);
      expect(res.body.map((u: { id: number }) => u.id).sort()).toEqual([admin.id, user.id].sort());
      const mine = res.body.find((u: { id: number }) => u.id === user.id);
      expect(mine).toEqual({ id: user.id, name: user.name, email: user.email, profile: 'user', queues: [{ id: queue.id, name: 'Sales', color: queue.color }] });

      const { session } = await seedSuper(t);
      const asSuper = await t.request('GET', `/users/list?companyId=${other.company.id}`, { token: session.token });
      expect(asSuper.body.map((u: { id: number }) => u.id).sort()).toEqual([other.admin.id, other.user.id].sort());
    });
  });

  describe('GET /users/:id', () => {
    it('lets an admin read any user of the company and a user only themselves', async () => {
      const { admin, user, adminSession, userSession } = await seedTenant(t);
      const byAdmin = await t.request('GET', `/users/${user.id}`, { token: adminSession.token });
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body).toMatchObject({ id: user.id, email: user.email, profile: 'user', allTicket: 'desabled', whatsappId: null });
      expect(byAdmin.body.passwordHash).toBeUndefined();
      expect((await t.request('GET', `/users/${user.id}`, { token: userSession.token })).body.id).toBe(user.id);
      const peek = await t.request('GET', `/users/${admin.id}`, { token: userSession.token });
      expect(peek.status).toBe(403);
      expect(peek.body.error).toBe('ERR_NO_PERMISSION');
    });

    it('answers 404 ERR_NO_USER_FOUND for another company user, an unknown id and a malformed id', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      for (const id of [b.user.id, 999_999, 'abc', '1.5']) {
        const res = await t.request('GET', `/users/${id}`, { token: a.adminSession.token });
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('ERR_NO_USER_FOUND');
      }
    });
  });

  describe('POST /users', () => {
    it('creates a user with queues and connection; the response never holds the hash', async () => {
      const { company, adminSession } = await seedTenant(t);
      const q1 = await seedQueue(t, company.id);
      const q2 = await seedQueue(t, company.id);
      const conn = await seedConnection(t, company.id);
      const body = newUser({ profile: 'supervisor', queueIds: [q1.id, q2.id, q1.id], whatsappId: conn.id, allTicket: 'disabled', showNoQueue: true, companyId: 999 });
      // Another company is not the admin's to name: refused, not silently read as their own.
      const foreign = await t.request('POST', '/users', { token: adminSession.token, body });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe('ERR_NO_COMPANY_FOUND');
      const res = await t.request('POST', '/users', { token: adminSession.token, body: { ...body, companyId: company.id } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'Maria Souza',
        email: body.email,
        profile: 'supervisor',
        super: false,
        companyId: company.id,
        whatsappId: conn.id,
        allTicket: 'desabled',
        showNoQueue: true,
      });
      expect(res.body.queues.map((q: { id: number }) => q.id).sort()).toEqual([q1.id, q2.id].sort());
      expect(res.body.passwordHash).toBeUndefined();
      expect(res.body.password).toBeUndefined();
      // The new user can log in with the password given.
      const session = await loginAs(t, { email: body.email, password: 'secret1' });
      expect(session.body.user.id).toBe(res.body.id);
    });

    it('validates name, email, password, profile and allTicket with the form messages', async () => {
      const { adminSession } = await seedTenant(t);
      const cases: [Record<string, unknown>, string, string][] = [
        [{ name: 'M' }, 'name', 'Too Short!'],
        [{ name: 'x'.repeat(51) }, 'name', 'Too Long!'],
        [{ email: 'not-an-email' }, 'email', 'Invalid email'],
        [{ password: '1234' }, 'password', 'Too Short!'],
        [{ password: 'x'.repeat(51) }, 'password', 'Too Long!'],
        [{ profile: 'root' }, 'profile', ''],
        [{ allTicket: 'maybe' }, 'allTicket', ''],
        [{ queueIds: ['x'] }, 'queueIds.0', ''],
        [{ showNoQueue: 'yes' }, 'showNoQueue', ''],
      ];
      for (const [over, path, message] of cases) {
        const res = await t.request('POST', '/users', { token: adminSession.token, body: newUser(over) });
        expect(res.status, JSON.stringify(over)).toBe(400);
        expect(res.body.error).toBe('ERR_VALIDATION');
        const issue = res.body.issues.find((i: { path: string }) => i.path === path);
        expect(issue, path).toBeDefined();
        if (message) expect(issue.message).toBe(message);
      }
      const missing = await t.request('POST', '/users', { token: adminSession.token, body: {} });
      expect(missing.body.issues.map((i: { path: string }) => i.path)).toEqual(['name', 'email', 'password']);
    });

    it('refuses a duplicate email (any case, any company) with 409 ERR_EMAIL_IN_USE and writes nothing', async () => {
      const { company, adminSession } = await seedTenant(t);
      const other = await seedTenant(t);
      const queue = await seedQueue(t, company.id);
      const before = await t.db.selectFrom('users').select(t.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const res = await t.request('POST', '/users', { token: adminSession.token, body: newUser({ email: other.user.email.toUpperCase(), queueIds: [queue.id] }) });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('ERR_EMAIL_IN_USE');
      const after = await t.db.selectFrom('users').select(t.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
      const links = await t.db.selectFrom('userQueues').selectAll().where('queueId', '=', queue.id).execute();
      expect(links).toEqual([]);
    });

    it("enforces the plan's user limit", async () => {
      const { adminSession } = await seedTenant(t, { users: 3 });
      expect((await t.request('POST', '/users', { token: adminSession.token, body: newUser() })).status).toBe(201);
      const res = await t.request('POST', '/users', { token: adminSession.token, body: newUser() });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_USER_LIMIT_REACHED');
      expect((await t.request('GET', '/users', { token: adminSession.token })).body.count).toBe(3);
    });

    it('lets only one of several concurrent creations take the last seat', async () => {
      const { adminSession } = await seedTenant(t, { users: 3 });
      const results = await Promise.all(
        Array.from({ length: 4 }, () => t.request('POST', '/users', { token: adminSession.token, body: newUser() })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 403, 403, 403]);
      expect((await t.request('GET', '/users', { token: adminSession.token })).body.count).toBe(3);
    });

    it("refuses another company's queue or connection with 400 ERR_VALIDATION and links nothing", async () => {
      const { adminSession } = await seedTenant(t);
      const other = await seedTenant(t);
      const foreignQueue = await seedQueue(t, other.company.id);
      const foreignConn = await seedConnection(t, other.company.id);
      const q = await t.request('POST', '/users', { token: adminSession.token, body: newUser({ queueIds: [foreignQueue.id] }) });
      expect(q.status).toBe(400);
      expect(q.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'queueIds' }] });
      const w = await t.request('POST', '/users', { token: adminSession.token, body: newUser({ whatsappId: foreignConn.id }) });
      expect(w.status).toBe(400);
      expect(w.body.issues[0].path).toBe('whatsappId');
      expect(await t.db.selectFrom('userQueues').selectAll().where('queueId', '=', foreignQueue.id).execute()).toEqual([]);
    });

    it('is for admins: a plain user gets 403; a super-admin may create in another company', async () => {
      const { company, userSession } = await seedTenant(t);
      const denied = await t.request('POST', '/users', { token: userSession.token, body: newUser() });
      expect(denied.status).toBe(403);
      expect(denied.body.error).toBe('ERR_NO_PERMISSION');
      const { session } = await seedSuper(t);
      const made = await t.request('POST', '/users', { token: session.token, body: newUser({ companyId: company.id, profile: 'admin' }) });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ companyId: company.id, profile: 'admin', super: false });
      const nowhere = await t.request('POST', '/users', { token: session.token, body: newUser({ companyId: 987_654 }) });
      expect(nowhere.status).toBe(404);
      expect(nowhere.body.error).toBe('ERR_NO_COMPANY_FOUND');
    });
  });

  describe('DELETE /users/:id', () => {
    it('deletes a user of the company with their queue links and sessions', async () => {
      const { company, user, adminSession, userSession } = await seedTenant(t);
      const queue = await seedQueue(t, company.id);
      await t.db.insertInto('userQueues').values({ companyId: company.id, userId: user.id, queueId: queue.id }).execute();
      const res = await t.request('DELETE', `/users/${user.id}`, { token: adminSession.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'User deleted' });
      expect(await t.db.selectFrom('users').select('id').where('id', '=', user.id).execute()).toEqual([]);
      expect(await t.db.selectFrom('userQueues').selectAll().where('userId', '=', user.id).execute()).toEqual([]);
      expect((await t.request('GET', '/auth/me', { token: userSession.token })).status).toBe(401);
      expect((await t.request('DELETE', `/users/${user.id}`, { token: adminSession.token })).body.error).toBe('ERR_NO_USER_FOUND');
    });

    it('detaches what names the user (tickets, tags, notes, schedules, chats, chat messages) with new versions, so synced clients see it', async () => {
      const { company, user, adminSession } = await seedTenant(t);
      const db = tenant(t.db, company.id);
      const ticket = await seedTicket(t, company.id, { userId: user.id });
      const tag = await db.insertInto('tags', { name: `Tag of ${user.id}`, userId: user.id }).returningAll().executeTakeFirstOrThrow();
      const note = await db.insertInto('ticketNotes', { ticketId: ticket.id, contactId: ticket.contactId, userId: user.id, note: 'Call back' }).returningAll().executeTakeFirstOrThrow();
      const schedule = await db.insertInto('schedules', { body: 'Reminder', contactId: ticket.contactId, userId: user.id, sendAt: new Date(Date.now() + 3600_000).toISOString() }).returningAll().executeTakeFirstOrThrow();
      const chat = await db.insertInto('chats', { uuid: crypto.randomUUID(), title: 'Team', ownerId: user.id }).returningAll().executeTakeFirstOrThrow();
      const said = await db.insertInto('chatMessages', { chatId: chat.id, senderId: user.id, message: 'Hello' }).returningAll().executeTakeFirstOrThrow();

      expect((await t.request('DELETE', `/users/${user.id}`, { token: adminSession.token })).status).toBe(200);
      const after = await Promise.all([
        db.selectFrom('tickets').select(['userId as ref', 'version']).where('tickets.id', '=', ticket.id).executeTakeFirstOrThrow(),
        db.selectFrom('tags').select(['userId as ref', 'version']).where('tags.id', '=', tag.id).executeTakeFirstOrThrow(),
        db.selectFrom('ticketNotes').select(['userId as ref', 'version']).where('ticketNotes.id', '=', note.id).executeTakeFirstOrThrow(),
        db.selectFrom('schedules').select(['userId as ref', 'version']).where('schedules.id', '=', schedule.id).executeTakeFirstOrThrow(),
        db.selectFrom('chats').select(['ownerId as ref', 'version']).where('chats.id', '=', chat.id).executeTakeFirstOrThrow(),
        db.selectFrom('chatMessages').select(['senderId as ref', 'version']).where('chatMessages.id', '=', said.id).executeTakeFirstOrThrow(),
      ]);
      expect(after).toEqual([ticket, tag, note, schedule, chat, said].map((row) => ({ ref: null, version: row.version + 1 })));
    });

    it('lets go of a deleted user’s tickets, notes, schedules and chat messages a slice at a time, each slice its own write and poke', async () => {
      const { company, user, adminSession } = await seedTenant(t);
      const db = tenant(t.db, company.id);
      const tickets = [];
      for (let i = 0; i < 5; i++) tickets.push(await seedTicket(t, company.id, { userId: user.id, status: 'closed' }));
      const first = tickets[0]!;
      await db.insertInto('ticketNotes', [1, 2].map((i) => ({ ticketId: first.id, contactId: first.contactId, userId: user.id, note: `Note ${i}` }))).execute();
      await db.insertInto('schedules', { body: 'Reminder', contactId: first.contactId, userId: user.id, sendAt: new Date(Date.now() + 3600_000).toISOString() }).execute();
      const chat = await db.insertInto('chats', { uuid: crypto.randomUUID(), title: 'Team', ownerId: user.id }).returningAll().executeTakeFirstOrThrow();
      await db.insertInto('chatMessages', [1, 2].map((i) => ({ chatId: chat.id, senderId: user.id, message: `Said ${i}` }))).execute();
      const theirs = async () =>
        (await db.selectFrom('tickets').select('tickets.id').where('tickets.userId', '=', user.id).execute()).length +
        (await db.selectFrom('ticketNotes').select('ticketNotes.id').where('ticketNotes.userId', '=', user.id).execute()).length +
        (await db.selectFrom('schedules').select('schedules.id').where('schedules.userId', '=', user.id).execute()).length +
        (await db.selectFrom('chatMessages').select('chatMessages.id').where('chatMessages.senderId', '=', user.id).execute()).length;
      expect(await theirs()).toBe(10);

      const poke = vi.spyOn(t.deps.realtime, 'pokeCompany');
      try {
        await inSlices(t.deps, (tx, limit) => releaseUserSlice(tx, company.id, user.id, limit), 2);
        // Ten rows in slices of 2 (one of them spans two tables): five writes, each poking the company once its slice committed.
        expect(poke.mock.calls.filter(([id]) => id === company.id)).toHaveLength(5);
      } finally {
        poke.mockRestore();
      }
      expect(await theirs()).toBe(0);
      expect((await t.request('DELETE', `/users/${user.id}`, { token: adminSession.token })).status).toBe(200);
    });

    it('refuses deleting yourself, a plain user deleting, and another company user (404, row kept)', async () => {
      const a = await seedTenant(t);
      const b = await seedTenant(t);
      const self = await t.request('DELETE', `/users/${a.admin.id}`, { token: a.adminSession.token });
      expect(self.status).toBe(400);
      expect(self.body.error).toBe('ERR_CANNOT_DELETE_SELF');
      expect((await t.request('DELETE', `/users/${a.admin.id}`, { token: a.userSession.token })).body.error).toBe('ERR_NO_PERMISSION');
      const cross = await t.request('DELETE', `/users/${b.user.id}`, { token: a.adminSession.token });
      expect(cross.status).toBe(404);
      expect(cross.body.error).toBe('ERR_NO_USER_FOUND');
      expect(await t.db.selectFrom('users').select('id').where('id', '=', b.user.id).executeTakeFirst()).toEqual({ id: b.user.id });
    });
  });

  describe('POST /users/set-language/:lang', () => {
    it("sets the caller's language among pt, en and es", async () => {
      const { user, userSession } = await seedTenant(t);
      for (const lang of ['es', 'pt', 'en']) {
        const res = await t.request('POST', `/users/set-language/${lang}`, { token: userSession.token });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ id: user.id, language: lang });
      }
      const bad = await t.request('POST', '/users/set-language/fr', { token: userSession.token });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [{ path: 'lang' }] });
      expect((await t.db.selectFrom('users').select('language').where('id', '=', user.id).executeTakeFirstOrThrow()).language).toBe('en');
      expect((await t.request('POST', '/users/set-language/pt')).status).toBe(401);
    });
  });
});
