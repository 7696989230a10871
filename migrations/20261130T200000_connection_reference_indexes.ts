// The rows that name a WhatsApp connection and grow with its traffic, found by the connection. A
// connection's delete lets go of them a slice at a time (modules/whatsapps/service.ts), looking them
// up by connection, and its last write deletes the row, whose foreign keys' `set null` looks them up
// by that column alone: the tenant indexes, which start with company_id, serve neither. Without these
// that write read every company's messages, tickets, contacts and ticket trackings (measured on
// SQLite: 16 ms beside 120,000 messages, 25,000 tickets, 21,000 contacts and 60,000 trackings; 65 ms
// at 1,000,000 messages, 100,000 tickets and contacts and 300,000 trackings), holding the only
// writer, and each slice walked the company's tickets or contacts from the start. Partial (non-null)
// indexes: a released row leaves the index.
import { sql, type Kysely } from 'kysely';

const INDEXES: [name: string, table: string][] = [
  ['messages_whatsapp', 'messages'],
  ['tickets_whatsapp', 'tickets'],
  ['contacts_whatsapp', 'contacts'],
  ['ticket_trackings_whatsapp', 'ticket_trackings'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table] of INDEXES) await sql`CREATE INDEX ${sql.ref(name)} ON ${sql.table(table)} (whatsapp_id) WHERE whatsapp_id IS NOT NULL`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
