// Each view's visibility rules, read straight through the view with an actor of each kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../context.ts';
import { tenant } from '../../db/tenant.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedCompany, seedConnection, seedPlan, seedQueue, seedUser } from '../../../test/seed.ts';
import { companyView } from '../../modules/companies/view.ts';
import { ownQuickMessagesView, sharedQuickMessagesView } from '../../modules/quick-messages/view.ts';
import { queuesView } from '../../modules/queues/view.ts';
import { settingsView } from '../../modules/settings/view.ts';
import { tagsView } from '../../modules/tags/view.ts';
import { usersView } from '../../modules/users/view.ts';
import { connectionsView } from '../../modules/whatsapps/view.ts';
import { mutationErrorsView } from './mutation-errors.ts';
import type { SyncView, ViewContext } from './types.ts';
import { bumpVersion } from '../version.ts';

describe.each(DIALECTS)('sync views (%s)', (dialect) => {
  let t: TestApp;
  let a: Awaited<ReturnType<typeof seedWorld>>;
  let b: Awaited<ReturnType<typeof seedWorld>>;

  async function seedWorld(name: string) {
    const plan = await seedPlan(t, { useKanban: 0 });
    const company = await seedCompany(t, { planId: plan.id, name });
    const admin = await seedUser(t, company.id, { profile: 'admin' });
    const user = await seedUser(t, company.id, { profile: 'user' });
    const queue = await seedQueue(t, company.id);
    const db = tenant(t.db, company.id);
    await db.insertInto('userQueues', { userId: user.id, queueId: queue.id }).execute();
    const conn = await seedConnection(t, company.id);
    await db.updateTable('whatsapps').set({ token: `token-${name}`, ...bumpVersion() }).where('id', '=', conn.id).execute();
    const tag = await db.insertInto('tags', { name: `tag-${name}` }).returning('id').executeTakeFirstOrThrow();
    const qms = await db
      .insertInto('quickMessages', [
        { shortcode: 'shared', geral: 1, userId: admin.id },
        { shortcode: 'admin-own', geral: 0, userId: admin.id },
        { shortcode: 'user-own', geral: 0, userId: user.id },
      ])
      .returning('id')
      .execute();
    return { plan, company, admin, user, queue, conn, tag, qms: qms.map((q) => q.id) };
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    a = await seedWorld('A');
    b = await seedWorld('B');
  });
  afterAll(() => t.close());

  const actorOf = (u: { id: number; companyId: number; profile: string }): Actor => ({ userId: u.id, companyId: u.companyId, profile: u.profile as Actor['profile'], super: false, sessionId: 's' });
  const ctxOf = (actor: Actor, clientGroupId = 'g'): ViewContext => ({ db: t.db, dialect, t: tenant(t.db, actor.companyId), actor, clientGroupId });
  async function read<V extends SyncView>(view: V, actor: Actor) {
    const ctx = ctxOf(actor);
    const versions = await view.listVersions(ctx);
    const values = await view.getValues(ctx, versions.map((v) => v.id));
    return { ids: versions.map((v) => v.id), values: values.map((v) => v.value) as Record<string, unknown>[] };
  }

  it('company: only the own company, with the plan flags', async () => {
    const { ids, values } = await read(companyView, actorOf(a.user));
    expect(ids).toEqual([a.company.id]);
    expect(values[0]).toMatchObject({ id: a.company.id, plan: { id: a.plan.id, useKanban: false, useCampaigns: true } });
    // Another company's id asked for directly finds nothing.
    expect(await companyView.getValues(ctxOf(actorOf(a.user)), [b.company.id])).toEqual([]);
  });

  it('users: the company only, public fields, language on the own row only', async () => {
    const { ids, values } = await read(usersView, actorOf(a.user));
    expect(ids.sort()).toEqual([a.admin.id, a.user.id].sort());
    for (const v of values) {
      expect(v).not.toHaveProperty('passwordHash');
      expect('language' in v).toBe(v.id === a.user.id);
    }
    expect(values.find((v) => v.id === a.user.id)).toMatchObject({ queues: [{ id: a.queue.id }] });
  });

  it('users: a queue membership change changes the version', async () => {
    const before = await usersView.listVersions(ctxOf(actorOf(a.admin)));
    await tenant(t.db, a.company.id).deleteFrom('userQueues').where('userId', '=', a.user.id).execute();
    const after = await usersView.listVersions(ctxOf(actorOf(a.admin)));
    expect(after.find((r) => r.id === a.user.id)?.version).not.toEqual(before.find((r) => r.id === a.user.id)?.version);
    await tenant(t.db, a.company.id).insertInto('userQueues', { userId: a.user.id, queueId: a.queue.id }).execute();
  });

  it('queues, tags and settings: the whole company, nothing of another', async () => {
    expect((await read(queuesView, actorOf(a.user))).ids).toEqual([a.queue.id]);
    expect((await read(tagsView, actorOf(a.user))).ids).toEqual([a.tag.id]);
    const settings = await read(settingsView, actorOf(a.user));
    expect(settings.ids).toContain('userRating');
    expect(settings.values.every((v) => typeof v.key === 'string' && typeof v.value === 'string')).toBe(true);
  });

  it('quick messages: the shared ones plus the own ones', async () => {
    const [shared, adminOwn, userOwn] = a.qms;
    const visible = async (u: typeof a.user) => [...(await read(sharedQuickMessagesView, actorOf(u))).ids, ...(await read(ownQuickMessagesView, actorOf(u))).ids];
    expect((await visible(a.user)).sort()).toEqual([shared, userOwn].sort());
    expect((await visible(a.admin)).sort()).toEqual([shared, adminOwn].sort());
    expect(ownQuickMessagesView.audience(actorOf(a.user))).not.toEqual(ownQuickMessagesView.audience(actorOf(a.admin)));
  });

  it('connections: status for everyone, the token for admins only', async () => {
    const asUser = await read(connectionsView, actorOf(a.user));
    const asAdmin = await read(connectionsView, actorOf(a.admin));
    expect(asUser.ids).toEqual([a.conn.id]);
    expect(asUser.values[0]).not.toHaveProperty('token');
    expect(asUser.values[0]).toMatchObject({ status: 'DISCONNECTED', qrcode: '' });
    expect(asAdmin.values[0]).toMatchObject({ token: 'token-A' });
    // The role is in the version, so a promotion re-sends the row with its token.
    const [vu] = await connectionsView.listVersions(ctxOf(actorOf(a.user)));
    const [va] = await connectionsView.listVersions(ctxOf(actorOf(a.admin)));
    expect(vu!.version).not.toEqual(va!.version);
  });

  it('mutation errors: only those of the own client group', async () => {
    const db = tenant(t.db, a.company.id);
    await db.insertInto('replicacheClientGroups', [{ id: 'ga', userId: a.user.id }, { id: 'gb', userId: a.admin.id }]).execute();
    await db.insertInto('replicacheClients', [{ id: 'ca', clientGroupId: 'ga' }, { id: 'cb', clientGroupId: 'gb' }]).execute();
    await db.insertInto('replicacheMutationErrors', [
      { clientId: 'ca', mutationId: 3, name: 'updateSetting', code: 'ERR_NO_PERMISSION', message: 'no' },
      { clientId: 'cb', mutationId: 1, name: 'updateSetting', code: 'ERR_VALIDATION', message: 'bad' },
    ]).execute();
    const ctx = ctxOf(actorOf(a.user), 'ga');
    const versions = await mutationErrorsView.listVersions(ctx);
    expect(versions).toEqual([{ id: 'ca/3', version: 1 }]);
    expect(await mutationErrorsView.getValues(ctx, ['ca/3', 'cb/1'])).toEqual([{ id: 'ca/3', value: expect.objectContaining({ code: 'ERR_NO_PERMISSION', mutationID: 3 }) }]);
  });

  it('no view lists a row of another company', async () => {
    const views = [companyView, usersView, queuesView, tagsView, settingsView, sharedQuickMessagesView, ownQuickMessagesView, connectionsView];
    const bIds = new Set<unknown>([b.company.id, b.admin.id, b.user.id, b.queue.id, b.conn.id, b.tag.id, ...b.qms]);
    const aIds = new Set<unknown>([a.company.id, a.admin.id, a.user.id, a.queue.id, a.conn.id, a.tag.id, ...a.qms]);
    for (const view of views) {
      for (const actor of [actorOf(a.user), actorOf(a.admin)]) {
        const { ids, values } = await read(view, actor);
        // ids may coincide across tables, so check against this company's rows of the same kind
        for (const id of ids) if (typeof id === 'number' && bIds.has(id)) expect(aIds.has(id)).toBe(true);
        expect(JSON.stringify(values)).not.toContain('token-B');
        expect(JSON.stringify(values)).not.toContain('tag-B');
      }
    }
  });
});
