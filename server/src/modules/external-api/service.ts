// POST /api/messages/send: a company's own systems send through a connection, named by its token.
// The contact and a ticket are made as needed; rules in pipeline/README.md, "External API".
import { randomUUID } from 'node:crypto';
import { AppError } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { AppDeps } from '../../context.ts';
import type { Whatsapps } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import { findOrCreateContact } from '../contacts/queries.ts';
import { saveTicketMedia, removeMediaFile } from '../media/storage.ts';
import type { NewUpload } from '../messages/service.ts';
import { sendTicketMessage } from '../messages/send.ts';
import type { TicketRow } from '../tickets/dto.ts';
import { announceTicketChange } from '../tickets/events.ts';
import { startTracking } from '../ticket-tracking/service.ts';

export type ExternalSendResult = { message: string; ticketId: number; contactId: number; messageIds: number[] };

/** The connection a token names, in a company whose plan has the external API; 401 otherwise. */
export async function findConnectionByToken(deps: AppDeps, token: string | undefined): Promise<Selectable<Whatsapps>> {
  if (!token) throw new AppError('ERR_SESSION_EXPIRED', 'Send the connection token as "Authorization: Bearer <token>".');
  const connection = await deps.db.selectFrom('whatsapps').selectAll().where('whatsapps.token', '=', token).executeTakeFirst();
  if (!connection) throw new AppError('ERR_SESSION_EXPIRED', 'This token names no connection.');
  const plan = await deps.db
    .selectFrom('companies')
    .leftJoin('plans', 'plans.id', 'companies.planId')
    .select(['companies.status', 'plans.useExternalApi'])
    .where('companies.id', '=', connection.companyId)
    .executeTakeFirst();
  if (!plan || plan.status !== 1) throw new AppError('ERR_COMPANY_INACTIVE');
  if (plan.useExternalApi !== 1) throw new AppError('ERR_NO_PERMISSION', "The company's plan does not include the external API.");
  return connection;
}

export async function sendExternalMessage(
  deps: AppDeps,
  connection: Selectable<Whatsapps>,
  input: { number: string; body: string; uploads: NewUpload[] },
): Promise<ExternalSendResult> {
  if (input.body.trim() === '' && input.uploads.length === 0) throw new AppError('ERR_VALIDATION', 'body: give a text or a file.', { issues: [{ path: 'body', message: 'Required' }] });
  const channel = deps.outbound.channel(connection.id);
  if (!channel) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  const [check] = await channel.checkNumbers([input.number]).catch(() => {
    throw new AppError('ERR_WAPP_CHECK_CONTACT');
  });
  if (!check?.exists) throw new AppError('ERR_WAPP_INVALID_CONTACT');
  const companyId = connection.companyId;
  const { ticket, contactId } = await deps.contactLocks.run(`${companyId}:${input.number}`, async () => {
    const contact = await findOrCreateContact(deps.db, companyId, { number: input.number, jid: check.jid }, connection.id);
    return { ticket: await findOrCreateApiTicket(deps, connection, contact.id, contact.isGroup), contactId: contact.id };
  });
  const ids: number[] = [];
  if (input.uploads.length === 0) ids.push((await sendTicketMessage(deps, ticket, { body: input.body })).id);
  for (const [i, upload] of input.uploads.entries()) {
    const media = await saveTicketMedia(deps.config.mediaDir, companyId, ticket.id, upload);
    try {
      ids.push((await sendTicketMessage(deps, ticket, { body: i === 0 ? input.body : '', media })).id);
    } catch (err) {
      await removeMediaFile(deps.config.mediaDir, media.relPath);
      throw err;
    }
  }
  announceTicketChange(deps, companyId);
  return { message: 'Message sent', ticketId: ticket.id, contactId, messageIds: ids };
}

/**
 * The contact's active ticket on this connection; without one, a new ticket that is closed at once:
 * API sends are notifications, not conversations for the attendants' queues. A reply from the
 * contact opens a pending ticket through the inbound pipeline as usual.
 */
async function findOrCreateApiTicket(deps: AppDeps, connection: Selectable<Whatsapps>, contactId: number, isGroup: number): Promise<TicketRow> {
  const t = tenant(deps.db, connection.companyId);
  const active = await t
    .selectFrom('tickets')
    .selectAll('tickets')
    .where('tickets.contactId', '=', contactId)
    .where('tickets.whatsappId', '=', connection.id)
    .where('tickets.status', 'in', ['open', 'pending'])
    .orderBy('tickets.id', 'desc')
    .executeTakeFirst();
  if (active) return active;
  const now = new Date().toISOString();
  return deps.db.transaction().execute(async (trx) => {
    const ticket = await tenant(trx, connection.companyId)
      .insertInto('tickets', { uuid: randomUUID(), status: 'closed', contactId, whatsappId: connection.id, isGroup, closedAt: now, lastInteractionAt: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await startTracking(trx, connection.companyId, ticket, { finishedAt: now });
    return ticket;
  });
}
