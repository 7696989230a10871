// mutationError/<clientID>/<mutationID>: business errors of the mutations this client group pushed
// (newest MAX_ERRORS), so the app can tell the user why a change was undone. Rows never change:
// the version is always 1. An error is recorded (and old ones dropped) only by a push that moves its
// client's lastMutationID, so the listing is per group and follows those.
import type { MutationError } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { ReplicacheMutationErrors } from '../../db/schema.ts';
import { defineView, type RowId } from './types.ts';

export const MAX_ERRORS = 50;

/** A stored refusal as the client reads it (sync/src/domain/sync.ts). */
export function toMutationError(r: Selectable<ReplicacheMutationErrors>): MutationError {
  return { clientID: r.clientId, mutationID: r.mutationId, name: r.name, code: r.code, message: r.message, createdAt: r.createdAt };
}

export const mutationErrorsView = defineView({
  name: 'mutationError',
  prefix: 'mutationError',
  audience: () => null,
  perGroup: true,
  async listVersions({ t, clientGroupId }) {
    const rows = await t
      .selectFrom('replicacheMutationErrors')
      .innerJoin('replicacheClients', 'replicacheClients.id', 'replicacheMutationErrors.clientId')
      .select(['replicacheMutationErrors.clientId', 'replicacheMutationErrors.mutationId'])
      .where('replicacheClients.clientGroupId', '=', clientGroupId)
      .orderBy('replicacheMutationErrors.id', 'desc')
      .limit(MAX_ERRORS)
      .execute();
    return rows.map((r) => ({ id: `${r.clientId}/${r.mutationId}`, version: 1 }));
  },
  async getValues({ t, clientGroupId }, ids) {
    const wanted = new Set(ids.map(String));
    const rows = await t
      .selectFrom('replicacheMutationErrors')
      .innerJoin('replicacheClients', 'replicacheClients.id', 'replicacheMutationErrors.clientId')
      .selectAll('replicacheMutationErrors')
      .where('replicacheClients.clientGroupId', '=', clientGroupId)
      .orderBy('replicacheMutationErrors.id', 'desc')
      .limit(MAX_ERRORS)
      .execute();
    const out: { id: RowId; value: MutationError }[] = [];
    for (const r of rows) {
      const id = `${r.clientId}/${r.mutationId}`;
      if (!wanted.has(id)) continue;
      out.push({ id, value: toMutationError(r) });
    }
    return out;
  },
});
