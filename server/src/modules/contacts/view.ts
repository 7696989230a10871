// contact/<id>: the contacts of the active tickets the user may see (tickets/view.ts decides which),
// each as GET /contacts/{id} answers it (dto.ts). The full contact list stays on paginated REST.
import type { Contact } from '@zapdesk/sync';
import { chunk, defineView, type RowId } from '../../sync/views/types.ts';
import { ACTIVE_TICKET_TABLES, activeTicketsAudience, findActiveVisibleTickets } from '../tickets/view.ts';
import { toContactDtos } from './dto.ts';

export const ticketContactsView = defineView({
  name: 'ticket-contact',
  prefix: 'contact',
  tables: [...ACTIVE_TICKET_TABLES, 'contacts', 'contact_custom_fields'],
  audience: activeTicketsAudience,
  async listVersions(ctx) {
    const contactIds = [...new Set((await findActiveVisibleTickets(ctx)).map((r) => r.contactId))];
    const out: { id: RowId; version: number }[] = [];
    for (const part of chunk(contactIds)) {
      out.push(...(await ctx.t.selectFrom('contacts').select(['contacts.id', 'contacts.version']).where('contacts.id', 'in', part).execute()));
    }
    return out;
  },
  async getValues(ctx, ids) {
    const out: { id: RowId; value: Contact }[] = [];
    for (const part of chunk(ids as number[])) {
      const rows = await ctx.t.selectFrom('contacts').selectAll('contacts').where('contacts.id', 'in', part).execute();
      for (const dto of await toContactDtos(ctx.db, ctx.actor.companyId, rows)) out.push({ id: dto.id, value: dto });
    }
    return out;
  },
});
