// The automation chain after a contact's message lands in a pending, unassigned ticket: business
// hours, the queue menu, the queue's options tree. It runs as one write after the message's commit.
// Each bot step first claims the ticket's bot state with a conditional update (still pending, still
// nobody's), so an agent who accepts meanwhile wins and the bot says nothing more; its message is
// queued in the same transaction. Rules in README.md.
import type { Updateable } from 'kysely';
import { emit, ticketEvent } from '../events/emit.ts';
import type { Tickets, TicketTrackings } from '../db/schema.ts';
import { tenant } from '../db/tenant.ts';
import type { Tx } from '../db/write.ts';
import type { ContactRow } from '../modules/contacts/queries.ts';
import type { TicketRow } from '../modules/tickets/dto.ts';
import { trackTicket } from '../modules/ticket-tracking/service.ts';
import { isOpenAt, parseSchedules } from './business-hours.ts';
import type { ConnectionRow } from './ingest.ts';
import { findOption, findOptions, isBack, optionsMenuText, parseChoice, queueMenuText, type MenuQueue } from './menu.ts';
import { queueAutoReply } from './reply.ts';
import { takeForAssistant } from '../assistants/chain.ts';
import type { CompanySettings } from './settings.ts';

export type AutomationContext = {
  connection: ConnectionRow;
  /** The connection's queues, by orderQueue. */
  queues: MenuQueue[];
  ticket: TicketRow;
  contact: ContactRow;
  settings: CompanySettings;
  body: string;
  /** The inbound message that triggered the chain. */
  messageId: number;
  now: Date;
};

type BotPatch = Pick<Updateable<Tickets>, 'queueId' | 'queueOptionId' | 'chatbot' | 'amountUsedBotQueues'>;

/** Whether the chain has anything to do for this message (checked before a write is opened for it). */
export function wantsAutomation(ctx: Pick<AutomationContext, 'ticket' | 'contact'>): boolean {
  const { ticket, contact } = ctx;
  return ticket.status === 'pending' && ticket.userId === null && contact.disableBot !== 1 && ticket.isGroup !== 1;
}

export async function runAutomation(tx: Tx, ctx: AutomationContext): Promise<void> {
  const { connection, ticket, settings } = ctx;
  if (!wantsAutomation(ctx)) return;
  if (settings.scheduleType === 'company') {
    const company = await tx.db.selectFrom('companies').select('companies.schedules').where('companies.id', '=', connection.companyId).executeTakeFirst();
    if (!isOpenAt(parseSchedules(company?.schedules), ctx.now)) return replyOutOfHours(tx, ctx, connection.outOfHoursMessage);
  }
  const { queues } = ctx;
  if (ticket.queueId === null) {
    // The connection's integration or prompt answers before any menu (assistants/README.md).
    if (await takeForAssistant(tx, ticket, connection, ctx.messageId)) return;
    if (queues.length === 0) return;
    if (queues.length === 1) return enterQueue(tx, ctx, ticket, queues[0]!, queues, settings.sendGreetingMessageOneQueues === 'enabled');
    const choice = ticket.chatbot === 1 ? parseChoice(ctx.body) : undefined;
    const chosen = choice === undefined ? undefined : queues[choice - 1];
    if (chosen) return enterQueue(tx, ctx, ticket, chosen, queues, true);
    return sendRound(tx, ctx, ticket, queueMenuText(connection.greetingMessage, queues));
  }
  const queue =
    queues.find((q) => q.id === ticket.queueId) ??
    (await tenant(tx.db, connection.companyId)
      .selectFrom('queues')
      .select(['queues.id', 'queues.name', 'queues.greetingMessage', 'queues.outOfHoursMessage', 'queues.schedules', 'queues.integrationId', 'queues.promptId'])
      .where('queues.id', '=', ticket.queueId)
      .executeTakeFirst());
  if (!queue) return;
  if (settings.scheduleType === 'queue' && !isOpenAt(parseSchedules(queue.schedules), ctx.now)) return replyOutOfHours(tx, ctx, queue.outOfHoursMessage);
  if (ticket.chatbot !== 1) return;
  if (hasAssistant(queue) && (await takeForAssistant(tx, ticket, queue, ctx.messageId))) return;
  return navigateOptions(tx, ctx, ticket, queue, queues);
}

/** The contact picked a queue (or the connection has only one): greet, then offer its options. */
async function enterQueue(tx: Tx, ctx: AutomationContext, ticket: TicketRow, queue: MenuQueue, queues: MenuQueue[], greet: boolean): Promise<void> {
  const now = ctx.now.toISOString();
  if (ctx.settings.scheduleType === 'queue' && !isOpenAt(parseSchedules(queue.schedules), ctx.now)) {
    const moved = await claimBot(tx, ticket, { queueId: queue.id, queueOptionId: null, chatbot: 0, amountUsedBotQueues: 0 }, { queueId: queue.id, queuedAt: now });
    if (moved) await replyOutOfHours(tx, { ...ctx, ticket: moved }, queue.outOfHoursMessage);
    return;
  }
  if (hasAssistant(queue)) {
    // The queue's assistant talks from here (the bot stays on for it): greeted, then answered.
    const moved = await claimBot(tx, ticket, { queueId: queue.id, queueOptionId: null, chatbot: 1, amountUsedBotQueues: 0 }, { queueId: queue.id, queuedAt: now });
    if (!moved) return;
    if (greet && queue.greetingMessage) await queueAutoReply(tx, moved, queue.greetingMessage);
    if (await takeForAssistant(tx, moved, queue, ctx.messageId)) return;
  }
  const options = await findOptions(tx.db, ticket.companyId, queue.id, null);
  const moved = await claimBot(
    tx,
    ticket,
    { queueId: queue.id, queueOptionId: null, chatbot: options.length > 0 ? 1 : 0, amountUsedBotQueues: 0 },
    { queueId: queue.id, queuedAt: now },
  );
  if (!moved) return;
  if (options.length > 0) await queueAutoReply(tx, moved, optionsMenuText(queue.greetingMessage, options, queues.length > 1));
  else if (greet && queue.greetingMessage) await queueAutoReply(tx, moved, queue.greetingMessage);
}

