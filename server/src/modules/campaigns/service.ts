// Campaigns (spec/03 §3-§5, §7). Admin work: every route is for company admins (and the
// super-admin), delete is gated by contacts-page:deleteContact as the spec says, and the plan flag
// useCampaigns is checked on the server (routes.ts).
//
// The status machine (spec/03 §4): a new campaign is INATIVA, or PROGRAMADA when it has a
// scheduledAt; the dispatch job moves a PROGRAMADA one to EM_ANDAMENTO when its time comes
// (dispatch/start.ts) and to FINALIZADA once every recipient is sent, failed or skipped; cancel takes
// EM_ANDAMENTO (or a PROGRAMADA not yet started) to CANCELADA; restart takes CANCELADA to
// EM_ANDAMENTO, and the shipping rows already written keep their state, so it continues where it
// stopped. Editable: INATIVA, or PROGRAMADA more than 1 hour ahead; a CANCELADA one may still save its
// message fields. Every transition is a conditional UPDATE on the status it leaves, so a job that
// started the campaign a moment earlier wins and the edit is refused. Campaigns stay on REST (DESIGN
// §4): every write pokes the company, and the web refreshes its campaign lists and report on a poke.
import {
  AppError,
  CAMPAIGN_MESSAGE_FIELDS,
  CAMPAIGN_VARIANTS,
  isCampaignEditable,
  PAGE_SIZE,
  type Campaign,
  type CampaignCreateInput,
  type CampaignPage,
  type CampaignUpdateInput,
} from '@zapdesk/sync';
import { change, emit } from '../../events/emit.ts';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import { likeFolded } from '../../db/like.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';
import { removeAttachmentAfterCommit, replaceAttachment } from '../media/attachments.ts';
import type { UploadedFile } from '../media/uploads.ts';
import { materializeShipping, type RecipientCursor } from './dispatch/recipients.ts';
import { toCampaignDto, toCampaignDtos, type CampaignRow } from './dto.ts';

const invalid = (path: string, message: string) => new AppError('ERR_VALIDATION', `${path}: ${message}`, { issues: [{ path, message }] });

export async function getCampaignRow(db: Database, companyId: number, id: number): Promise<CampaignRow> {
  const row = await tenant(db, companyId).selectFrom('campaigns').selectAll('campaigns').where('campaigns.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('ERR_NOT_FOUND', 'Campaign not found.');
  return row;
}

/** GET /campaigns: searched by name, newest first. */
export async function findCampaignsPage(db: Database, companyId: number, q: { searchParam: string; pageNumber: number }): Promise<CampaignPage> {
  let query = tenant(db, companyId).selectFrom('campaigns');
  if (q.searchParam) query = query.where((eb) => likeFolded(eb.ref('campaigns.name'), q.searchParam!));
  const { count } = await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const rows = await query.selectAll('campaigns').orderBy('campaigns.id', 'desc').limit(PAGE_SIZE + 1).offset((q.pageNumber - 1) * PAGE_SIZE).execute();
  return { records: await toCampaignDtos(db, companyId, rows.slice(0, PAGE_SIZE)), count: Number(count), hasMore: rows.length > PAGE_SIZE };
}

type Refs = { whatsappId: number | null; contactListId: number | null; tagId: number | null; fileListId: number | null };

/** Every row the campaign names must be the company's. */
async function assertRefs(db: Database, companyId: number, refs: Partial<Refs>) {
  const t = tenant(db, companyId);
  const checks: [keyof Refs, 'whatsapps' | 'contactLists' | 'tags' | 'files'][] = [
    ['whatsappId', 'whatsapps'],
    ['contactListId', 'contactLists'],
    ['tagId', 'tags'],
    ['fileListId', 'files'],
  ];
  for (const [field, table] of checks) {
    const id = refs[field];
    if (id === null || id === undefined) continue;
    const found = await t.selectFrom(table).select(`${table}.id` as 'whatsapps.id').where(`${table}.id` as 'whatsapps.id', '=', id).executeTakeFirst();
    if (!found) throw invalid(field === 'tagId' ? 'tagListId' : field, 'not found');
  }
}

const variantsOf = (row: Pick<CampaignRow, 'message1' | 'message2' | 'message3' | 'message4' | 'message5'>) =>
  [row.message1, row.message2, row.message3, row.message4, row.message5].slice(0, CAMPAIGN_VARIANTS);

/** What a campaign needs before it may be programmed or (re)started: a connection, recipients, a message. */
export function assertReadyToSend(row: Pick<CampaignRow, 'whatsappId' | 'contactListId' | 'tagId' | 'confirmation' | (typeof CAMPAIGN_MESSAGE_FIELDS)[number]>) {
  if (row.whatsappId === null) throw invalid('whatsappId', 'Required to send');
  if (row.contactListId === null && row.tagId === null) throw invalid('contactListId', 'Choose a contact list or a tag list');
  if (!variantsOf(row).some((m) => m.trim() !== '')) throw invalid('message1', 'Required to send');
  if (row.confirmation === 1 && ![row.confirmationMessage1, row.confirmationMessage2, row.confirmationMessage3, row.confirmationMessage4, row.confirmationMessage5].some((m) => m.trim() !== '')) {
    throw invalid('confirmationMessage1', 'A confirmation campaign needs its confirmation message');
  }
}

function columnsOf(input: CampaignUpdateInput) {
  const out: Record<string, unknown> = {};
  for (const f of ['name', ...CAMPAIGN_MESSAGE_FIELDS, 'whatsappId', 'contactListId', 'fileListId', 'scheduledAt'] as const) {
    if (input[f] !== undefined) out[f] = input[f];
  }
  if (input.confirmation !== undefined) out.confirmation = input.confirmation ? 1 : 0;
  const tag = input.tagListId !== undefined ? input.tagListId : input.tagId;
  if (tag !== undefined) out.tagId = tag;
  return out as Partial<CampaignRow>;
}

export async function createCampaign(tx: Tx, actor: Actor, input: CampaignCreateInput, now = new Date()): Promise<Campaign> {
  const values = columnsOf(input);
  await assertRefs(tx.db, actor.companyId, values);
  if (values.scheduledAt && Date.parse(values.scheduledAt) < now.getTime() - 60_000) throw invalid('scheduledAt', 'The time has passed');
  const status = values.scheduledAt ? 'PROGRAMADA' : 'INATIVA';
  const blank = { message1: '', message2: '', message3: '', message4: '', message5: '', confirmationMessage1: '', confirmationMessage2: '', confirmationMessage3: '', confirmationMessage4: '', confirmationMessage5: '', confirmation: 0, whatsappId: null, contactListId: null, tagId: null };
  if (status === 'PROGRAMADA') assertReadyToSend({ ...blank, ...values } as CampaignRow);
  const row = await tenant(tx.db, actor.companyId)
    .insertInto('campaigns', { ...values, name: input.name, status })
    .returningAll()
    .executeTakeFirstOrThrow();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'campaign', 'create', row.id));
  return toCampaignDto(tx.db, actor.companyId, row);
}

