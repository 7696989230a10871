// Every column that references a message is indexed (migration 20261130T100000): a message's delete
// runs the foreign keys' actions, which look the referencing rows up by that column; without an index
// each message's delete read the whole referencing table (a company of 40,000 messages took over a
// minute to delete). The columns are found in the schema itself, so a new one is checked too.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';

describe.each(DIALECTS)('columns that reference a message on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  async function referencing(): Promise<{ table: string; column: string }[]> {
    if (dialect === 'sqlite') {
      const tables = (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`.execute(t.db)).rows;
      const out: { table: string; column: string }[] = [];
      for (const { name } of tables) {
        const keys = (await sql<{ table: string; from: string }>`SELECT "table", "from" FROM pragma_foreign_key_list(${name})`.execute(t.db)).rows;
        for (const k of keys) if (k.table === 'messages') out.push({ table: name, column: k.from });
      }
      return out;
    }
    return (
      await sql<{ table: string; column: string }>`
        SELECT kcu.table_name AS table, kcu.column_name AS column
        FROM information_schema.referential_constraints rc
        JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = rc.constraint_name AND kcu.constraint_schema = rc.constraint_schema
        JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = rc.unique_constraint_name AND ccu.constraint_schema = rc.unique_constraint_schema
        WHERE ccu.table_name = 'messages' AND kcu.table_schema = current_schema()`.execute(t.db)
    ).rows;
  }

  async function planOf(table: string, column: string): Promise<string> {
    const lookup = `SELECT 1 FROM ${table} WHERE ${column} = 1`;
    if (dialect === 'sqlite') return (await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${sql.raw(lookup)}`.execute(t.db)).rows.map((r) => r.detail).join('\n');
    // The tables are empty: PostgreSQL is told to take an index whenever there is one.
    return t.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      return (await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${sql.raw(lookup)}`.execute(trx)).rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  }

  it('are each found through an index', async () => {
    const columns = await referencing();
    expect(columns.map((c) => `${c.table}.${c.column}`).sort()).toEqual(
      expect.arrayContaining(['assistant_turns.message_id', 'campaign_shippings.message_id', 'message_transcripts.message_id', 'messages.quoted_msg_id', 'outbox.message_id']),
    );
    for (const { table, column } of columns) {
      const plan = await planOf(table, column);
      expect(plan, `${table}.${column}`).toMatch(dialect === 'sqlite' ? /USING (COVERING )?(INDEX|INTEGER PRIMARY KEY|PRIMARY KEY)/ : /Index/);
    }
  });
});
