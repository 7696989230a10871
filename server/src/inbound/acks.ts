// Acks from the network: a sent message's ack only moves forward (a late "delivered" never undoes
// "read"), one conditional update per ack.
import type { Ack } from '../channels/types.ts';
import type { AppDeps } from '../context.ts';
import { tenant } from '../db/tenant.ts';
import { write } from '../db/write.ts';

export async function applyAck(deps: AppDeps, connection: { id: number; companyId: number }, update: { id: string; ack: Ack }): Promise<boolean> {
  return write(deps, async (tx) => {
    const res = await tenant(tx.db, connection.companyId)
      .updateTable('messages')
      .set((eb) => ({ ack: update.ack, updatedAt: new Date().toISOString(), version: eb('messages.version', '+', 1) }))
      .where('messages.whatsappId', '=', connection.id)
      .where('messages.wid', '=', update.id)
      .where('messages.ack', '<', update.ack)
      .executeTakeFirst();
    const changed = Number(res.numUpdatedRows) > 0;
    if (changed) tx.effects.poke(connection.companyId);
    return changed;
  });
}
