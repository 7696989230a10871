// Acks from the network: a sent message's ack only moves forward (a late "delivered" never undoes
// "read"), one conditional update per ack.
import type { Ack } from '../channels/types.ts';
import type { AppDeps } from '../context.ts';
import { tenant } from '../db/tenant.ts';
import { write } from '../db/write.ts';
import { change, emit } from '../events/emit.ts';

export async function applyAck(deps: AppDeps, connection: { id: number; companyId: number }, update: { id: string; ack: Ack }): Promise<boolean> {
  return write(deps, async (tx) => {
    const res = await tenant(tx.db, connection.companyId)
      .updateTable('messages')
      .set((eb) => ({ ack: update.ack, updatedAt: new Date().toISOString(), version: eb('messages.version', '+', 1) }))
      .where('messages.whatsappId', '=', connection.id)
      .where('messages.wid', '=', update.id)
      .where('messages.ack', '<', update.ack)
      .returning('messages.id')
      .executeTakeFirst();
    if (!res) return false;
    tx.effects.poke(connection.companyId);
    await emit(tx, change(connection.companyId, 'appMessage', 'update', res.id));
    return true;
  });
}
