// Automatic messages (bot menus, greetings, farewells, out-of-hours texts, rating requests) are
// queued like an agent's, in the transaction of the work that caused them, so they leave only if that
// work commits. A ticket without a connection (or an empty text) simply gets none: they never fail
// that work. Their template variables ({{name}}, {{ms}}, {nome} …) are filled in here, through the
// one renderer of @zapdesk/sync, with the ticket's contact, queue and connection.
import { buildTemplateVars, hasTemplateTokens, renderTemplate, type GreetingLanguage } from '@zapdesk/sync';
import { tenant } from '../db/tenant.ts';
import type { Reader, Tx } from '../db/write.ts';
import type { MessageRow } from '../modules/messages/dto.ts';
import { queueTicketMessage } from '../modules/messages/send.ts';
import type { TicketRow } from '../modules/tickets/dto.ts';

export async function queueAutoReply(tx: Tx, ticket: TicketRow, body: string): Promise<MessageRow | undefined> {
  if (body.trim() === '' || ticket.whatsappId === null) return undefined;
  return queueTicketMessage(tx, ticket, { body: await renderForTicket(tx, ticket, body) });
}

/** The zone of `{{date}}`, `{{hour}}` and the greeting: the server's (run it with TZ set to the company's zone). */
export const serverTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The names of the ticket's queue and connection, for `{{queue}}` and `{{connection}}`. */
export async function ticketNames(r: Reader, ticket: Pick<TicketRow, 'companyId' | 'queueId' | 'whatsappId'>): Promise<{ queue: string | null; connection: string | null }> {
  const t = tenant(r.db, ticket.companyId);
  // One after the other: inside a PostgreSQL transaction they share one connection anyway.
  const queue = ticket.queueId === null ? undefined : await t.selectFrom('queues').select('queues.name').where('queues.id', '=', ticket.queueId).executeTakeFirst();
  const connection = ticket.whatsappId === null ? undefined : await t.selectFrom('whatsapps').select('whatsapps.name').where('whatsapps.id', '=', ticket.whatsappId).executeTakeFirst();
  return { queue: queue?.name ?? null, connection: connection?.name ?? null };
}

/**
 * The language of the greeting (`{{ms}}`) in a company's own texts: its author's, as far as we can
 * tell: the ticket's attendant, else the company's first admin; English (the default) otherwise.
 */
export async function textLanguage(r: Reader, ticket: Pick<TicketRow, 'companyId' | 'userId'>): Promise<GreetingLanguage> {
  const users = tenant(r.db, ticket.companyId).selectFrom('users').select('users.language');
  const user =
    (ticket.userId !== null ? await users.where('users.id', '=', ticket.userId).executeTakeFirst() : undefined) ??
    (await users.where('users.profile', '=', 'admin').orderBy('users.id').limit(1).executeTakeFirst());
  const lang = user?.language;
  return lang === 'pt' || lang === 'es' ? lang : 'en';
}

/** A text with its variables filled in for the ticket; read only when the text names one. */
export async function renderForTicket(r: Reader, ticket: TicketRow, text: string, now = new Date()): Promise<string> {
  if (!hasTemplateTokens(text)) return text;
  const t = tenant(r.db, ticket.companyId);
  const contact = await t.selectFrom('contacts').select(['contacts.name', 'contacts.number', 'contacts.email']).where('contacts.id', '=', ticket.contactId).executeTakeFirst();
  const names = await ticketNames(r, ticket);
  const lang = await textLanguage(r, ticket);
  const vars = buildTemplateVars({ contact: contact ?? { name: '' }, ticketId: ticket.id, ...names, now, timeZone: serverTimeZone(), lang });
  return renderTemplate(text, vars);
}
