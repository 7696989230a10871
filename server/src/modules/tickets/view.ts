// ticket/<id>: the active (open and pending) tickets the actor may see (spec/02 §6, the same rules
// as REST: visibility.ts), each as GET /tickets/{id} answers it (dto.ts). Closed tickets stay on
// paginated REST. The contacts and messages of these tickets (contacts/view.ts, messages/view.ts)
// follow the same listing: the helpers they share are exported here.
import { AppError, isCompanyAdmin, type Ticket } from '@zapdesk/sync';
import type { Actor } from '../../context.ts';
import { chunk, defineView, type RowId, type ViewContext } from '../../sync/views/types.ts';
import { ticketsById, toTicketDtos } from './dto.ts';
import { sharedByCompany } from '../../sync/views/company-cache.ts';
import { canSeeTicket, viewerOf, type Viewer, type ViewerFlags } from './visibility.ts';

/** The tables whose changes can change who sees which active ticket. */
export const ACTIVE_TICKET_TABLES = ['tickets', 'ticket_tags', 'user_queues', 'users'];

/** Admins share one listing; an attendant's depends on their id, queues and flags. */
export const activeTicketsAudience = (actor: Actor) => (isCompanyAdmin(actor) ? 'admin' : `user:${actor.userId}`);

/** A company's open or pending ticket: what decides who sees it, and what its listed version is made of. */
type CompanyTicket = {
  id: number;
  version: number;
  contactId: number;
  queueId: number | null;
  userId: number | null;
  status: string;
  whatsappId: number | null;
  contactVersion: number;
};
type ActiveTicket = Pick<CompanyTicket, 'id' | 'version' | 'contactId'>;

/**
 * The company's open and pending tickets in id order, with their contact's version: read once per
 * change of its tickets (or contacts) for all its pulls, and for both uses, who sees which ticket and
 * each one's listed version (one read of the active tickets after a change instead of two).
 */
function findCompanyActiveTickets(ctx: ViewContext): Promise<CompanyTicket[]> {
  return sharedByCompany(ctx, 'active-tickets', ['tickets', 'contacts'], () =>
    ctx.t
      .selectFrom('tickets')
      .innerJoin('contacts', 'contacts.id', 'tickets.contactId')
      .where('tickets.status', 'in', ['open', 'pending'])
      .select(['tickets.id', 'tickets.version', 'tickets.contactId', 'tickets.queueId', 'tickets.userId', 'tickets.status', 'tickets.whatsappId', 'contacts.version as contactVersion'])
      .orderBy('tickets.id')
      .execute(),
  );
}

type CompanyViewers = { flags: Map<number, ViewerFlags>; queueIds: Map<number, number[]> };

/**
 * The actor's viewer (visibility.ts) for a pull: the flags and queues of every user of the company,
 * read once per change of users or queue memberships for all its pulls, and the actor's taken from
 * them. A user that is gone is ERR_SESSION_EXPIRED, as loadViewer answers.
 */
export async function loadPullViewer(ctx: ViewContext): Promise<Viewer> {
  const viewers = await sharedByCompany(ctx, 'viewers', ['users', 'user_queues'], async (): Promise<CompanyViewers> => {
    const [users, memberships] = await Promise.all([
      ctx.t.selectFrom('users').select(['users.id', 'users.showNoQueue', 'users.allTicket']).execute(),
      ctx.t.selectFrom('userQueues').select(['userQueues.userId', 'userQueues.queueId']).execute(),
    ]);
    const queueIds = new Map<number, number[]>();
    for (const m of memberships) {
      const ids = queueIds.get(m.userId);
      if (ids) ids.push(m.queueId);
      else queueIds.set(m.userId, [m.queueId]);
    }
    return { flags: new Map(users.map((u) => [u.id, u])), queueIds };
  });
  const flags = viewers.flags.get(ctx.actor.userId);
  if (!flags) throw new AppError('ERR_SESSION_EXPIRED');
  return viewerOf(ctx.actor, flags, viewers.queueIds.get(ctx.actor.userId) ?? []);
}

// Per pull (its ViewContext): the ticket, contact and message views list the same tickets, read once.
const activeOfPull = new WeakMap<ViewContext, Promise<ActiveTicket[]>>();

/**
 * The open and pending tickets the actor may see, in id order (read once per pull; the caller must
 * not change the list): the company's, through the same rules as REST (visibility.ts).
 */
export function findActiveVisibleTickets(ctx: ViewContext): Promise<ActiveTicket[]> {
  let found = activeOfPull.get(ctx);
  if (!found) {
    found = Promise.all([loadPullViewer(ctx), findCompanyActiveTickets(ctx)]).then(([viewer, tickets]) => (viewer.isCompanyAdmin ? tickets : tickets.filter((t) => canSeeTicket(viewer, t))));
    activeOfPull.set(ctx, found);
    // A failed read is not kept.
    found.catch(() => activeOfPull.delete(ctx));
  }
  return found;
}

/**
 * FNV-1a (32 bits) in base 36: a short digest of what a ticket's value shows of other rows. Cheap
 * enough to run per ticket on every listing; a collision would only delay one refresh of one ticket.
 */
