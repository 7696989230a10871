// Every column that references a row of a table that grows with a company's traffic is indexed
// (migrations 20261130T100000 and 20261130T120000). Deleting such a row runs the foreign keys'
// actions, which look the referencing rows up by that column; without an index each deleted row read
// the whole referencing table: a company of 40,000 messages took over a minute to delete, a contact
// list of 20,000 numbers that a campaign had gone to 52 s. The foreign keys are found in the schema
// itself, so a new one is checked too.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foreignKeys as readForeignKeys, type ForeignKey } from '../../test/schema-facts.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';

/** Tables whose rows come and go by the thousand (a bulk delete, a list's or a company's cascade). */
const GROWING = [
  'assistant_sessions', 'assistant_turns', 'campaign_shippings', 'chat_messages', 'contact_list_items', 'contacts',
  'flow_runs', 'flow_timers', 'flow_versions', 'message_marks', 'messages', 'outbox', 'schedules', 'ticket_notes',
  'ticket_trackings', 'tickets', 'user_ratings', 'webhook_deliveries',
  // One per sign-in, and per browser: refresh tokens and sync clients pile up under them.
  'user_sessions', 'replicache_client_groups',
];

/**
 * References to a table that does not grow, from tables that do and that a delete of that row
 * cascades through (deleting a user): sign-in and sync bookkeeping (migration 20261130T180000).
 */
const FROM_GROWING = ['user_sessions.user_id', 'refresh_tokens.user_id', 'replicache_client_groups.user_id'];

/**
 * References to a connection from the tables its traffic fills: its delete lets go of them and then
 * deletes the row, both by the connection (migration 20261130T200000).
 */
const TO_CONNECTIONS = ['messages.whatsapp_id', 'tickets.whatsapp_id', 'contacts.whatsapp_id', 'ticket_trackings.whatsapp_id'];

describe.each(DIALECTS)('columns that reference a growing table on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const foreignKeys = () => readForeignKeys(t);

  /** Why the key's lookup is not served by an index, or null when it is. */
  async function unindexed({ table, columns }: ForeignKey): Promise<string | null> {
    if (dialect === 'sqlite') {
      // SQLite looks the rows up with `WHERE column = ?`: its plan must search an index, not scan one.
      const lookup = `SELECT 1 FROM ${table} WHERE ${columns.map((c) => `${c} = 1`).join(' AND ')}`;
      const plan = (await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${sql.raw(lookup)}`.execute(t.db)).rows.map((r) => r.detail).join('\n');
      return /^SEARCH .* USING (COVERING )?(INDEX|INTEGER PRIMARY KEY|PRIMARY KEY)/.test(plan) ? null : plan;
    }
    // PostgreSQL would plan a whole-index scan on an empty table: an index must start with the
    // key's columns, and be whole or leave out only the rows whose reference is null.
    const indexes = (
      await sql<{ name: string; leading: string[]; predicate: string | null }>`
        SELECT i.indexrelid::regclass::text AS name, pg_get_expr(i.indpred, i.indrelid) AS predicate,
          array(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, n) JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                WHERE k.n <= ${columns.length} ORDER BY k.n)::text[] AS leading
        FROM pg_index i WHERE i.indrelid = ${table}::regclass`.execute(t.db)
    ).rows;
    const serves = indexes.some(
      (i) => i.leading.length === columns.length && columns.every((c) => i.leading.includes(c)) && (i.predicate === null || i.predicate === `(${columns[0]} IS NOT NULL)`),
    );
    return serves ? null : `indexes ${indexes.map((i) => `${i.name}(${i.leading.join(',')})`).join(' ')}`;
  }

  it('are each found through an index', async () => {
    const listed = [...FROM_GROWING, ...TO_CONNECTIONS];
    const keys = (await foreignKeys()).filter((k) => GROWING.includes(k.references) || listed.includes(`${k.table}.${k.columns.join('+')}`));
    const named = keys.map((k) => `${k.table}.${k.columns.join('+')}`);
    // The schema query finds what it should (a query that found nothing would pass the loop below).
    expect(named).toEqual(
      expect.arrayContaining([
        'assistant_turns.message_id', 'campaign_shippings.contact_id', 'campaign_shippings.contact_list_item_id', 'campaign_shippings.message_id',
        'flow_runs.flow_version_id', 'messages.quoted_msg_id', 'outbox.message_id', 'schedules.contact_id', 'schedules.ticket_id', 'user_ratings.ticket_id',
        'refresh_tokens.session_id', 'replicache_clients.client_group_id', ...listed,
      ]),
    );
    const missing: string[] = [];
    for (const key of keys) {
      const why = await unindexed(key);
      if (why !== null) missing.push(`${key.table}.${key.columns.join('+')}: ${why}`);
    }
    expect(missing).toEqual([]);
  });
});
