// Queue integrations (issue 16): n8n and webhook calls are signed with an HMAC key of the
// integration, stored sealed (server/src/auth/secret-box.ts) in `signing_secret_enc`; a flowbuilder
// integration names the company's flow it starts (`flow_id`; a deleted flow leaves it without one).
// `json_content` (Dialogflow's service-account JSON) keeps its column and from now on holds the
// sealed text, like `prompts.api_key_enc`.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('queue_integrations').addColumn('signing_secret_enc', 'text').execute();
  await db.schema
    .alterTable('queue_integrations')
    .addColumn('flow_id', 'integer', (x) => x.references('flows.id').onDelete('set null'))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
