// PUT /tickets/{id}: the transitions of spec/02 §4. Each is one conditional update (so two agents
// accepting the same ticket cannot both win), a tracking write, and the automatic messages the
// company's settings ask for, queued in the same transaction (they leave after the commit).
import { AppError, type Ticket, type TicketUpdateInput } from '@zapdesk/sync';
import { emit, ticketEvent } from '../../events/emit.ts';
import type { Updateable } from 'kysely';
import { assertPlanAllows } from '../../auth/plan-gate.ts';
import type { Actor } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Tickets, TicketTrackings } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import type { Reader, Tx } from '../../db/write.ts';
import { requestRating } from '../../inbound/rating.ts';
import { queueAutoReply } from '../../inbound/reply.ts';
import { readSettings } from '../../inbound/settings.ts';
import { texts } from '../../inbound/texts.ts';
import { stopTicketFlow } from '../../flows-runtime/runtime.ts';
import { startTracking, trackTicket } from '../ticket-tracking/service.ts';
import { findTicketRow, toTicketDto, type TicketRow } from './dto.ts';
import { getVisibleTicket } from './service.ts';

type Patch = Omit<Updateable<Tickets>, 'id' | 'companyId' | 'version'>;
type TrackingPatch = Omit<Updateable<TicketTrackings>, 'id' | 'companyId' | 'ticketId'>;
type Step = { patch: Patch; from: string[]; track?: TrackingPatch; newCycle?: boolean; after?: (row: TicketRow) => Promise<unknown> };

/** Bot and integration state a human takes over from. */
const BOT_OFF: Patch = { chatbot: 0, queueOptionId: null, amountUsedBotQueues: 0 };

export async function updateTicket(tx: Tx, actor: Actor, ticketId: number, input: TicketUpdateInput): Promise<Ticket> {
  const { row } = await getVisibleTicket(tx, actor, ticketId);
  const step = await planStep(tx, actor, row, input);
  if (!step) return toTicketDto(tx.db, actor.companyId, row);
  const now = new Date().toISOString();
  let updated: TicketRow | undefined;
  try {
    updated = await tenant(tx.db, actor.companyId)
      .updateTable('tickets')
      .set((eb) => ({ ...step.patch, updatedAt: now, version: eb('tickets.version', '+', 1) }))
      .where('tickets.id', '=', row.id)
      .where('tickets.status', 'in', step.from)
      .returningAll()
      .executeTakeFirst();
  } catch (err) {
    // The unique open-ticket index: the contact already has another active ticket on that connection.
    if (isUniqueViolation(err)) throw new AppError('ERR_OTHER_OPEN_TICKET');
    throw err;
  }
  // Someone else moved the ticket first: answer its current state.
  if (!updated) return toTicketDto(tx.db, actor.companyId, (await findTicketRow(tx.db, actor.companyId, row.id)) ?? row);
  if (step.newCycle) await startTracking(tx.db, actor.companyId, updated, step.track);
  else if (step.track) await trackTicket(tx.db, actor.companyId, updated, step.track);
  tx.effects.poke(actor.companyId);
  await emit(tx, ticketEvent('update', updated, row));
  // A human took the conversation (accepted, transferred to someone, closed): its flow ends, silently.
  if (updated.status !== 'pending' || updated.userId !== null) await stopTicketFlow(tx, updated);
  await step.after?.(updated);
  const fresh = (await findTicketRow(tx.db, actor.companyId, updated.id)) ?? updated;
  return toTicketDto(tx.db, actor.companyId, fresh);
}

async function actorInfo(deps: Reader, actor: Actor) {
  return tenant(deps.db, actor.companyId).selectFrom('users').select(['users.name', 'users.language']).where('users.id', '=', actor.userId).executeTakeFirstOrThrow();
}

