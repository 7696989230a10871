// ticket/<id>: the active (open and pending) tickets the actor may see (spec/02 §6, the same rules
// as REST: visibility.ts), each as GET /tickets/{id} answers it (dto.ts). Closed tickets stay on
// paginated REST. The contacts and messages of these tickets (contacts/view.ts, messages/view.ts)
// follow the same listing: the helpers they share are exported here.
import { isCompanyAdmin, type Ticket } from '@zapdesk/sync';
import type { Actor } from '../../context.ts';
import { chunk, defineView, type RowId, type ViewContext } from '../../sync/views/types.ts';
import { toTicketDtos } from './dto.ts';
import { attendantScope, loadViewer } from './visibility.ts';

/** The tables whose changes can change who sees which active ticket. */
export const ACTIVE_TICKET_TABLES = ['tickets', 'ticket_tags', 'user_queues', 'users'];

/** Admins share one listing; an attendant's depends on their id, queues and flags. */
export const activeTicketsAudience = (actor: Actor) => (isCompanyAdmin(actor) ? 'admin' : `user:${actor.userId}`);

/** The open and pending tickets the actor may see, as a query to select from. */
async function selectActiveVisibleTickets(ctx: ViewContext) {
  const viewer = await loadViewer(ctx.db, ctx.actor);
  const q = ctx.t.selectFrom('tickets').where('tickets.status', 'in', ['open', 'pending']);
  return viewer.isCompanyAdmin ? q : q.where(attendantScope(viewer));
}

type ActiveTicket = { id: number; version: number; contactId: number };

// Per pull (its ViewContext): the ticket, contact and message views list the same tickets, read once.
const activeOfPull = new WeakMap<ViewContext, Promise<ActiveTicket[]>>();

/** The open and pending tickets the actor may see (read once per pull; the caller must not change the list). */
export function findActiveVisibleTickets(ctx: ViewContext): Promise<ActiveTicket[]> {
  let found = activeOfPull.get(ctx);
  if (!found) {
    found = selectActiveVisibleTickets(ctx).then((q) => q.select(['tickets.id', 'tickets.version', 'tickets.contactId']).execute());
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

/** What the values show of the company's queues, holders, connections and tags: one digest per row, keyed by id. */
async function findShownRelations(ctx: ViewContext) {
  const [queues, users, whatsapps, tags, ticketTags] = await Promise.all([
    ctx.t.selectFrom('queues').select(['queues.id', 'queues.name', 'queues.color']).execute(),
    ctx.t.selectFrom('users').select(['users.id', 'users.name']).execute(),
    ctx.t.selectFrom('whatsapps').select(['whatsapps.id', 'whatsapps.name', 'whatsapps.status']).execute(),
    ctx.t.selectFrom('tags').select(['tags.id', 'tags.name', 'tags.color']).execute(),
    ctx.t.selectFrom('ticketTags').select(['ticketTags.ticketId', 'ticketTags.tagId']).orderBy('ticketTags.tagId').execute(),
  ]);
  const byId = (rows: { id: number }[]) => new Map(rows.map((r) => [r.id, digest(JSON.stringify(r))]));
  const tagDigests = byId(tags);
  const tagsOf = new Map<number, string>();
  for (const r of ticketTags) tagsOf.set(r.ticketId, `${tagsOf.get(r.ticketId) ?? ''}${r.tagId}.${tagDigests.get(r.tagId)},`);
  return { queues: byId(queues), users: byId(users), whatsapps: byId(whatsapps), tagsOf };
}

export const ticketsView = defineView({
  name: 'ticket',
  prefix: 'ticket',
  // Besides visibility: the rows whose fields the value shows (contact, queue, holder, connection, tags).
  tables: [...ACTIVE_TICKET_TABLES, 'contacts', 'queues', 'whatsapps', 'tags'],
  audience: activeTicketsAudience,
  /**
   * The value shows fields of other rows, which change without the ticket's version: fold them into
   * the version, so a renamed contact, tag or queue reaches the client as REST would answer it. The
   * contact by its version (it rarely changes otherwise); the others by the shown text, since a
   * user's version moves with presence and a connection's with every QR code, which no ticket shows.
   */
  async listVersions(ctx) {
    const [tickets, shown] = await Promise.all([
      (await selectActiveVisibleTickets(ctx))
        .innerJoin('contacts', 'contacts.id', 'tickets.contactId')
        .select(['tickets.id', 'tickets.version', 'tickets.queueId', 'tickets.userId', 'tickets.whatsappId', 'contacts.version as contactVersion'])
        .execute(),
      findShownRelations(ctx),
    ]);
    return tickets.map((r) => {
      const related = [r.contactVersion, shown.queues.get(r.queueId ?? 0), shown.users.get(r.userId ?? 0), shown.whatsapps.get(r.whatsappId ?? 0), shown.tagsOf.get(r.id)];
      return { id: r.id, version: `${r.version}:${digest(related.join('|'))}` };
    });
  },
  async getValues(ctx, ids) {
    const out: { id: RowId; value: Ticket }[] = [];
    for (const part of chunk(ids as number[])) {
      const rows = await ctx.t.selectFrom('tickets').selectAll('tickets').where('tickets.id', 'in', part).execute();
      for (const dto of await toTicketDtos(ctx.db, ctx.actor.companyId, rows)) out.push({ id: dto.id, value: dto });
    }
    return out;
  },
});
