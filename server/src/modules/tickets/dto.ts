// The ticket as every transport sends it (`ticketSchema` in @zapdesk/sync, spec/02 §3): with contact,
// queue, user, connection and tags. The REST routes and ticket/<id> of the client view (view.ts) both
// answer with toTicketDtos.
import type { Ticket, TicketStatus } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Tx } from '../../db/write.ts';
import { prepare } from '../../db/prepared.ts';
import type { Tickets } from '../../db/schema.ts';

export type TicketRow = Selectable<Tickets>;

const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));
const unique = (ids: (number | null)[]) => [...new Set(ids.filter((id): id is number => id !== null))];

// What a ticket shows of its relations, compiled once per count of ids (every ticket list and every pull reads them).
type Ids = { companyId: number; ids: number[] };
const contactsOf = prepare((db, p: Ids) =>
  db
    .selectFrom('contacts')
    .select(['contacts.id', 'contacts.name', 'contacts.number', 'contacts.email', 'contacts.profilePicUrl', 'contacts.isGroup', 'contacts.disableBot'])
    .where('contacts.companyId', '=', p.companyId)
    .where('contacts.id', 'in', p.ids),
);
const queuesOf = prepare((db, p: Ids) => db.selectFrom('queues').select(['queues.id', 'queues.name', 'queues.color']).where('queues.companyId', '=', p.companyId).where('queues.id', 'in', p.ids));
const usersOf = prepare((db, p: Ids) => db.selectFrom('users').select(['users.id', 'users.name']).where('users.companyId', '=', p.companyId).where('users.id', 'in', p.ids));
const connectionsOf = prepare((db, p: Ids) =>
  db.selectFrom('whatsapps').select(['whatsapps.id', 'whatsapps.name', 'whatsapps.status']).where('whatsapps.companyId', '=', p.companyId).where('whatsapps.id', 'in', p.ids),
);
const tagsOf = prepare((db, p: Ids) =>
  db
    .selectFrom('ticketTags')
    .innerJoin('tags', 'tags.id', 'ticketTags.tagId')
    .select(['ticketTags.ticketId', 'tags.id', 'tags.name', 'tags.color'])
    .where('ticketTags.companyId', '=', p.companyId)
    .where('ticketTags.ticketId', 'in', p.ids)
    .orderBy('tags.name'),
);

/** Tickets of the company by id, compiled once per count (the client view's values). */
export const ticketsById = prepare((db, p: Ids) => db.selectFrom('tickets').selectAll('tickets').where('tickets.companyId', '=', p.companyId).where('tickets.id', 'in', p.ids));

/** Ticket rows of one company → DTOs, with their relations loaded in five queries whatever the count. */
export async function toTicketDtos(db: Database, companyId: number, rows: TicketRow[]): Promise<Ticket[]> {
  if (rows.length === 0) return [];
  const ids = (list: number[]) => ({ companyId, ids: list });
  const contactIds = unique(rows.map((r) => r.contactId));
  const queueIds = unique(rows.map((r) => r.queueId));
  const userIds = unique(rows.map((r) => r.userId));
  const whatsappIds = unique(rows.map((r) => r.whatsappId));
  const ticketIds = rows.map((r) => r.id);
  const [contacts, queues, users, whatsapps, tags] = await Promise.all([
    contactIds.length ? contactsOf(db, ids(contactIds)).then((r) => r.rows) : [],
    queueIds.length ? queuesOf(db, ids(queueIds)).then((r) => r.rows) : [],
    userIds.length ? usersOf(db, ids(userIds)).then((r) => r.rows) : [],
    whatsappIds.length ? connectionsOf(db, ids(whatsappIds)).then((r) => r.rows) : [],
    tagsOf(db, ids(ticketIds)).then((r) => r.rows),
  ]);
  const contactMap = byId(contacts);
  const queueMap = byId(queues);
  const userMap = byId(users);
  const whatsappMap = byId(whatsapps);
  const tagMap = new Map<number, Ticket['tags']>();
  for (const tag of tags) {
    const list = tagMap.get(tag.ticketId) ?? [];
    list.push({ id: tag.id, name: tag.name, color: tag.color });
    tagMap.set(tag.ticketId, list);
  }
  return rows.map((r) => {
    const c = contactMap.get(r.contactId);
    return {
      id: r.id,
      uuid: r.uuid,
      status: r.status as TicketStatus,
      userId: r.userId,
      user: (r.userId !== null && userMap.get(r.userId)) || null,
      queueId: r.queueId,
      queue: (r.queueId !== null && queueMap.get(r.queueId)) || null,
      whatsappId: r.whatsappId,
      whatsapp: (r.whatsappId !== null && whatsappMap.get(r.whatsappId)) || null,
      contactId: r.contactId,
      contact: {
        id: r.contactId,
        name: c?.name ?? '',
        number: c?.number ?? '',
        email: c?.email ?? '',
        profilePicUrl: c?.profilePicUrl ?? null,
        isGroup: c?.isGroup === 1,
        disableBot: c?.disableBot === 1,
      },
      isGroup: r.isGroup === 1,
      chatbot: r.chatbot === 1,
      queueOptionId: r.queueOptionId,
      lastMessage: r.lastMessage,
      unreadMessages: r.unreadMessages,
      awaitingRating: r.awaitingRating === 1,
      useIntegration: r.useIntegration === 1,
      flowId: r.flowId,
      flowNodeId: r.flowNodeId,
      promptId: r.promptId,
      integrationId: r.integrationId,
      code: r.code,
      tags: tagMap.get(r.id) ?? [],
      lastInteractionAt: r.lastInteractionAt,
      closedAt: r.closedAt,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      version: r.version,
    };
  });
}

export async function toTicketDto(db: Database, companyId: number, row: TicketRow): Promise<Ticket> {
  return (await toTicketDtos(db, companyId, [row]))[0]!;
}

// Every ticket action starts here: compiled once (../../db/prepared.ts).
const selectTicketRow = prepare((db, p: { companyId: number; ticketId: number }) =>
  db.selectFrom('tickets').selectAll('tickets').where('tickets.companyId', '=', p.companyId).where('tickets.id', '=', p.ticketId),
);

export async function findTicketRow(db: Database, companyId: number, ticketId: number): Promise<TicketRow | undefined> {
  return (await selectTicketRow(db, { companyId, ticketId })).rows[0];
}

const selectTicketRowForUpdate = prepare((db, p: { companyId: number; ticketId: number }) =>
  db.selectFrom('tickets').selectAll('tickets').where('tickets.companyId', '=', p.companyId).where('tickets.id', '=', p.ticketId).forUpdate(),
);

/**
 * The ticket as this write sees it, locked until the write ends on PostgreSQL (SQLite's writes take
 * turns as a whole). The automation's writes (the inbound chain, flow steps, assistant turns) read
 * it first, so that writes to one ticket queue behind each other in one lock order.
 */
export async function lockTicketRow(tx: Pick<Tx, 'db' | 'dialect'>, companyId: number, ticketId: number): Promise<TicketRow | undefined> {
  const query = tx.dialect === 'postgres' ? selectTicketRowForUpdate : selectTicketRow;
  return (await query(tx.db, { companyId, ticketId })).rows[0];
}
