// The campaigns that name a row being deleted (a connection, a tag, a contact list, a file list):
// the foreign key would null them without a version bump (invisible to sync, refused by the test
// databases' guard), so the deleting write calls this first. A campaign that loses its connection
// while programmed or running can no longer send: it becomes CANCELADA (what was queued still fails
// with the connection, outbound/README.md), so it does not wait forever.
import type { Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import { bumpVersion } from '../../sync/version.ts';

export type CampaignRef = 'whatsappId' | 'tagId' | 'contactListId' | 'fileListId';

export async function detachCampaigns(db: Database, companyId: number, field: CampaignRef, id: number): Promise<void> {
  const t = tenant(db, companyId);
  if (field === 'whatsappId') {
    await t
      .updateTable('campaigns')
      .set({ status: 'CANCELADA', ...bumpVersion() })
      .where('campaigns.whatsappId', '=', id)
      .where('campaigns.status', 'in', ['PROGRAMADA', 'EM_ANDAMENTO'])
      .execute();
  }
  await t.updateTable('campaigns').set({ [field]: null, ...bumpVersion() }).where(`campaigns.${field}`, '=', id).execute();
}
