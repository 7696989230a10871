// Session credentials in the database, never in files (DESIGN §5): one creds row per connection in
// baileys_creds and the signal keys in baileys_keys keyed by (connection, type, id). The simulator
// keeps its fake pairing in the same creds row, so both adapters reconnect at boot the same way.
//
// Not a business write (DESIGN §12 does not apply): these rows are the adapter's private state, never
// synced (no `version`), written whenever the protocol says so, outside any request; nobody is poked.
// So the store keeps its own small transactions (a key set, a wipe) instead of going through write().
import type { Database } from '../db/database.ts';
import { nowIso } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';

export type AuthStore = {
  readCreds(): Promise<string | undefined>;
  writeCreds(creds: string): Promise<void>;
  readKeys(type: string, ids: string[]): Promise<Map<string, string>>;
  /** Every key of a type (the adapter's own small sets, such as its address book). */
  listKeys(type: string): Promise<Map<string, string>>;
  /** A null value deletes the key. Applied in one transaction so a crash leaves no half-written set. */
  writeKeys(entries: { type: string; keyId: string; value: string | null }[]): Promise<void>;
  /** Forgets the pairing: creds and keys. */
  wipe(): Promise<void>;
};

export function createAuthStore(db: Database, companyId: number, whatsappId: number): AuthStore {
  const t = () => tenant(db, companyId);
  return {
    async readCreds() {
      const row = await t().selectFrom('baileysCreds').select('creds').where('whatsappId', '=', whatsappId).executeTakeFirst();
      return row?.creds;
    },
    async writeCreds(creds) {
      const now = nowIso();
      await t()
        .insertInto('baileysCreds', { whatsappId, creds, createdAt: now, updatedAt: now })
        .onConflict((oc) => oc.column('whatsappId').doUpdateSet({ creds, updatedAt: now }))
        .execute();
    },
    async readKeys(type, ids) {
      const out = new Map<string, string>();
      // Chunked: SQLite limits bound parameters, and Baileys may ask for hundreds of pre-keys.
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await t()
          .selectFrom('baileysKeys')
          .select(['keyId', 'value'])
          .where('whatsappId', '=', whatsappId)
          .where('type', '=', type)
          .where('keyId', 'in', ids.slice(i, i + 500))
          .execute();
        for (const r of rows) out.set(r.keyId, r.value);
      }
      return out;
    },
    async listKeys(type) {
      const rows = await t().selectFrom('baileysKeys').select(['keyId', 'value']).where('whatsappId', '=', whatsappId).where('type', '=', type).execute();
      return new Map(rows.map((r) => [r.keyId, r.value]));
    },
    async writeKeys(entries) {
      if (entries.length === 0) return;
      await db.transaction().execute(async (trx) => {
        const tx = tenant(trx, companyId);
        for (const e of entries) {
          if (e.value === null) {
            await tx.deleteFrom('baileysKeys').where('whatsappId', '=', whatsappId).where('type', '=', e.type).where('keyId', '=', e.keyId).execute();
          } else {
            await tx
              .insertInto('baileysKeys', { whatsappId, type: e.type, keyId: e.keyId, value: e.value })
              .onConflict((oc) => oc.columns(['whatsappId', 'type', 'keyId']).doUpdateSet({ value: e.value! }))
              .execute();
          }
        }
      });
    },
    async wipe() {
      await db.transaction().execute(async (trx) => {
        await tenant(trx, companyId).deleteFrom('baileysKeys').where('whatsappId', '=', whatsappId).execute();
        await tenant(trx, companyId).deleteFrom('baileysCreds').where('whatsappId', '=', whatsappId).execute();
      });
    },
  };
}