export async function updateCampaign(tx: Tx, actor: Actor, id: number, input: CampaignUpdateInput & { mediaPath?: string | null; mediaName?: string | null }, now = new Date()): Promise<Campaign> {
  const current = await getCampaignRow(tx.db, actor.companyId, id);
  refuseIfDeleting(current);
  const values: Partial<CampaignRow> = columnsOf(input);
  if (input.mediaPath !== undefined) Object.assign(values, { mediaPath: input.mediaPath, mediaName: input.mediaName ?? null });
  if (current.status === 'CANCELADA') {
    // Only the message fields stay editable (spec/03 §4); other fields sent unchanged are fine.
    const other = Object.entries(values).find(([k, v]) => !(CAMPAIGN_MESSAGE_FIELDS as readonly string[]).includes(k) && current[k as keyof CampaignRow] !== v);
    if (other) throw invalid(other[0], 'A cancelled campaign may only change its messages');
  } else if (!isCampaignEditable(current.status, current.scheduledAt, now)) {
    throw new AppError('ERR_VALIDATION', 'This campaign can no longer be edited.', { details: { status: current.status } });
  } else {
    await assertRefs(tx.db, actor.companyId, values);
    const scheduledAt = values.scheduledAt !== undefined ? values.scheduledAt : current.scheduledAt;
    if (values.scheduledAt && values.scheduledAt !== current.scheduledAt && Date.parse(values.scheduledAt) < now.getTime() - 60_000) throw invalid('scheduledAt', 'The time has passed');
    values.status = scheduledAt ? 'PROGRAMADA' : 'INATIVA';
  }
  const next = { ...current, ...values };
  if (next.status === 'PROGRAMADA' && current.status !== 'CANCELADA') assertReadyToSend(next);
  const row = await tenant(tx.db, actor.companyId)
    .updateTable('campaigns')
    .set({ ...values, ...bumpVersion() })
    .where('campaigns.id', '=', id)
    .where('campaigns.status', '=', current.status)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new AppError('ERR_VALIDATION', 'The campaign changed meanwhile (it may have started); reload it.');
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'campaign', 'update', id));
  return toCampaignDto(tx.db, actor.companyId, row);
}

/** POST/DELETE /campaigns/{id}/media-upload: `file` (or none) becomes the campaign's media. */
export async function setCampaignMedia(tx: Tx, actor: Actor, id: number, file: UploadedFile | null): Promise<Campaign> {
  const current = await getCampaignRow(tx.db, actor.companyId, id);
  if (!isCampaignEditable(current.status, current.scheduledAt, new Date())) throw new AppError('ERR_VALIDATION', 'This campaign can no longer be edited.');
  return replaceAttachment(tx, { companyId: actor.companyId, folder: 'campaigns', previous: current.mediaPath }, file, (attachment) => updateCampaign(tx, actor, id, attachment));
}

/**
 * The first write of a campaign's delete (DELETE /campaigns/{id}): refuses a running campaign and
 * marks the others `deletingSince`, which a restart and a start refuse from then on (a recipient
 * written again after its row was deleted would get the message twice), and which stops the writing
 * of a due campaign's recipients (materializeInSlices); their rows are then emptied in slices.
 */