function digest(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** What a ticket's value shows of the rows of each table it refers to. */
const SHOWN_ROWS = {
  queues: (ctx: ViewContext) => ctx.t.selectFrom('queues').select(['queues.id', 'queues.name', 'queues.color']).execute(),
  users: (ctx: ViewContext) => ctx.t.selectFrom('users').select(['users.id', 'users.name']).execute(),
  whatsapps: (ctx: ViewContext) => ctx.t.selectFrom('whatsapps').select(['whatsapps.id', 'whatsapps.name', 'whatsapps.status']).execute(),
  tags: (ctx: ViewContext) => ctx.t.selectFrom('tags').select(['tags.id', 'tags.name', 'tags.color']).execute(),
} satisfies Record<string, (ctx: ViewContext) => Promise<{ id: number }[]>>;

/**
 * What the values show of one table's rows (queues, holders, connections, tags): a digest per row,
 * keyed by id. Every user of a company shows the same, so after a change of that table (a tag
 * renamed, a presence moving the users' counter) the first pull reads it and the others reuse it;
 * each table on its own, so a renamed tag does not re-read the users.
 */
function findShown(ctx: ViewContext, table: keyof typeof SHOWN_ROWS): Promise<Map<number, string>> {
  return sharedByCompany(ctx, `ticket-shown-${table}`, [table], async () => {
    const rows: { id: number }[] = await SHOWN_ROWS[table](ctx);
    return new Map(rows.map((r) => [r.id, digest(JSON.stringify(r))]));
  });
}

/** The tag ids of the company's active tickets, sorted, by ticket id. */
function findActiveTicketTags(ctx: ViewContext): Promise<Map<number, number[]>> {
  return sharedByCompany(ctx, 'ticket-tag-ids', ['tickets', 'ticket_tags'], async () => {
    // From the active tickets (their status index), not from the company's ticket tags: closed
    // tickets keep theirs, and a company's history outgrows what is open.
    const rows = await ctx.t
      .selectFrom('tickets')
      .innerJoin('ticketTags', 'ticketTags.ticketId', 'tickets.id')
      .where('tickets.status', 'in', ['open', 'pending'])
      .select(['ticketTags.ticketId', 'ticketTags.tagId'])
      .execute();
    const idsOf = new Map<number, number[]>();
    for (const r of rows) {
      const ids = idsOf.get(r.ticketId);
      if (ids) ids.push(r.tagId);
      else idsOf.set(r.ticketId, [r.tagId]);
    }
    for (const ids of idsOf.values()) ids.sort((a, b) => a - b);
    return idsOf;
  });
}

/** The tables whose rows decide a ticket's listed version: its own, its contact's and what its value shows of others. */
const TICKET_VALUE_TABLES = ['tickets', 'contacts', 'queues', 'users', 'whatsapps', 'tags', 'ticket_tags'];

/**
 * Each active ticket's listed version, by id, for the whole company (each user's listing picks the
 * ones they see). The value shows fields of other rows, which change without the ticket's version:
 * they are folded into it, so a renamed contact, tag or queue reaches the client as REST would
 * answer it. The contact by its version (it rarely changes otherwise); the others by the shown text,
 * since a user's version moves with presence and a connection's with every QR code, which no ticket
 * shows. Each part is read again only when its own tables change, all at once.
 */
function findTicketVersions(ctx: ViewContext): Promise<Map<number, string>> {
  return sharedByCompany(ctx, 'ticket-versions', TICKET_VALUE_TABLES, async () => {
    const [tickets, queues, users, whatsapps, tags, tagIds] = await Promise.all([
      findCompanyActiveTickets(ctx),
      findShown(ctx, 'queues'),
      findShown(ctx, 'users'),
      findShown(ctx, 'whatsapps'),
      findShown(ctx, 'tags'),
      findActiveTicketTags(ctx),
    ]);
    const versions = new Map<number, string>();
    for (const r of tickets) {
      const tagsShown = tagIds.get(r.id)?.map((id) => `${id}.${tags.get(id)},`).join('');
      const related = [r.contactVersion, queues.get(r.queueId ?? 0), users.get(r.userId ?? 0), whatsapps.get(r.whatsappId ?? 0), tagsShown];
      versions.set(r.id, `${r.version}:${digest(related.join('|'))}`);
    }
    return versions;
  });
}

export const ticketsView = defineView({
  name: 'ticket',
  prefix: 'ticket',
  // Besides visibility: the rows whose fields the value shows (contact, queue, holder, connection, tags).
  tables: [...ACTIVE_TICKET_TABLES, 'contacts', 'queues', 'whatsapps', 'tags'],
  audience: activeTicketsAudience,
  async listVersions(ctx) {
    // Someone who sees no active ticket (an attendant with an empty queue) needs none of their versions.
    const visible = await findActiveVisibleTickets(ctx);
    if (visible.length === 0) return [];
    const versions = await findTicketVersions(ctx);
    // A ticket the two reads saw differently (it became active between them) lists under its own
    // version alone; its value is read fresh all the same, and the next listing after a change of
    // what it shows carries the full version.
    return visible.map((t) => ({ id: t.id, version: versions.get(t.id) ?? String(t.version) }));
  },
  async getValues(ctx, ids) {
    const out: { id: RowId; value: Ticket }[] = [];
    for (const part of chunk(ids as number[])) {
      const { rows } = await ticketsById(ctx.db, { companyId: ctx.actor.companyId, ids: part });
      for (const dto of await toTicketDtos(ctx.db, ctx.actor.companyId, rows)) out.push({ id: dto.id, value: dto });
    }
    return out;
  },
});
