// The campaigns that name a row being deleted (a connection, a tag, a contact list, a file list):
// the foreign key would null them without a version bump (invisible to sync, refused by the test
// databases' guard), so the deleting write calls this first. A campaign that loses its connection
// while programmed or running can no longer send: it becomes CANCELADA (what was queued still fails
// with the connection, outbound/README.md), so it does not wait forever.
import type { Tx } from '../../db/write.ts';
import { tenant } from '../../db/tenant.ts';
import { change, emit } from '../../events/emit.ts';
import { bumpVersion } from '../../sync/version.ts';

export type CampaignRef = 'whatsappId' | 'tagId' | 'contactListId' | 'fileListId';

/** Each campaign changed here is a live `campaign` update (status CANCELADA, or the reference gone). */
export async function detachCampaigns(tx: Tx, companyId: number, field: CampaignRef, id: number): Promise<void> {
  const t = tenant(tx.db, companyId);
  const changed = new Set<number>();
  if (field === 'whatsappId') {
    const cancelled = await t
      .updateTable('campaigns')
      .set({ status: 'CANCELADA', ...bumpVersion() })
      .where('campaigns.whatsappId', '=', id)
      .where('campaigns.status', 'in', ['PROGRAMADA', 'EM_ANDAMENTO'])
      .returning('campaigns.id')
      .execute();
    for (const r of cancelled) changed.add(r.id);
  }
  const detached = await t.updateTable('campaigns').set({ [field]: null, ...bumpVersion() }).where(`campaigns.${field}`, '=', id).returning('campaigns.id').execute();
  for (const r of detached) changed.add(r.id);
  if (changed.size) await emit(tx, [...changed].map((campaignId) => change(companyId, 'campaign', 'update', campaignId)));
}
