// AI assistants and queue integrations in conversations (DESIGN §7, §13; issue 16). A customer's
// message that an assistant (a prompt, or a Typebot, n8n, webhook or Dialogflow integration) must
// answer becomes an `assistant_turns` row in the write that stores the bot's decision; a worker
// claims it, calls the service outside any transaction and writes the answer in a write of its own
// (the turn `done` in that same write, so an answer is queued once). `running` rows of a process that
// died go back to `queued`: the call is made again, its answer written once. `assistant_sessions`
// keeps a conversation's session at a service (Typebot's sessionId) per ticket and integration.
// `assistant_usage` counts requests and tokens per company, day and model; `message_transcripts`
// holds the text of voice notes the AI heard. `tickets.assistant_state`: null (no assistant spoke
// yet), `active`, or `off` (handed over to humans, or the assistant failed: it never answers that
// ticket again). None of these is synced.
import { sql, type Kysely } from 'kysely';
import { columns, dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const c = columns(dialectOf(db));
  await c.time(c.time(c.stamps(c.company(c.id(db.schema.createTable('assistant_turns')))
    .addColumn('ticket_id', 'integer', (x) => x.notNull().references('tickets.id').onDelete('cascade'))
    // The customer's message this turn answers (the latest one, for a prompt that took several).
    .addColumn('message_id', 'integer', (x) => x.references('messages.id').onDelete('set null'))
    // prompt | integration
    .addColumn('kind', 'text', (x) => x.notNull())
    .addColumn('target_id', 'integer', (x) => x.notNull())
    // queued → running → done | failed
    .addColumn('state', 'text', (x) => x.notNull().defaultTo('queued'))
    .addColumn('attempts', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('claimed_by', 'text')), 'not_before'), 'claimed_at').execute();
  // The worker's look-up: only live rows are in it.
  await sql`create index assistant_turns_live on assistant_turns (state, id) where state in ('queued', 'running')`.execute(db);
  await db.schema.createIndex('assistant_turns_company_ticket').on('assistant_turns').columns(['company_id', 'ticket_id', 'state']).execute();

  await c.time(c.stamps(c.company(c.id(db.schema.createTable('assistant_sessions')))
    .addColumn('ticket_id', 'integer', (x) => x.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('integration_id', 'integer', (x) => x.notNull().references('queue_integrations.id').onDelete('cascade'))
    .addColumn('session_id', 'text', (x) => x.notNull())
    // The input the session waits for, as JSON (Typebot's choices), so a numbered reply maps back.
    .addColumn('data', 'text')), 'expires_at').execute();
  await db.schema.createIndex('assistant_sessions_ticket_integration').on('assistant_sessions').columns(['company_id', 'ticket_id', 'integration_id']).unique().execute();

  await c.stamps(c.company(c.id(db.schema.createTable('assistant_usage')))
    .addColumn('day', 'text', (x) => x.notNull())
    .addColumn('model', 'text', (x) => x.notNull())
    .addColumn('requests', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('prompt_tokens', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'integer', (x) => x.notNull().defaultTo(0))).execute();
  await db.schema.createIndex('assistant_usage_company_day_model').on('assistant_usage').columns(['company_id', 'day', 'model']).unique().execute();

  await c.stamps(c.company(db.schema.createTable('message_transcripts')
    .addColumn('message_id', 'integer', (x) => x.primaryKey().references('messages.id').onDelete('cascade'))
    .addColumn('text', 'text', (x) => x.notNull()))).execute();

  await db.schema.alterTable('tickets').addColumn('assistant_state', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
