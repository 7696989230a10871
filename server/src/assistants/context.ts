// What a turn needs before its call, read outside any transaction: the ticket (still waiting for
// its assistant?), the contact, connection and company, the customer's message, the assistant's
// configuration with its secret opened, and for a prompt the latest messages of the conversation.
import { createHmac } from 'node:crypto';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../context.ts';
import { prepare } from '../db/prepared.ts';
import type { DB } from '../db/schema.ts';
import { findTicketRow, type TicketRow } from '../modules/tickets/dto.ts';
import type { TurnContext, TurnMessage } from './adapters/types.ts';
import type { TurnRow } from './turns.ts';

type Waiting = Pick<TicketRow, 'status' | 'userId' | 'assistantState' | 'isGroup'>;

/** Whether the ticket still belongs to its assistant: pending, nobody's, bot on, not handed over. */
export const waitsForAssistant = (t: Waiting) => t.status === 'pending' && t.userId === null && t.assistantState !== 'off' && t.isGroup !== 1;

/** A flow's step: the ticket must still be pending and nobody's (the flow itself says when it is done). */
const waitsForFlow = (t: Waiting) => t.status === 'pending' && t.userId === null && t.isGroup !== 1;

/** Whether the ticket still waits for this turn's assistant. */
export const waitsForTurn = (turn: Pick<TurnRow, 'kind'>, t: Waiting) => (turn.kind === 'flow' ? waitsForFlow(t) : waitsForAssistant(t));

const MEDIA_LINK_TTL_S = 24 * 3600;

/** A link to a ticket's file that works without signing in, for a day (webhook receivers download it). */
export function signedMediaUrl(deps: Pick<AppDeps, 'config'>, relPath: string, now = Date.now()): string {
  const exp = Math.floor(now / 1000) + MEDIA_LINK_TTL_S;
  return `${deps.config.assistants.publicUrl}/media/${relPath}?exp=${exp}&sig=${mediaSignature(deps.config.dataKey, relPath, exp)}`;
}

export function mediaSignature(dataKey: string, relPath: string, exp: number): string {
  return createHmac('sha256', `media-link:${dataKey}`).update(`${relPath}\n${exp}`).digest('base64url');
}

export type LoadedTurn = { ticket: TicketRow; ctx: Omit<TurnContext, 'signal' | 'targets'> };

/** A prompt's turn reads its message with the history (turn.ts): the one read is skipped here. */
export async function loadTurn(deps: AppDeps, turn: TurnRow): Promise<LoadedTurn | undefined> {
  const companyId = turn.companyId;
  const ticket = await findTicketRow(deps.db, companyId, turn.ticketId);
  if (!ticket || !waitsForTurn(turn, ticket) || ticket.whatsappId === null) return undefined;
  const [contact, connection, company, message] = await Promise.all([
    selectContact(deps.db, { companyId, id: ticket.contactId }).then((r) => r.rows[0]),
    selectConnection(deps.db, { companyId, id: ticket.whatsappId }).then((r) => r.rows[0]),
    selectCompany(deps.db, { companyId }).then((r) => r.rows[0]),
    turn.messageId === null || turn.kind === 'prompt' ? undefined : readMessages(deps, companyId, ticket.id, { id: turn.messageId }).then((m) => m[0]),
  ]);
  if (!contact || !connection || !company) return undefined;
  return {
    ticket,
    ctx: {
      deliveryId: `turn-${turn.id}`,
      company,
      connection: { id: connection.id, name: connection.name, number: connection.number ?? null },
      ticket: { id: ticket.id, uuid: ticket.uuid, status: ticket.status, queueId: ticket.queueId },
      contact: { id: contact.id, name: contact.name, number: contact.number, email: contact.email ?? '' },
      message,
    },
  };
}

// Every turn reads these: compiled once (../db/prepared.ts).
const selectContact = prepare((db, p: { companyId: number; id: number }) =>
  db.selectFrom('contacts').select(['contacts.id', 'contacts.name', 'contacts.number', 'contacts.email']).where('contacts.companyId', '=', p.companyId).where('contacts.id', '=', p.id),
);
const selectConnection = prepare((db, p: { companyId: number; id: number }) =>
  db.selectFrom('whatsapps').select(['whatsapps.id', 'whatsapps.name', 'whatsapps.number']).where('whatsapps.companyId', '=', p.companyId).where('whatsapps.id', '=', p.id),
);
const selectCompany = prepare((db, p: { companyId: number }) => db.selectFrom('companies').select(['companies.id', 'companies.name']).where('companies.id', '=', p.companyId));

/** The ticket's latest `limit` messages (oldest first), or one message by id. Revoked ones are left out. */
export async function readMessages(deps: AppDeps, companyId: number, ticketId: number, which: { latest: number } | { id: number }): Promise<TurnMessage[]> {
  const { rows } = 'id' in which ? await selectMessage(deps.db, { companyId, ticketId, id: which.id }) : await selectLatestMessages(deps.db, { companyId, ticketId, limit: which.latest });
  return rows.reverse().map((r) => ({
    id: r.id,
    fromMe: r.fromMe === 1,
    body: r.body ?? '',
    mediaType: r.mediaType,
    mediaPath: r.mediaUrl ? path.join(deps.config.mediaDir, r.mediaUrl) : null,
    mediaUrl: r.mediaUrl ? signedMediaUrl(deps, r.mediaUrl) : null,
    transcript: r.transcript ?? null,
    createdAt: r.createdAt,
  }));
}

const selectTurnMessages = (db: Kysely<DB>, p: { companyId: number; ticketId: number }) =>
  db
    .selectFrom('messages')
    .leftJoin('messageTranscripts', 'messageTranscripts.messageId', 'messages.id')
    .select(['messages.id', 'messages.fromMe', 'messages.body', 'messages.mediaType', 'messages.mediaUrl', 'messages.createdAt', 'messageTranscripts.text as transcript'])
    .where('messages.companyId', '=', p.companyId)
    .where('messages.ticketId', '=', p.ticketId)
    .where('messages.isDeleted', '=', 0);
const selectLatestMessages = prepare((db, p: { companyId: number; ticketId: number; limit: number }) => selectTurnMessages(db, p).orderBy('messages.id', 'desc').limit(p.limit));
const selectMessage = prepare((db, p: { companyId: number; ticketId: number; id: number }) => selectTurnMessages(db, p).where('messages.id', '=', p.id));
