// POST /contacts/import (no payload): the spec's "import phone contacts". The address books of the
// company's connected WhatsApp sessions (Channel.listContacts(): Baileys, the contacts WhatsApp
// synced to it; the simulator, its phone's book and whoever wrote to it) become contacts; numbers
// the company has are left as they are. Without a connected session it imports nothing: {count: 0}.
import { AppError, jidUser, toDigits } from '@zapdesk/sync';
import type { Peer } from '../../channels/types.ts';
import type { AppDeps } from '../../context.ts';
import { tenant } from '../../db/tenant.ts';
import { importContacts } from './import.ts';

/** Phone numbers only: groups and LID-only peers have no number to file a contact under. */
function toRow(peer: Peer) {
  if (peer.isGroup) return undefined;
  const number = toDigits(peer.number ?? jidUser(peer.jid) ?? '');
  if (number === '') return undefined;
  const name = peer.name?.trim() ?? '';
  return { name: name.length >= 2 ? name.slice(0, 50) : number, number, email: '' };
}

export async function importPhoneContacts(deps: AppDeps, companyId: number): Promise<{ count: number }> {
  const connections = await tenant(deps.db, companyId).selectFrom('whatsapps').select('whatsapps.id').orderBy('whatsapps.id').execute();
  // The address books are read from the network first, outside any transaction; then imported.
  const peers: Peer[] = [];
  for (const { id } of connections) {
    // Read where the connection's session runs (any instance); a connection down anywhere has none.
    const book = await deps.sessions.queries(companyId, id).listContacts().catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED') return [];
      throw err;
    });
    peers.push(...book);
  }
  const rows = peers.map(toRow).filter((r) => r !== undefined).map((fields, i) => ({ row: i + 1, fields }));
  if (rows.length === 0) return { count: 0 };
  const summary = await importContacts(deps, companyId, rows);
  return { count: summary.imported };
}
