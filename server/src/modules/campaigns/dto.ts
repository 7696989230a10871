// The one row → wire mapper of campaigns (sync/src/domain/campaign.ts `campaignSchema`): the REST
// answers send what this returns. The connection and the contact list ride along by name, read in
// one query each whatever the number of rows.
import { isCampaignEditable, type Campaign, type CampaignStatus } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Campaigns } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';

export type CampaignRow = Selectable<Campaigns>;

export async function toCampaignDtos(db: Database, companyId: number, rows: CampaignRow[], now = new Date()): Promise<Campaign[]> {
  if (rows.length === 0) return [];
  const t = tenant(db, companyId);
  const connectionIds = [...new Set(rows.flatMap((r) => (r.whatsappId === null ? [] : [r.whatsappId])))];
  const listIds = [...new Set(rows.flatMap((r) => (r.contactListId === null ? [] : [r.contactListId])))];
  const connections = connectionIds.length ? await t.selectFrom('whatsapps').select(['whatsapps.id', 'whatsapps.name']).where('whatsapps.id', 'in', connectionIds).execute() : [];
  const lists = listIds.length ? await t.selectFrom('contactLists').select(['contactLists.id', 'contactLists.name']).where('contactLists.id', 'in', listIds).execute() : [];
  const connectionById = new Map(connections.map((c) => [c.id, c]));
  const listById = new Map(lists.map((l) => [l.id, l]));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    status: r.status as CampaignStatus,
    message1: r.message1,
    message2: r.message2,
    message3: r.message3,
    message4: r.message4,
    message5: r.message5,
    confirmationMessage1: r.confirmationMessage1,
    confirmationMessage2: r.confirmationMessage2,
    confirmationMessage3: r.confirmationMessage3,
    confirmationMessage4: r.confirmationMessage4,
    confirmationMessage5: r.confirmationMessage5,
    confirmation: r.confirmation === 1,
    scheduledAt: r.scheduledAt,
    completedAt: r.completedAt,
    whatsappId: r.whatsappId,
    whatsapp: r.whatsappId === null ? null : (connectionById.get(r.whatsappId) ?? null),
    contactListId: r.contactListId,
    contactList: r.contactListId === null ? null : (listById.get(r.contactListId) ?? null),
    tagId: r.tagId,
    fileListId: r.fileListId,
    mediaPath: r.mediaPath,
    mediaName: r.mediaName,
    companyId: r.companyId,
    editable: r.deletingSince === null && isCampaignEditable(r.status, r.scheduledAt, now),
    deleting: r.deletingSince !== null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    version: r.version,
  }));
}

export async function toCampaignDto(db: Database, companyId: number, row: CampaignRow): Promise<Campaign> {
  return (await toCampaignDtos(db, companyId, [row]))[0]!;
}