async function planStep(deps: Tx, actor: Actor, row: TicketRow, input: TicketUpdateInput): Promise<Step | undefined> {
  const now = new Date().toISOString();
  const settings = await readSettings(deps.db, actor.companyId);
  const isTransfer =
    (input.queueId !== undefined && input.queueId !== row.queueId) ||
    (input.userId !== undefined && input.userId !== null && input.userId !== actor.userId && input.userId !== row.userId) ||
    (input.whatsappId !== undefined && input.whatsappId !== null && input.whatsappId !== row.whatsappId);

  if (input.status === 'closed') {
    if (row.status === 'closed') return undefined;
    const rating = settings.userRating === 'enabled' && row.isGroup === 0 && row.whatsappId !== null;
    const me = await actorInfo(deps, actor);
    return {
      from: ['open', 'pending'],
      patch: { ...BOT_OFF, status: 'closed', userId: actor.userId, closedAt: now, unreadMessages: 0, useIntegration: 0, integrationId: null, promptId: null, typebotSessionId: null, awaitingRating: rating ? 1 : 0 },
      track: { finishedAt: now, userId: actor.userId },
      after: async (closed) => {
        if (input.sendFarewell === false) return;
        if (rating) return requestRating(deps, closed, me.language);
        const message = await complationMessage(deps, closed);
        if (message && closed.isGroup === 0) await queueAutoReply(deps, closed, message);
      },
    };
  }

  if (isTransfer) return planTransfer(deps, actor, row, input, settings.sendMsgTransfTicket === 'enabled');

  if (input.status === 'pending') {
    if (row.status !== 'open') return undefined;
    return { from: ['open'], patch: { status: 'pending', userId: null } };
  }

  if (input.status === 'open') {
    if (row.status === 'open' && row.userId === actor.userId) return undefined;
    const me = await actorInfo(deps, actor);
    if (row.status === 'closed') {
      return { from: ['closed'], patch: { ...BOT_OFF, status: 'open', userId: actor.userId, closedAt: null, awaitingRating: 0 }, newCycle: true, track: { startedAt: now, userId: actor.userId, queueId: row.queueId } };
    }
    const greet = settings.sendGreetingAccepted === 'enabled' && row.isGroup === 0 && row.status === 'pending';
    return {
      // Only from the state seen: of two agents accepting at once, one wins and the other sees it taken.
      from: [row.status],
      patch: { ...BOT_OFF, status: 'open', userId: actor.userId },
      track: { startedAt: now, userId: actor.userId },
      after: greet ? async (accepted) => void (await queueAutoReply(deps, accepted, texts(me.language).greetingAccepted(me.name))) : undefined,
    };
  }

  // Handing a ticket to an AI prompt or an integration needs the plan's feature; taking it back never does.
  if (input.promptId) await assertPlanAllows(deps.db, actor.companyId, 'openAi');
  if (input.integrationId || input.useIntegration) await assertPlanAllows(deps.db, actor.companyId, 'integrations');
  // Only the company's own prompt or integration (an unknown id is a clear 404, not a dangling reference).
  const t = tenant(deps.db, actor.companyId);
  if (input.promptId && !(await t.selectFrom('prompts').select('prompts.id').where('prompts.id', '=', input.promptId).executeTakeFirst())) {
    throw new AppError('ERR_NOT_FOUND', 'No prompt found with this ID.');
  }
  if (input.integrationId && !(await t.selectFrom('queueIntegrations').select('queueIntegrations.id').where('queueIntegrations.id', '=', input.integrationId).executeTakeFirst())) {
    throw new AppError('ERR_NOT_FOUND', 'No integration found with this ID.');
  }
  const patch: Patch = {};
  if (input.useIntegration !== undefined) patch.useIntegration = input.useIntegration ? 1 : 0;
  if (input.promptId !== undefined) patch.promptId = input.promptId;
  if (input.integrationId !== undefined) patch.integrationId = input.integrationId;
  return Object.keys(patch).length ? { from: ['open', 'pending', 'closed'], patch } : undefined;
}

async function planTransfer(deps: Tx, actor: Actor, row: TicketRow, input: TicketUpdateInput, note: boolean): Promise<Step> {
  const t = tenant(deps.db, actor.companyId);
  const now = new Date().toISOString();
  const queueId = input.queueId === undefined ? row.queueId : input.queueId;
  const queue = queueId === null ? undefined : await t.selectFrom('queues').select(['queues.id', 'queues.name']).where('queues.id', '=', queueId).executeTakeFirst();
  if (queueId !== null && !queue) throw new AppError('ERR_NOT_FOUND', 'No queue found with this ID.');
  const userId = input.userId ?? null;
  if (userId !== null && !(await t.selectFrom('users').select('users.id').where('users.id', '=', userId).executeTakeFirst())) throw new AppError('ERR_NO_USER_FOUND');
  const whatsappId = input.whatsappId ?? row.whatsappId;
  if (whatsappId !== null && whatsappId !== row.whatsappId && !(await t.selectFrom('whatsapps').select('whatsapps.id').where('whatsapps.id', '=', whatsappId).executeTakeFirst())) {
    throw new AppError('ERR_NO_WAPP_FOUND');
  }
  // A queue without a user waits in that queue; with a user the ticket is theirs, open.
  const status = userId === null ? 'pending' : 'open';
  const me = await actorInfo(deps, actor);
  const queueChanged = queue !== undefined && queueId !== row.queueId;
  return {
    from: ['open', 'pending', 'closed'],
    patch: { ...BOT_OFF, status, userId, queueId, whatsappId, closedAt: null, awaitingRating: 0 },
    track: { transferredAt: now, queueId, userId, whatsappId },
    after: note && queueChanged && row.isGroup === 0 ? async (moved) => void (await queueAutoReply(deps, moved, texts(me.language).transferred(queue.name))) : undefined,
  };
}

/** The closing text: the queue's own when it has one, else the connection's. */
async function complationMessage(deps: Reader, ticket: TicketRow): Promise<string | undefined> {
  const t = tenant(deps.db, ticket.companyId);
  const queue = ticket.queueId ? await t.selectFrom('queues').select('queues.complationMessage').where('queues.id', '=', ticket.queueId).executeTakeFirst() : undefined;
  if (queue?.complationMessage?.trim()) return queue.complationMessage;
  const connection = ticket.whatsappId ? await t.selectFrom('whatsapps').select('whatsapps.complationMessage').where('whatsapps.id', '=', ticket.whatsappId).executeTakeFirst() : undefined;
  return connection?.complationMessage?.trim() || undefined;
}
