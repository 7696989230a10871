// Ticket jobs: auto-close of inactive open tickets (connection.expiresTicket) and the transfer of
// pending tickets nobody took (connection.timeToTransfer → transferQueueId). Each ticket is claimed
// by one conditional update, so a second instance or an overlapping run never acts twice and never
// sends the closing text twice: the claim, its tracking and the closing text are one write.
// Rules in modules/tickets/README.md, "Jobs".
import type { AppDeps } from '../context.ts';
import { emit, ticketEvent } from '../events/emit.ts';
import { tenant } from '../db/tenant.ts';
import { write } from '../db/write.ts';
import { queueAutoReply } from '../inbound/reply.ts';
import { trackTicket } from '../modules/ticket-tracking/service.ts';
import { startCronJob, type RunningJob } from './runner.ts';

const BATCH = 200;
const minutesBefore = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

/** Closes open tickets whose last message is older than their connection's expiresTicket minutes. */
export async function expireInactiveTickets(deps: AppDeps, now: Date = new Date()): Promise<number> {
  const connections = await deps.db
    .selectFrom('whatsapps')
    .select(['whatsapps.id', 'whatsapps.companyId', 'whatsapps.expiresTicket', 'whatsapps.expiresInactiveMessage'])
    .where('whatsapps.expiresTicket', '>', 0)
    .execute();
  let closed = 0;
  for (const conn of connections) {
    const t = tenant(deps.db, conn.companyId);
    const cutoff = minutesBefore(now, conn.expiresTicket);
    const candidates = await t
      .selectFrom('tickets')
      .select('tickets.id')
      .where('tickets.whatsappId', '=', conn.id)
      .where('tickets.status', '=', 'open')
      .where((eb) => eb.or([eb('tickets.lastInteractionAt', '<', cutoff), eb.and([eb('tickets.lastInteractionAt', 'is', null), eb('tickets.updatedAt', '<', cutoff)])]))
      .limit(BATCH)
      .execute();
    for (const { id } of candidates) {
      const at = now.toISOString();
      const done = await write(deps, async (tx) => {
        const ticket = await tenant(tx.db, conn.companyId)
          .updateTable('tickets')
          .set((eb) => ({ status: 'closed', closedAt: at, updatedAt: at, unreadMessages: 0, chatbot: 0, queueOptionId: null, amountUsedBotQueues: 0, awaitingRating: 0, version: eb('tickets.version', '+', 1) }))
          .where('tickets.id', '=', id)
          .where('tickets.status', '=', 'open')
          .where((eb) => eb.or([eb('tickets.lastInteractionAt', '<', cutoff), eb.and([eb('tickets.lastInteractionAt', 'is', null), eb('tickets.updatedAt', '<', cutoff)])]))
          .returningAll()
          .executeTakeFirst();
        if (!ticket) return false;
        await trackTicket(tx.db, conn.companyId, ticket, { finishedAt: at });
        tx.effects.poke(conn.companyId);
        await emit(tx, ticketEvent('update', ticket, { ...ticket, status: 'open' }));
        if (conn.expiresInactiveMessage?.trim() && ticket.isGroup === 0) await queueAutoReply(tx, ticket, conn.expiresInactiveMessage);
        return true;
      });
      if (done) closed++;
    }
  }
  return closed;
}

/** Moves pending, unassigned tickets older than timeToTransfer minutes to the connection's transfer queue. */
export async function transferWaitingTickets(deps: AppDeps, now: Date = new Date()): Promise<number> {
  const connections = await deps.db
    .selectFrom('whatsapps')
    .select(['whatsapps.id', 'whatsapps.companyId', 'whatsapps.timeToTransfer', 'whatsapps.transferQueueId'])
    .where('whatsapps.timeToTransfer', '>', 0)
    .where('whatsapps.transferQueueId', 'is not', null)
    .execute();
  let moved = 0;
  for (const conn of connections) {
    const queueId = conn.transferQueueId!;
    const t = tenant(deps.db, conn.companyId);
    const cutoff = minutesBefore(now, conn.timeToTransfer);
    const candidates = await t
      .selectFrom('tickets')
      .select('tickets.id')
      .where('tickets.whatsappId', '=', conn.id)
      .where('tickets.status', '=', 'pending')
      .where('tickets.userId', 'is', null)
      .where('tickets.createdAt', '<', cutoff)
      .where((eb) => eb.or([eb('tickets.queueId', 'is', null), eb('tickets.queueId', '!=', queueId)]))
      .limit(BATCH)
      .execute();
    for (const { id } of candidates) {
      const at = now.toISOString();
      const done = await write(deps, async (tx) => {
        const ticket = await tenant(tx.db, conn.companyId)
          .updateTable('tickets')
          .set((eb) => ({ queueId, queueOptionId: null, chatbot: 0, amountUsedBotQueues: 0, updatedAt: at, version: eb('tickets.version', '+', 1) }))
          .where('tickets.id', '=', id)
          .where('tickets.status', '=', 'pending')
          .where('tickets.userId', 'is', null)
          .where((eb) => eb.or([eb('tickets.queueId', 'is', null), eb('tickets.queueId', '!=', queueId)]))
          .returningAll()
          .executeTakeFirst();
        if (!ticket) return false;
        await trackTicket(tx.db, conn.companyId, ticket, { transferredAt: at, queueId });
        tx.effects.poke(conn.companyId);
        // Only the queue moved (the previous one is not read back; any other counts as a transfer).
        await emit(tx, ticketEvent('update', ticket, { ...ticket, queueId: null }));
        return true;
      });
      if (done) moved++;
    }
  }
  return moved;
}

export const TICKET_JOBS_CRON = '* * * * *';

/** Both jobs on the job runner, once a minute (the settings are in minutes). */
export function startTicketJobs(deps: AppDeps): RunningJob[] {
  return [
    startCronJob({ name: 'tickets-expire', cron: TICKET_JOBS_CRON, log: deps.log, run: () => expireInactiveTickets(deps) }),
    startCronJob({ name: 'tickets-transfer', cron: TICKET_JOBS_CRON, log: deps.log, run: () => transferWaitingTickets(deps) }),
  ];
}
