// Announcements (spec/02 §2 screen 19, §3, §5, §6): platform-wide notices written by the
// super-admin. A row lives in its author's company, but every user of every company reads the
// active ones (status true); the super-admin reads them all and alone changes them. That is why
// reads here are not company-filtered: the one deliberate exception to tenant(), kept in
// selectAnnouncements(). Writes still go through tenant() with the row's own company; they take the
// route's transaction (`tx`, db/write.ts) and poke every company once committed (the rows are
// platform-wide), and a picture file leaves the disk only after the commit that dropped it.
import { AppError, PAGE_SIZE, type Announcement, type AnnouncementCreateInput, type AnnouncementsPage, type AnnouncementUpdateInput } from '@zapdesk/sync';
import type { Actor } from '../../context.ts';
import { nowIso, type Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { removeAttachmentAfterCommit, replaceAttachment } from '../media/attachments.ts';
import type { UploadedFile } from '../media/uploads.ts';
import { likeFolded } from '../../db/like.ts';
import { toAnnouncementDto } from './dto.ts';

/** The announcements the actor may read: all for the super-admin, the active ones for everyone else (the sync view too). */
export function selectAnnouncements(db: Database, actor: Actor) {
  return db.selectFrom('announcements').$if(!actor.super, (q) => q.where('announcements.status', '=', 1));
}

/** GET /announcements: newest first, searched over title and text. */
export async function findAnnouncementsPage(db: Database, actor: Actor, search: string, pageNumber: number): Promise<AnnouncementsPage> {
  let query = selectAnnouncements(db, actor);
  if (search) {
    query = query.where((eb) =>
      eb.or([
        likeFolded(eb.ref('announcements.title'), search),
        likeFolded(eb.ref('announcements.text'), search),
      ]),
    );
  }
  const { count } = await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const rows = await query
    .selectAll('announcements')
    .orderBy('announcements.createdAt', 'desc')
    .orderBy('announcements.id', 'desc')
    .limit(PAGE_SIZE)
    .offset((pageNumber - 1) * PAGE_SIZE)
    .execute();
  const total = Number(count);
  return { records: rows.map(toAnnouncementDto), count: total, hasMore: total > (pageNumber - 1) * PAGE_SIZE + rows.length };
}

/** One announcement the actor may read; an inactive one is not found for anyone but the super-admin. */
export async function getAnnouncementRow(db: Database, actor: Actor, id: number) {
  const row = await selectAnnouncements(db, actor).selectAll('announcements').where('announcements.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('ERR_NOT_FOUND', 'Announcement not found.');
  return row;
}

function assertSuper(actor: Actor) {
  if (!actor.super) throw new AppError('ERR_NO_PERMISSION');
}

export async function createAnnouncement(tx: Tx, actor: Actor, input: AnnouncementCreateInput): Promise<Announcement> {
  assertSuper(actor);
  const row = await tenant(tx.db, actor.companyId)
    .insertInto('announcements', { title: input.title, text: input.text, priority: input.priority, status: input.status ? 1 : 0 })
    .returningAll()
    .executeTakeFirstOrThrow();
  tx.effects.pokeAll();
  return toAnnouncementDto(row);
}

type AnnouncementChanges = AnnouncementUpdateInput & { mediaPath?: string | null; mediaName?: string | null };

export async function updateAnnouncement(tx: Tx, actor: Actor, id: number, input: AnnouncementChanges): Promise<Announcement> {
  assertSuper(actor);
  const current = await getAnnouncementRow(tx.db, actor, id);
  const row = await tenant(tx.db, current.companyId)
    .updateTable('announcements')
    .set((eb) => ({
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.text !== undefined ? { text: input.text } : {}),
      ...(input.priority !== undefined ? { priority: input.priority } : {}),
      ...(input.status !== undefined ? { status: input.status ? 1 : 0 } : {}),
      ...(input.mediaPath !== undefined ? { mediaPath: input.mediaPath, mediaName: input.mediaName ?? null } : {}),
      version: eb('announcements.version', '+', 1),
      updatedAt: nowIso(),
    }))
    .where('announcements.id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  tx.effects.pokeAll();
  return toAnnouncementDto(row);
}

/** Sets (or, with null, clears) the picture, kept in the announcement's company folder (media/attachments.ts). */
export async function setAnnouncementMedia(tx: Tx, actor: Actor, id: number, file: UploadedFile | null): Promise<Announcement> {
  assertSuper(actor);
  const row = await getAnnouncementRow(tx.db, actor, id);
  const target = { companyId: row.companyId, folder: 'announcements', previous: row.mediaPath };
  return replaceAttachment(tx, target, file, (attachment) => updateAnnouncement(tx, actor, id, attachment));
}

/** Deletes the row; its picture leaves the disk after the commit. */
export async function deleteAnnouncement(tx: Tx, actor: Actor, id: number): Promise<void> {
  assertSuper(actor);
  const row = await getAnnouncementRow(tx.db, actor, id);
  await tenant(tx.db, row.companyId).deleteFrom('announcements').where('announcements.id', '=', id).execute();
  removeAttachmentAfterCommit(tx, row.mediaPath);
  tx.effects.pokeAll();
}
