// The assistants' link in the inbound chain (../inbound/automation.ts calls it): whether a prompt
// or a queue integration answers this message, and if so its turn queued in the chain's write.
// Precedence (README.md "Who answers"): a running flow or a phrase campaign (earlier links), then
// business hours, then — for a ticket without a queue — the connection's integration, else its
// prompt, else the queue menu; for a ticket in a queue the bot is talking in — the queue's
// integration, else its prompt, else its options. A `flowbuilder` integration starts its flow
// once per ticket instead of queueing a turn.
import { companyPlanAllowsSoon } from '../auth/plan-gate.ts';
import { prepare } from '../db/prepared.ts';
import { tenant } from '../db/tenant.ts';
import type { Tx } from '../db/write.ts';
import { startFlow } from '../flows-runtime/runtime.ts';
import type { TicketRow } from '../modules/tickets/dto.ts';
import { waitsForAssistant } from './context.ts';
import { queueTurn } from './turns.ts';

export type AssistantLinks = { integrationId: number | null; promptId: number | null };

/**
 * Queues the turn of the assistant `links` names (the connection's or the queue's) for this
 * message; false when none answers it, and the chain goes on.
 */
export async function takeForAssistant(tx: Tx, ticket: TicketRow, links: AssistantLinks, messageId: number): Promise<boolean> {
  if (!waitsForAssistant(ticket)) return false;
  const companyId = ticket.companyId;
  if (links.integrationId !== null && (await companyPlanAllowsSoon(tx, companyId, 'integrations'))) {
    const integration = (await selectIntegration(tx.db, { companyId, id: links.integrationId })).rows[0];
    if (integration?.type === 'flowbuilder') return startIntegrationFlow(tx, ticket, integration, messageId);
    if (integration) {
      await queueTurn(tx, { companyId, ticketId: ticket.id, messageId, kind: 'integration', targetId: integration.id });
      return true;
    }
  }
  if (links.promptId !== null && (await companyPlanAllowsSoon(tx, companyId, 'openAi'))) {
    const prompt = (await selectPromptId(tx.db, { companyId, id: links.promptId })).rows[0];
    if (prompt) {
      await queueTurn(tx, { companyId, ticketId: ticket.id, messageId, kind: 'prompt', targetId: prompt.id });
      return true;
    }
  }
  return false;
}

// Read for each message an assistant may answer: compiled once (../db/prepared.ts).
const selectIntegration = prepare((db, p: { companyId: number; id: number }) =>
  db
    .selectFrom('queueIntegrations')
    .select(['queueIntegrations.id', 'queueIntegrations.type', 'queueIntegrations.flowId'])
    .where('queueIntegrations.companyId', '=', p.companyId)
    .where('queueIntegrations.id', '=', p.id),
);
const selectPromptId = prepare((db, p: { companyId: number; id: number }) => db.selectFrom('prompts').select('prompts.id').where('prompts.companyId', '=', p.companyId).where('prompts.id', '=', p.id));

/** A flowbuilder integration runs its flow once per ticket (`assistantState` = `flow` afterwards). */
async function startIntegrationFlow(tx: Tx, ticket: TicketRow, integration: { id: number; flowId: number | null }, messageId: number): Promise<boolean> {
  if (ticket.assistantState === 'flow' || !integration.flowId) return false;
  const started = await startFlow(tx, ticket, { flowId: integration.flowId, messageId });
  await tenant(tx.db, ticket.companyId)
    .updateTable('tickets')
    .set((eb) => ({ assistantState: 'flow', integrationId: integration.id, updatedAt: new Date().toISOString(), version: eb('tickets.version', '+', 1) }))
    .where('tickets.id', '=', ticket.id)
    .execute();
  tx.effects.poke(ticket.companyId);
  return started;
}
