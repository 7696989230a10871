// What a turn needs before its call, read outside any transaction: the ticket (still waiting for
// its assistant?), the contact, connection and company, the customer's message, the assistant's
// configuration with its secret opened, and for a prompt the latest messages of the conversation.
import { createHmac } from 'node:crypto';
import path from 'node:path';
import type { AppDeps } from '../context.ts';
import { tenant } from '../db/tenant.ts';
import type { TicketRow } from '../modules/tickets/dto.ts';
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

export type LoadedTurn = { ticket: TicketRow; ctx: Omit<TurnContext, 'signal'> };

/** A prompt's turn reads its message with the history (turn.ts): the one read is skipped here. */
export async function loadTurn(deps: AppDeps, turn: TurnRow): Promise<LoadedTurn | undefined> {
  const t = tenant(deps.db, turn.companyId);
  const ticket = await t.selectFrom('tickets').selectAll('tickets').where('tickets.id', '=', turn.ticketId).executeTakeFirst();
  if (!ticket || !waitsForTurn(turn, ticket) || ticket.whatsappId === null) return undefined;
  const [contact, connection, company, message] = await Promise.all([
    t.selectFrom('contacts').select(['contacts.id', 'contacts.name', 'contacts.number', 'contacts.email']).where('contacts.id', '=', ticket.contactId).executeTakeFirst(),
    t.selectFrom('whatsapps').select(['whatsapps.id', 'whatsapps.name', 'whatsapps.number']).where('whatsapps.id', '=', ticket.whatsappId).executeTakeFirst(),
    deps.db.selectFrom('companies').select(['companies.id', 'companies.name']).where('companies.id', '=', turn.companyId).executeTakeFirst(),
    turn.messageId === null || turn.kind === 'prompt' ? undefined : readMessages(deps, turn.companyId, ticket.id, { id: turn.messageId }).then((m) => m[0]),
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

/** The ticket's latest `limit` messages (oldest first), or one message by id. Revoked ones are left out. */
export async function readMessages(deps: AppDeps, companyId: number, ticketId: number, which: { latest: number } | { id: number }): Promise<TurnMessage[]> {
  const rows = await tenant(deps.db, companyId)
    .selectFrom('messages')
    .leftJoin('messageTranscripts', 'messageTranscripts.messageId', 'messages.id')
    .select(['messages.id', 'messages.fromMe', 'messages.body', 'messages.mediaType', 'messages.mediaUrl', 'messages.createdAt', 'messageTranscripts.text as transcript'])
    .where('messages.ticketId', '=', ticketId)
    .where('messages.isDeleted', '=', 0)
    .$if('id' in which, (q) => q.where('messages.id', '=', (which as { id: number }).id))
    .orderBy('messages.id', 'desc')
    .limit('latest' in which ? which.latest : 1)
    .execute();
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
