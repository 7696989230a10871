// Deleting a company (removal.ts): everything it owns goes, rows, sessions and files, and other
// companies' writes go on while it does.
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedConnection, seedContact, seedSuper, seedTenant } from '../../../test/seed.ts';
import { tenant } from '../../db/tenant.ts';
import { write } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';
import { inSlices } from '../../db/slices.ts';
import { closeCompany, deleteCompanySlice, SLICED_TABLES } from './removal.ts';

describe.each(DIALECTS)('deleting a company on %s', (dialect) => {
  let t: TestApp;
  let superToken: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
    superToken = (await seedSuper(t)).session.token;
  });
  afterAll(async () => t.close());

  const countOf = async (table: (typeof SLICED_TABLES)[number] | 'users' | 'whatsapps' | 'settings', companyId: number) =>
    Number((await tenant(t.db, companyId).selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('ends its connections and its users’ sessions, and removes its rows and its media', async () => {
    const { company, adminSession } = await seedTenant(t);
    const other = await seedTenant(t);
    const kept = await seedContact(t, other.company.id);
    const connection = await seedConnection(t, company.id);
    const network = t.deps.sessions.simulator!;
    await t.deps.sessions.start(company.id, connection.id);
    await network.scan(connection.id, '5511900001111');
    await t.deps.sessions.flush(connection.id);
    for (const [i, body] of ['Oi', 'Tudo bem?', 'Quero comprar'].entries()) await network.deliver(connection.id, { from: `5521911110${i}`, name: `Cliente ${i}`, body });
    await expect.poll(() => countOf('messages', company.id)).toBe(3);
    const media = path.join(t.deps.config.mediaDir, String(company.id), 'schedules');
    await mkdir(media, { recursive: true });
    await writeFile(path.join(media, 'a.pdf'), 'x');

    const sid = (await t.db.selectFrom('userSessions').select('id').where('companyId', '=', company.id).where('revokedAt', 'is', null).executeTakeFirstOrThrow()).id;
    const revoked = vi.spyOn(t.deps.realtime, 'sessionRevoked');
    const res = await t.request('DELETE', `/companies/${company.id}`, { token: superToken });
    const reason = revoked.mock.calls.find(([ids]) => ids.includes(sid))?.[1];
    revoked.mockRestore();
    expect(reason).toBe('company-deleted');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Company deleted' });

    // Nothing of it is left in the tables it filled, nor the rows its row cascades to.
    for (const table of [...SLICED_TABLES, 'users', 'whatsapps', 'settings'] as const) expect(await countOf(table, company.id), table).toBe(0);
    await expect(stat(path.join(t.deps.config.mediaDir, String(company.id)))).rejects.toMatchObject({ code: 'ENOENT' });
    // Its WhatsApp session is ended (it would go on receiving messages for nobody), its users signed out.
    await expect.poll(() => t.deps.sessions.getChannel(connection.id)).toBeUndefined();
    expect((await t.request('GET', '/auth/me', { token: adminSession.token })).status).toBe(401);
    // Another company keeps what it has.
    expect((await tenant(t.db, other.company.id).selectFrom('contacts').select('contacts.id').where('contacts.id', '=', kept.id).executeTakeFirst())?.id).toBe(kept.id);
    expect((await t.request('GET', `/companies/${company.id}`, { token: superToken })).status).toBe(404);
  });

  it('deletes slice by slice: another company’s write does not wait for the whole deletion', async () => {
    const { company } = await seedTenant(t);
    const other = await seedTenant(t);
    for (let i = 0; i < 12; i++) await seedContact(t, company.id);

    await write(t.deps, (tx) => closeCompany(tx, company.id));
    const removal = inSlices(t.deps, (tx, limit) => deleteCompanySlice(tx, company.id, limit), 2);
    let removed = false;
    void removal.then(() => (removed = true));
    await write(t.deps, (tx) => tenant(tx.db, other.company.id).insertInto('tags', { name: 'during', color: '#ffffff' }).execute());
    // The other write is done while the deletion is not: the deleted company still has contacts.
    // SQLite's one writer is what slices are for (PostgreSQL runs the two transactions side by side).
    if (dialect === 'sqlite') {
      expect(removed).toBe(false);
      expect(await countOf('contacts', company.id)).toBeGreaterThan(0);
    }
    await removal;
    expect(await countOf('contacts', company.id)).toBe(0);
    expect((await t.request('DELETE', `/companies/${company.id}`, { token: superToken })).status).toBe(200);
    expect((await t.request('GET', `/companies/${company.id}`, { token: superToken })).status).toBe(404);
  });

  it('finishes a deletion that stopped midway when asked again', async () => {
    const { company } = await seedTenant(t);
    for (let i = 0; i < 5; i++) await seedContact(t, company.id);
    // A process that died after closing the company and deleting part of its rows.
    await t.db.updateTable('companies').set({ status: 0, ...bumpVersion() }).where('companies.id', '=', company.id).execute();
    await tenant(t.db, company.id).deleteFrom('contacts').where('contacts.id', 'in', tenant(t.db, company.id).selectFrom('contacts').select('contacts.id').limit(2)).execute();

    expect((await t.request('DELETE', `/companies/${company.id}`, { token: superToken })).status).toBe(200);
    expect(await countOf('contacts', company.id)).toBe(0);
    expect((await t.request('DELETE', `/companies/${company.id}`, { token: superToken })).body.error).toBe('ERR_NO_COMPANY_FOUND');
  });
});
