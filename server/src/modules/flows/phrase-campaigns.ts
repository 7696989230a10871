// Phrase campaigns (spec/03 §2, §3, §5, §7): a phrase that starts a flow when a customer's message
// matches it (sync/src/flow/phrase.ts: matchPhrase, selectPhraseCampaign; the runtime applies them).
// The flow and the connection a campaign names must be the company's (400 on the field otherwise);
// another company's campaign id answers 404.
import { AppError, samePhrase, type PhraseCampaignCreateInput, type PhraseCampaignUpdateInput } from '@zapdesk/sync';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { phraseCampaignsChanged } from '../../flows-runtime/phrase-hint.ts';
import { bumpVersion } from '../../sync/version.ts';
import { toPhraseCampaignDto, type PhraseCampaignDto, type PhraseCampaignRow } from './dto.ts';

const invalid = (path: string, message: string) => new AppError('ERR_VALIDATION', `${path}: ${message}`, { issues: [{ path, message }] });

async function getRow(db: Database, companyId: number, id: number): Promise<PhraseCampaignRow> {
  const row = await tenant(db, companyId).selectFrom('flowCampaigns').selectAll('flowCampaigns').where('flowCampaigns.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('ERR_NOT_FOUND', 'Phrase campaign not found.');
  return row;
}

async function assertRefs(db: Database, companyId: number, input: { flowId: number; whatsappId?: number | null }) {
  const t = tenant(db, companyId);
  const flow = await t.selectFrom('flows').select('flows.id').where('flows.id', '=', input.flowId).executeTakeFirst();
  if (!flow) throw invalid('flowId', 'not found');
  if (input.whatsappId != null) {
    const connection = await t.selectFrom('whatsapps').select('whatsapps.id').where('whatsapps.id', '=', input.whatsappId).executeTakeFirst();
    if (!connection) throw invalid('whatsappId', 'not found');
  }
}

/**
 * An active campaign may not repeat another active one: the same phrase (as matched: case, accents
 * and end punctuation aside) and match mode on a connection both serve (either one on every
 * connection counts). The older one always wins (selectPhraseCampaign), so the new one would never
 * start its flow. Checked after the write, in its transaction: refused, it is rolled back.
 */
async function assertNoTwin(db: Database, companyId: number, row: PhraseCampaignRow) {
  if (!row.status) return;
  const others = await tenant(db, companyId)
    .selectFrom('flowCampaigns')
    .select(['flowCampaigns.id', 'flowCampaigns.name', 'flowCampaigns.phrase', 'flowCampaigns.whatsappId', 'flowCampaigns.matchMode'])
    .where('flowCampaigns.status', '=', 1)
    .where('flowCampaigns.id', '!=', row.id)
    .where('flowCampaigns.matchMode', '=', row.matchMode)
    .execute();
  const overlaps = (whatsappId: number | null) => whatsappId === null || row.whatsappId === null || whatsappId === row.whatsappId;
  const twin = others.find((o) => overlaps(o.whatsappId) && samePhrase(o.phrase, row.phrase));
  if (twin) throw invalid('phrase', `The active phrase campaign "${twin.name}" already starts a flow with this phrase on this connection (it would always go first): change the phrase, or turn one of them off`);
}

/** GET /flowcampaign: `{ list: [...] }` (spec 03: "response list"), oldest first (the order ties are broken in, sync selectPhraseCampaign). */
export async function findPhraseCampaigns(db: Database, companyId: number): Promise<{ list: PhraseCampaignDto[] }> {
  const rows = await tenant(db, companyId).selectFrom('flowCampaigns').selectAll('flowCampaigns').orderBy('flowCampaigns.id').execute();
  return { list: rows.map(toPhraseCampaignDto) };
}

export async function getPhraseCampaign(db: Database, companyId: number, id: number): Promise<PhraseCampaignDto> {
  return toPhraseCampaignDto(await getRow(db, companyId, id));
}

export async function createPhraseCampaign(tx: Tx, actor: Actor, input: PhraseCampaignCreateInput): Promise<PhraseCampaignDto> {
  await assertRefs(tx.db, actor.companyId, input);
  const row = await tenant(tx.db, actor.companyId)
    .insertInto('flowCampaigns', {
      name: input.name,
      flowId: input.flowId,
      whatsappId: input.whatsappId ?? null,
      phrase: input.phrase,
      matchMode: input.matchMode ?? 'exact',
      status: input.status === false ? 0 : 1,
      userId: actor.userId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await assertNoTwin(tx.db, actor.companyId, row);
  tx.effects.poke(actor.companyId);
  phraseCampaignsChanged(tx, actor.companyId);
  return toPhraseCampaignDto(row);
}

/** PUT /flowcampaign (id in the body); fields not sent keep their value (matchMode, status, whatsappId). */
export async function updatePhraseCampaign(tx: Tx, actor: Actor, input: PhraseCampaignUpdateInput): Promise<PhraseCampaignDto> {
  await getRow(tx.db, actor.companyId, input.id);
  await assertRefs(tx.db, actor.companyId, input);
  const row = await tenant(tx.db, actor.companyId)
    .updateTable('flowCampaigns')
    .set({
      name: input.name,
      flowId: input.flowId,
      phrase: input.phrase,
      ...(input.whatsappId !== undefined ? { whatsappId: input.whatsappId } : {}),
      ...(input.matchMode !== undefined ? { matchMode: input.matchMode } : {}),
      ...(input.status !== undefined ? { status: input.status ? 1 : 0 } : {}),
      ...bumpVersion(),
    })
    .where('flowCampaigns.id', '=', input.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await assertNoTwin(tx.db, actor.companyId, row);
  tx.effects.poke(actor.companyId);
  phraseCampaignsChanged(tx, actor.companyId);
  return toPhraseCampaignDto(row);
}

export async function deletePhraseCampaign(tx: Tx, actor: Actor, id: number): Promise<void> {
  await getRow(tx.db, actor.companyId, id);
  await tenant(tx.db, actor.companyId).deleteFrom('flowCampaigns').where('flowCampaigns.id', '=', id).execute();
  tx.effects.poke(actor.companyId);
  phraseCampaignsChanged(tx, actor.companyId);
}
