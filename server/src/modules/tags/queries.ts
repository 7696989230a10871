// Data functions of tags: the database handle (often a transaction) first, the company second.
import { PAGE_SIZE, type Tag, type TagWithCount, type TicketTagRef } from '@zapdesk/sync';
import type { Database } from '../../db/database.ts';
import { likeFolded } from '../../db/like.ts';
import { tenant } from '../../db/tenant.ts';
import { toTagDto } from './dto.ts';

/** One page of tags with how many tickets carry each, searched over the name. */
export async function findTagsPage(db: Database, companyId: number, search: string, pageNumber: number) {
  let query = tenant(db, companyId).selectFrom('tags');
  if (search) query = query.where((eb) => likeFolded(eb.ref('tags.name'), search));
  const rows = await query
    .selectAll('tags')
    .select((eb) =>
      eb
        .selectFrom('ticketTags')
        .select(eb.fn.countAll<number>().as('n'))
        .where('ticketTags.companyId', '=', companyId)
        .whereRef('ticketTags.tagId', '=', 'tags.id')
        .as('ticketsCount'),
    )
    .orderBy('tags.name')
    .orderBy('tags.id')
    .limit(PAGE_SIZE + 1)
    .offset((pageNumber - 1) * PAGE_SIZE)
    .execute();
  const tags: TagWithCount[] = rows.slice(0, PAGE_SIZE).map((r) => ({ ...toTagDto(r), ticketsCount: Number(r.ticketsCount ?? 0) }));
  return { tags, hasMore: rows.length > PAGE_SIZE };
}

export async function findTagRow(db: Database, companyId: number, tagId: number) {
  return tenant(db, companyId).selectFrom('tags').selectAll('tags').where('tags.id', '=', tagId).executeTakeFirst();
}

export async function findAllTags(db: Database, companyId: number, onlyKanban = false): Promise<Tag[]> {
  const rows = await tenant(db, companyId)
    .selectFrom('tags')
    .selectAll('tags')
    .$if(onlyKanban, (q) => q.where('tags.kanban', '=', 1))
    .orderBy('tags.name')
    .orderBy('tags.id')
    .execute();
  return rows.map(toTagDto);
}

/** A tag of the company with the same name, ignoring case (another than `exceptId`). */
export async function findTagByName(db: Database, companyId: number, name: string, exceptId?: number) {
  return tenant(db, companyId)
    .selectFrom('tags')
    .select('tags.id')
    .where((eb) => eb(eb.fn('lower', ['tags.name']), '=', name.toLowerCase()))
    .$if(exceptId !== undefined, (q) => q.where('tags.id', '!=', exceptId!))
    .executeTakeFirst();
}

/** Which of these ids are not tags of the company. */
export async function findForeignTagIds(db: Database, companyId: number, tagIds: number[]): Promise<number[]> {
  if (tagIds.length === 0) return [];
  const rows = await tenant(db, companyId).selectFrom('tags').select('tags.id').where('tags.id', 'in', tagIds).execute();
  const own = new Set(rows.map((r) => r.id));
  return tagIds.filter((id) => !own.has(id));
}

/** The tags of each ticket, in name order. */
export async function findTicketTags(db: Database, companyId: number, ticketIds: number[]): Promise<Map<number, TicketTagRef[]>> {
  const byTicket = new Map<number, TicketTagRef[]>();
  if (ticketIds.length === 0) return byTicket;
  const rows = await tenant(db, companyId)
    .selectFrom('ticketTags')
    .innerJoin('tags', 'tags.id', 'ticketTags.tagId')
    .select(['ticketTags.ticketId', 'tags.id', 'tags.name', 'tags.color', 'tags.kanban'])
    .where('ticketTags.ticketId', 'in', ticketIds)
    .orderBy('tags.name')
    .execute();
  for (const r of rows) {
    const list = byTicket.get(r.ticketId) ?? [];
    list.push({ id: r.id, name: r.name, color: r.color, kanban: r.kanban === 1 ? 1 : 0 });
    byTicket.set(r.ticketId, list);
  }
  return byTicket;
}

export async function findTicketIdsWithTag(db: Database, companyId: number, tagId: number): Promise<number[]> {
  const rows = await tenant(db, companyId).selectFrom('ticketTags').select('ticketTags.ticketId').where('ticketTags.tagId', '=', tagId).execute();
  return rows.map((r) => r.ticketId);
}
