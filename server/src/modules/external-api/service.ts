// POST /api/messages/send: a company's own systems send through a connection, named by its token.
// The contact and a ticket are made as needed; rules in ../tickets/README.md, "External API".
import { AppError } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import { assertPlanAllows } from '../../auth/plan-gate.ts';
import type { AppDeps } from '../../context.ts';
import type { Whatsapps } from '../../db/schema.ts';
import { write } from '../../db/write.ts';
import { findOrCreateContact } from '../contacts/queries.ts';
import type { NewUpload } from '../media/uploads.ts';
import { queueTicketUploads } from '../messages/send.ts';
import { findOrCreateNotificationTicket } from '../tickets/notification.ts';

export type ExternalSendResult = { message: string; ticketId: number; contactId: number; messageIds: number[] };

/** The connection a token names, in a company whose plan has the external API; 401 otherwise. */
export async function findConnectionByToken(deps: AppDeps, token: string | undefined): Promise<Selectable<Whatsapps>> {
  if (!token) throw new AppError('ERR_SESSION_EXPIRED', 'Send the connection token as "Authorization: Bearer <token>".');
  const connection = await deps.db.selectFrom('whatsapps').selectAll().where('whatsapps.token', '=', token).executeTakeFirst();
  if (!connection) throw new AppError('ERR_SESSION_EXPIRED', 'This token names no connection.');
  const company = await deps.db.selectFrom('companies').select('companies.status').where('companies.id', '=', connection.companyId).executeTakeFirst();
  if (!company || company.status !== 1) throw new AppError('ERR_COMPANY_INACTIVE');
  await assertPlanAllows(deps.db, connection.companyId, 'externalApi');
  return connection;
}

/** The number is checked on the network first (outside any transaction); the write queues the messages. */
export async function sendExternalMessage(
  deps: AppDeps,
  connection: Selectable<Whatsapps>,
  input: { number: string; body: string; uploads: NewUpload[] },
): Promise<ExternalSendResult> {
  if (input.body.trim() === '' && input.uploads.length === 0) throw new AppError('ERR_VALIDATION', 'body: give a text or a file.', { issues: [{ path: 'body', message: 'Required' }] });
  // Asked where the connection's session runs, whichever instance took this request (DESIGN §11).
  const [check] = await deps.sessions.queries(connection.companyId, connection.id).checkNumbers([input.number]).catch((err: unknown) => {
    if (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED') throw err;
    throw new AppError('ERR_WAPP_CHECK_CONTACT');
  });
  if (!check?.exists) throw new AppError('ERR_WAPP_INVALID_CONTACT');
  const companyId = connection.companyId;
  return deps.contactLocks.run(`${companyId}:${input.number}`, () =>
    write(deps, async (tx) => {
      const contact = await findOrCreateContact(tx.db, companyId, { number: input.number, jid: check.jid }, connection.id);
      const ticket = await findOrCreateNotificationTicket(tx, connection.id, contact);
      const queued = await queueTicketUploads(tx, ticket, { body: input.body, uploads: input.uploads });
      return { message: 'Message sent', ticketId: ticket.id, contactId: contact.id, messageIds: queued.map((m) => m.id) };
    }),
  );
}