async function navigateOptions(tx: Tx, ctx: AutomationContext, ticket: TicketRow, queue: MenuQueue, queues: MenuQueue[]): Promise<void> {
  const companyId = ticket.companyId;
  if (isBack(ctx.body)) {
    if (queues.length > 1) {
      const moved = await claimBot(tx, ticket, { queueId: null, queueOptionId: null, chatbot: 1, amountUsedBotQueues: 0 }, { queueId: null });
      if (moved) await queueAutoReply(tx, moved, queueMenuText(ctx.connection.greetingMessage, queues));
      return;
    }
    const top = await findOptions(tx.db, companyId, queue.id, null);
    const moved = await claimBot(tx, ticket, { queueOptionId: null, amountUsedBotQueues: 0 });
    if (moved) await queueAutoReply(tx, moved, optionsMenuText(queue.greetingMessage, top, false));
    return;
  }
  const current = ticket.queueOptionId === null ? undefined : await findOption(tx.db, companyId, ticket.queueOptionId);
  const options = await findOptions(tx.db, companyId, queue.id, current?.id ?? null);
  const choice = parseChoice(ctx.body);
  const picked = options.find((o) => o.option === choice);
  if (picked) {
    const children = await findOptions(tx.db, companyId, queue.id, picked.id);
    // A leaf ends the bot: the contact waits for an attendant of the queue.
    const moved = await claimBot(tx, ticket, { queueOptionId: picked.id, chatbot: children.length > 0 ? 1 : 0, amountUsedBotQueues: 0 });
    if (!moved) return;
    if (children.length > 0) await queueAutoReply(tx, moved, optionsMenuText(picked.message ?? picked.title, children, true));
    else if (picked.message) await queueAutoReply(tx, moved, picked.message);
    return;
  }
  if (options.length === 0) return;
  const intro = current ? (current.message ?? current.title) : queue.greetingMessage;
  await sendRound(tx, ctx, ticket, optionsMenuText(intro, options, queues.length > 1 || current !== undefined));
}

/**
 * A menu sent because the reply chose nothing: counted against maxUseBotQueues (0: no limit); past
 * the limit the bot stops. Within timeUseBotQueues minutes of the last menu (0: no wait) the bot
 * stays silent instead of repeating itself.
 */
async function sendRound(tx: Tx, ctx: AutomationContext, ticket: TicketRow, text: string): Promise<void> {
  const { maxUseBotQueues: max, timeUseBotQueues: waitMinutes } = ctx.connection;
  const used = ticket.amountUsedBotQueues;
  if (max > 0 && used >= max) {
    await claimBot(tx, ticket, { chatbot: 0 });
    return;
  }
  if (waitMinutes > 0 && used > 0) {
    const last = await tenant(tx.db, ticket.companyId)
      .selectFrom('ticketTrackings')
      .select('ticketTrackings.chatbotAt')
      .where('ticketTrackings.ticketId', '=', ticket.id)
      .orderBy('ticketTrackings.id', 'desc')
      .executeTakeFirst();
    if (last?.chatbotAt && ctx.now.getTime() - new Date(last.chatbotAt).getTime() < waitMinutes * 60_000) return;
  }
  const moved = await claimBot(tx, ticket, { chatbot: 1, amountUsedBotQueues: used + 1 }, { chatbotAt: ctx.now.toISOString() });
  if (moved) await queueAutoReply(tx, moved, text);
}

/** Out of hours: the text once per run of messages (not again while it is the ticket's last word). */
async function replyOutOfHours(tx: Tx, ctx: AutomationContext, text: string | null): Promise<void> {
  if (!text?.trim()) return;
  const previous = await tenant(tx.db, ctx.ticket.companyId)
    .selectFrom('messages')
    .select(['messages.body', 'messages.fromMe'])
    .where('messages.ticketId', '=', ctx.ticket.id)
    .where('messages.id', '<', ctx.messageId)
    .orderBy('messages.id', 'desc')
    .executeTakeFirst();
  if (previous?.fromMe === 1 && previous.body === text) return;
  await queueAutoReply(tx, ctx.ticket, text);
}

const hasAssistant = (queue: MenuQueue) => queue.integrationId !== null || queue.promptId !== null;

/** Moves the bot state only while the ticket is still pending and unassigned. */
async function claimBot(tx: Tx, ticket: TicketRow, patch: BotPatch, track?: Omit<Updateable<TicketTrackings>, 'id' | 'companyId' | 'ticketId'>): Promise<TicketRow | undefined> {
  const moved = await tenant(tx.db, ticket.companyId)
    .updateTable('tickets')
    .set((eb) => ({ ...patch, updatedAt: new Date().toISOString(), version: eb('tickets.version', '+', 1) }))
    .where('tickets.id', '=', ticket.id)
    .where('tickets.status', '=', 'pending')
    .where('tickets.userId', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!moved) return undefined;
  if (track) await trackTicket(tx.db, ticket.companyId, moved, track);
  tx.effects.poke(ticket.companyId);
  // The customer picked a queue in the menu (a transfer), or the bot state moved (live channel only).
  await emit(tx, ticketEvent('update', moved, ticket));
  return moved;
}
