// The statements every pushed mutation runs, compiled once (../db/prepared.ts): a busy company pushes
// hundreds of mutations a second, and building each query anew cost more than running it.
import { prepare } from '../db/prepared.ts';

const selectClient = (lock: boolean) =>
  prepare((db, p: { companyId: number; clientId: string }) => {
    const q = db
      .selectFrom('replicacheClients')
      .select(['replicacheClients.clientGroupId', 'replicacheClients.lastMutationId'])
      .where('replicacheClients.companyId', '=', p.companyId)
      .where('replicacheClients.id', '=', p.clientId);
    return lock ? q.forUpdate() : q;
  });

/** The client's row; on PostgreSQL locked for the mutation's transaction (SQLite has one writer). */
export const selectClientRow = { sqlite: selectClient(false), postgres: selectClient(true) };

export const updateLastMutationId = prepare((db, p: { companyId: number; clientId: string; id: number; now: string }) =>
  db
    .updateTable('replicacheClients')
    .set({ lastMutationId: p.id, updatedAt: p.now })
    .where('replicacheClients.companyId', '=', p.companyId)
    .where('replicacheClients.id', '=', p.clientId),
);

