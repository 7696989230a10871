// Acks from the network, one conditional update each (outbound/record.ts recordAck). One that finds
// no message may have beaten the record of its send: the outbox keeps it for that record.
import type { Ack } from '../channels/types.ts';
import type { AppDeps } from '../context.ts';
import { write } from '../db/write.ts';
import { recordAck } from '../outbound/record.ts';

export async function applyAck(deps: AppDeps, connection: { id: number; companyId: number }, update: { id: string; ack: Ack }): Promise<boolean> {
  const outcome = await write(deps, (tx) => recordAck(tx, connection.companyId, connection.id, update));
  if (outcome === 'unknown') deps.outbox.receiptUnmatched(connection.companyId, connection.id, update);
  return outcome === 'advanced';
}
