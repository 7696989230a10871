// Quick messages (spec/02 §3, §5, §7). `geral` ones are shared with the whole company; the others
// are private to their user: nobody else reads or changes them, admins included (they are a
// person's own shortcuts, and the sync view holds the same rule). A shared one may be changed by
// its author or an admin. A row the actor may not read answers 404, as another company's would.
// Writes run in the route's transaction (`Tx`, DESIGN §12): they poke the company, and a file they
// drop is removed only once the write commits (a file they store, only if it rolls back).
import { AppError, isCompanyAdmin, PAGE_SIZE, type QuickMessage, type QuickMessageCreateInput, type QuickMessageUpdateInput } from '@zapdesk/sync';
import { type ExpressionBuilder, type Selectable } from 'kysely';
import type { Actor } from '../../context.ts';
import { nowIso, type Database } from '../../db/database.ts';
import type { DB, QuickMessages } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { removeAttachmentAfterCommit, replaceAttachment } from '../media/attachments.ts';
import type { UploadedFile } from '../media/uploads.ts';
import { likeFolded } from '../../db/like.ts';
import { toQuickMessageDto } from './dto.ts';

const readableBy = (actor: Actor) => (eb: ExpressionBuilder<DB, 'quickMessages'>) =>
  eb.or([eb('quickMessages.geral', '=', 1), eb('quickMessages.userId', '=', actor.userId)]);

function mayChange(actor: Actor, row: Selectable<QuickMessages>): boolean {
  return row.userId === actor.userId || (row.geral === 1 && isCompanyAdmin(actor));
}

/** The row if the actor may read it; 404 otherwise. */
export async function getQuickMessageRow(db: Database, actor: Actor, id: number) {
  const row = await tenant(db, actor.companyId)
    .selectFrom('quickMessages')
    .selectAll('quickMessages')
    .where('quickMessages.id', '=', id)
    .where(readableBy(actor))
    .executeTakeFirst();
  if (!row) throw new AppError('ERR_NOT_FOUND', 'Quick message not found.');
  return row;
}

/** The row if the actor may change it: 404 when unreadable, 403 when readable but not theirs. */
export async function getChangeableQuickMessage(db: Database, actor: Actor, id: number) {
  const row = await getQuickMessageRow(db, actor, id);
  if (!mayChange(actor, row)) throw new AppError('ERR_NO_PERMISSION', 'Only the author or an admin may change a shared quick message.');
  return row;
}

/** GET /quick-messages: the shared ones and the actor's own, searched over shortcode and message. */
export async function findQuickMessagesPage(db: Database, actor: Actor, search: string, pageNumber: number) {
  let query = tenant(db, actor.companyId).selectFrom('quickMessages').where(readableBy(actor));
  if (search) {
    query = query.where((eb) =>
      eb.or([
        likeFolded(eb.ref('quickMessages.shortcode'), search),
        likeFolded(eb.ref('quickMessages.message'), search),
      ]),
    );
  }
  const rows = await query
    .selectAll('quickMessages')
    .orderBy('quickMessages.shortcode')
    .orderBy('quickMessages.id')
    .limit(PAGE_SIZE + 1)
    .offset((pageNumber - 1) * PAGE_SIZE)
    .execute();
  return { records: rows.slice(0, PAGE_SIZE).map(toQuickMessageDto), hasMore: rows.length > PAGE_SIZE };
}

/** GET /quick-messages/list: the active ones the actor may use, for the "/" quick answers. */
export async function findUsableQuickMessages(db: Database, actor: Actor): Promise<QuickMessage[]> {
  const rows = await tenant(db, actor.companyId)
    .selectFrom('quickMessages')
    .selectAll('quickMessages')
    .where(readableBy(actor))
    .where('quickMessages.status', '=', 1)
    .orderBy('quickMessages.shortcode')
    .orderBy('quickMessages.id')
    .execute();
  return rows.map(toQuickMessageDto);
}

export async function createQuickMessage(tx: Tx, actor: Actor, input: QuickMessageCreateInput): Promise<QuickMessage> {
  const row = await tenant(tx.db, actor.companyId)
    .insertInto('quickMessages', {
      shortcode: input.shortcode,
      message: input.message,
      geral: input.geral ? 1 : 0,
      status: input.status ? 1 : 0,
      userId: actor.userId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  tx.effects.poke(actor.companyId);
  return toQuickMessageDto(row);
}

type QuickMessageChanges = QuickMessageUpdateInput & { mediaPath?: string | null; mediaName?: string | null };

export async function updateQuickMessage(tx: Tx, actor: Actor, id: number, input: QuickMessageChanges): Promise<QuickMessage> {
  await getChangeableQuickMessage(tx.db, actor, id);
  const row = await tenant(tx.db, actor.companyId)
    .updateTable('quickMessages')
    .set((eb) => ({
      ...(input.shortcode !== undefined ? { shortcode: input.shortcode } : {}),
      ...(input.message !== undefined ? { message: input.message } : {}),
      ...(input.geral !== undefined ? { geral: input.geral ? 1 : 0 } : {}),
      ...(input.status !== undefined ? { status: input.status ? 1 : 0 } : {}),
      ...(input.mediaPath !== undefined ? { mediaPath: input.mediaPath, mediaName: input.mediaName ?? null } : {}),
      version: eb('quickMessages.version', '+', 1),
      updatedAt: nowIso(),
    }))
    .where('quickMessages.id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  tx.effects.poke(actor.companyId);
  return toQuickMessageDto(row);
}

/** POST/DELETE /quick-messages/{id}/media-upload: `file` (or none) becomes the attachment (media/attachments.ts). */
export async function setQuickMessageMedia(tx: Tx, actor: Actor, id: number, file: UploadedFile | null): Promise<QuickMessage> {
  const previous = (await getChangeableQuickMessage(tx.db, actor, id)).mediaPath;
  return replaceAttachment(tx, { companyId: actor.companyId, folder: 'quick-messages', previous }, file, (attachment) => updateQuickMessage(tx, actor, id, attachment));
}

/** Deletes the row; its attachment is removed once the write commits. */
export async function deleteQuickMessage(tx: Tx, actor: Actor, id: number): Promise<void> {
  const row = await getChangeableQuickMessage(tx.db, actor, id);
  await tenant(tx.db, actor.companyId).deleteFrom('quickMessages').where('quickMessages.id', '=', id).execute();
  removeAttachmentAfterCommit(tx, row.mediaPath);
  tx.effects.poke(actor.companyId);
}