export async function beginCampaignDelete(tx: Tx, companyId: number, id: number): Promise<void> {
  const row = await getCampaignRow(tx.db, companyId, id);
  assertDeletable(row);
  if (row.deletingSince === null) {
    await tenant(tx.db, companyId)
      .updateTable('campaigns')
      .set({ deletingSince: new Date().toISOString(), ...bumpVersion() })
      .where('campaigns.id', '=', id)
      .where('campaigns.status', '=', row.status)
      .execute();
    // Its row shows it being deleted, should the delete stop before its end.
    tx.effects.poke(companyId);
  }
}

/** A campaign whose delete began (beginCampaignDelete) is only deleted again, never changed or restarted. */
function refuseIfDeleting(row: CampaignRow) {
  if (row.deletingSince !== null) throw new AppError('ERR_VALIDATION', 'This campaign is being deleted: delete it again to finish.');
}

/**
 * One slice of a campaign's delete (db/slices.ts): up to `limit` of its recipients deleted; answers
 * how many. In the delete's one write, the cascade of 100,000 of them held SQLite's writer 0.4 s
 * (measured here; the rows they reference make it more), every company's traffic waiting.
 */
export async function emptyCampaignSlice(tx: Tx, companyId: number, id: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  // The ids first (db/slices.ts says why).
  const ids = (await t.selectFrom('campaignShippings').select('campaignShippings.id').where('campaignShippings.campaignId', '=', id).limit(limit).execute()).map((r) => r.id);
  if (ids.length > 0) await t.deleteFrom('campaignShippings').where('campaignShippings.id', 'in', ids).execute();
  return ids.length;
}

function assertDeletable(row: CampaignRow) {
  if (row.status === 'EM_ANDAMENTO') throw new AppError('ERR_VALIDATION', 'Cancel the campaign before deleting it.');
}

/** The delete's last write: a campaign being sent is cancelled first; the rest go, with what is left of their recipients. */
export async function deleteCampaign(tx: Tx, actor: Actor, id: number): Promise<void> {
  const row = await getCampaignRow(tx.db, actor.companyId, id);
  assertDeletable(row);
  const res = await tenant(tx.db, actor.companyId).deleteFrom('campaigns').where('campaigns.id', '=', id).where('campaigns.status', '=', row.status).executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw new AppError('ERR_VALIDATION', 'The campaign changed meanwhile; reload it.');
  removeAttachmentAfterCommit(tx, row.mediaPath);
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'campaign', 'delete', id));
}

/** POST /campaigns/{id}/cancel: EM_ANDAMENTO (or PROGRAMADA) → CANCELADA; what is already queued still leaves. */
export async function cancelCampaign(tx: Tx, actor: Actor, id: number): Promise<Campaign> {
  const current = await getCampaignRow(tx.db, actor.companyId, id);
  if (current.status !== 'EM_ANDAMENTO' && current.status !== 'PROGRAMADA') throw new AppError('ERR_VALIDATION', `A campaign ${current.status} cannot be cancelled.`);
  const row = await tenant(tx.db, actor.companyId)
    .updateTable('campaigns')
    .set({ status: 'CANCELADA', ...bumpVersion() })
    .where('campaigns.id', '=', id)
    .where('campaigns.status', '=', current.status)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new AppError('ERR_VALIDATION', 'The campaign changed meanwhile; reload it.');
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'campaign', 'update', id));
  return toCampaignDto(tx.db, actor.companyId, row);
}

/** Whether a restart may begin (read before its recipients are written, and again in its write). */
export function assertRestartable(current: CampaignRow) {
  if (current.status !== 'CANCELADA') throw new AppError('ERR_VALIDATION', `A campaign ${current.status} cannot be restarted.`);
  refuseIfDeleting(current);
  assertReadyToSend(current);
}

/**
 * POST /campaigns/{id}/restart: CANCELADA → EM_ANDAMENTO. The recipients are written again with
 * ON CONFLICT DO NOTHING, so rows already sent, failed or skipped keep their state (nobody gets a
 * second message) and recipients added to the list since join; the job wakes and continues.
 */
export async function restartCampaign(tx: Tx, actor: Actor, id: number, now = new Date(), cursor?: RecipientCursor): Promise<Campaign> {
  assertRestartable(await getCampaignRow(tx.db, actor.companyId, id));
  const row = await tenant(tx.db, actor.companyId)
    .updateTable('campaigns')
    .set({ status: 'EM_ANDAMENTO', completedAt: null, ...bumpVersion() })
    .where('campaigns.id', '=', id)
    .where('campaigns.status', '=', 'CANCELADA')
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new AppError('ERR_VALIDATION', 'The campaign changed meanwhile; reload it.');
  // Those written in slices before this write (the route: materializeInSlices) are passed by.
  await materializeShipping(tx, row, now, cursor);
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'campaign', 'update', id));
  return toCampaignDto(tx.db, actor.companyId, row);
}
