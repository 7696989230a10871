// At most one active (open or pending) ticket per contact and connection. The inbound pipeline
// serialises a contact's deliveries in process; this index is what keeps a second instance, or a
// racing POST /tickets, from opening a duplicate. Partial unique indexes read the same on both dialects.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE UNIQUE INDEX tickets_company_contact_active ON tickets (company_id, contact_id, whatsapp_id) WHERE status IN ('open', 'pending')`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
