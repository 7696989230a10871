// Flow versions (DESIGN §13, issue 15). Saving a flow (POST /flowbuilder/flow) adds an immutable
// row here: the graph as saved, numbered per flow. `flows.flow` keeps the latest graph for the editor
// and `flows.version_no` its number; a conversation records the version it started on
// (flow_runs.flow_version_id, next migration) and keeps running it until it ends, whatever is saved
// meanwhile. Phrase campaigns get `match_mode` (exact or contains; spec/03 has no such field).
import type { Kysely } from 'kysely';
import { columns, dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const c = columns(dialectOf(db));
  await c.stamps(c.company(c.id(db.schema.createTable('flow_versions')))
    .addColumn('flow_id', 'integer', (x) => x.notNull().references('flows.id').onDelete('cascade'))
    .addColumn('version_no', 'integer', (x) => x.notNull())
    .addColumn('graph', 'text', (x) => x.notNull())
    .addColumn('user_id', 'integer', (x) => x.references('users.id').onDelete('set null'))).execute();
  await db.schema.createIndex('flow_versions_company_flow_version').on('flow_versions').columns(['company_id', 'flow_id', 'version_no']).unique().execute();
  await db.schema.alterTable('flows').addColumn('version_no', 'integer', (x) => x.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('flow_campaigns').addColumn('match_mode', 'text', (x) => x.notNull().defaultTo('exact')).execute();
  // Active campaigns of a company are read on every customer message that no flow is waiting for.
  await db.schema.createIndex('flow_campaigns_company_status').on('flow_campaigns').columns(['company_id', 'status']).execute();
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
