// The guard itself (version-guard.ts), on each dialect: what it refuses, what it lets through, and
// that it covers every table whose change counter follows `version`.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpVersion } from '../src/sync/version.ts';
import { createTestApp, DIALECTS, type TestApp } from './harness.ts';
import { seedCompany, seedUser } from './seed.ts';
import { INVISIBLE_COLUMNS, SYNCED_TABLES } from './version-guard.ts';

describe.each(DIALECTS)('version guard on %s', (dialect) => {
  let t: TestApp;
  let companyId: number;
  const addTag = (name: string, userId: number | null = null) =>
    t.db.insertInto('tags').values({ companyId, name, userId }).returningAll().executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    companyId = (await seedCompany(t)).id;
  });
  afterAll(() => t.close());

  it('refuses an update of a synced column that leaves the version as it was, naming the columns', async () => {
    const tag = await addTag('Refused');
    await expect(t.db.updateTable('tags').set({ name: 'Renamed', color: '#000000' }).where('id', '=', tag.id).execute()).rejects.toThrow(
      /version guard: tags\.\{color, name\} changed without version/,
    );
    // updated_at alone is a change clients see (the dtos send it). A moment surely not the row's: the
    // insert's default has millisecond precision, and "now" may fall in the same millisecond.
    await expect(t.db.updateTable('tags').set({ updatedAt: '2000-01-01T00:00:00.000Z' }).where('id', '=', tag.id).execute()).rejects.toThrow(/tags\.\{updated_at\}/);
    const row = await t.db.selectFrom('tags').select(['name', 'version']).where('id', '=', tag.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Refused', version: 1 });
  });

  it('lets the same update through with the version bumped', async () => {
    const tag = await addTag('Bumped');
    await t.db.updateTable('tags').set({ name: 'Bumped again', ...bumpVersion() }).where('id', '=', tag.id).execute();
    await t.db.updateTable('tags').set((eb) => ({ color: '#111111', version: eb('version', '+', 1) })).where('id', '=', tag.id).execute();
    expect(await t.db.selectFrom('tags').select(['name', 'color', 'version']).where('id', '=', tag.id).executeTakeFirstOrThrow()).toEqual({
      name: 'Bumped again',
      color: '#111111',
      version: 3,
    });
  });

  it('lets an update that changes nothing through (a no-op write is no change)', async () => {
    const tag = await addTag('Same');
    await t.db.updateTable('tags').set({ name: 'Same' }).where('id', '=', tag.id).execute();
  });

  it('lets invisible columns change alone, but not together with a visible one', async () => {
    const user = await seedUser(t, companyId);
    const seenAt = new Date().toISOString();
    await t.db.updateTable('users').set({ lastSeenAt: seenAt }).where('id', '=', user.id).execute();
    await expect(t.db.updateTable('users').set({ lastSeenAt: seenAt, online: 1 }).where('id', '=', user.id).execute()).rejects.toThrow(/users\.\{online\}/);
    const connection = await t.db.insertInto('whatsapps').values({ companyId, name: 'Guarded' }).returning('id').executeTakeFirstOrThrow();
    await t.db.updateTable('whatsapps').set({ leaseOwner: 'instance-a', leaseExpiresAt: seenAt }).where('id', '=', connection.id).execute();
    await expect(t.db.updateTable('whatsapps').set({ status: 'CONNECTED' }).where('id', '=', connection.id).execute()).rejects.toThrow(/whatsapps\.\{status\}/);
  });

  it('refuses a foreign key that nulls synced rows on delete when nothing bumped them first', async () => {
    const user = await seedUser(t, companyId);
    const tag = await addTag('Owned', user.id);
    await expect(t.db.deleteFrom('users').where('id', '=', user.id).execute()).rejects.toThrow(/tags\.\{user_id\}/);
    // Nulled with a bump first, the delete has nothing left to change.
    await t.db.updateTable('tags').set({ userId: null, ...bumpVersion() }).where('id', '=', tag.id).execute();
    await t.db.deleteFrom('users').where('id', '=', user.id).execute();
  });

  it('guards every table whose change counter follows its version, and excludes only real columns', async () => {
    const counted =
      dialect === 'postgres'
        ? // Row triggers (`_sync_v…`) and, since 20261128T150000, statement triggers (`_sync_s_…`).
          await sql<{ t: string }>`SELECT DISTINCT event_object_table AS t FROM information_schema.triggers WHERE trigger_name LIKE '%\\_sync\\_v%' OR trigger_name LIKE '%\\_sync\\_s\\_%'`.execute(t.db)
        : await sql<{ t: string }>`SELECT DISTINCT tbl_name AS t FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%\\_sync\\_v%' ESCAPE '\\'`.execute(t.db);
    const versioned: string[] = [];
    for (const { t: table } of counted.rows) {
      if ((await columnsOf(table)).includes('version')) versioned.push(table);
    }
    expect(versioned.sort()).toEqual([...SYNCED_TABLES].sort());
    for (const [table, columns] of Object.entries(INVISIBLE_COLUMNS)) {
      expect(await columnsOf(table)).toEqual(expect.arrayContaining(Object.keys(columns)));
    }
  });

  async function columnsOf(table: string): Promise<string[]> {
    const rows =
      dialect === 'postgres'
        ? await sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table}`.execute(t.db)
        : await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`.execute(t.db);
    return rows.rows.map((r) => r.name);
  }
});
