// The flow runtime (DESIGN §13, issue 15): the pure engine of @zapdesk/sync (`step`) driven by the
// database. A ticket's conversation in a flow is a flow_runs row (version, engine state, node,
// deadline); each event — the start, a customer's message, a due timer, an agent's stop — is one
// `step` inside the caller's write, and its actions are applied in that same write: texts and media
// queued in the outbox (queueTicketMessage: sent after the commit), timers as flow_timers rows,
// the ticket moved to a queue and handed over. A rolled-back write did nothing, not even a send.
// Rules in README.md.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { buildTemplateVars, createFlowState, selectPhraseCampaign, step, type FlowAction, type FlowContext, type FlowEvent, type FlowGraph, type FlowMedia, type FlowState } from '@zapdesk/sync';
import { companyPlanAllows, companyPlanAllowsSoon } from '../auth/plan-gate.ts';
import { emit, ticketEvent } from '../events/emit.ts';
import { tenant } from '../db/tenant.ts';
import { prepare } from '../db/prepared.ts';
import type { Tx } from '../db/write.ts';
import { serverTimeZone, textLanguage } from '../inbound/reply.ts';
import { flowMediaPath } from '../modules/flows/media.ts';
import { mimeOfPath, removeMediaFile, resolveMediaFile, saveTicketMedia } from '../modules/media/storage.ts';
import { previewOf } from '../modules/messages/dto.ts';
import { queueMessages, type OutgoingMessage } from '../modules/messages/send.ts';
import { trackTicket } from '../modules/ticket-tracking/service.ts';
import { findTicketRow, type TicketRow } from '../modules/tickets/dto.ts';
import { queueTurn } from '../assistants/turns.ts';
import { earlierRunVariables, loadVersionGraph, lockRun, lockRunningRun, lockTicket, readState, type RunRow } from './runs.ts';

// The language of `{{ms}}` on an unassigned ticket is the company's first admin's (inbound/reply.ts):
// read once per company every few seconds, not on every step.
const languages = new Map<string, { lang: Awaited<ReturnType<typeof textLanguage>>; until: number }>();
const LANGUAGE_TTL_MS = 5_000;

async function languageFor(tx: Tx, ticket: TicketRow): Promise<Awaited<ReturnType<typeof textLanguage>>> {
  if (ticket.userId !== null) return textLanguage(tx, ticket);
  const key = `${tx.config.databaseUrl}#${ticket.companyId}`;
  const hit = languages.get(key);
  if (hit && hit.until > Date.now()) return hit.lang;
  const lang = await textLanguage(tx, ticket);
  if (languages.size > 10_000) languages.clear();
  languages.set(key, { lang, until: Date.now() + LANGUAGE_TTL_MS });
  return lang;
}

/** Which assistants the company's plan includes (the plan read at most every 2 s). */
async function adaptersFor(tx: Tx, companyId: number): Promise<NonNullable<FlowContext['adapters']>> {
  const [openai, typebot] = await Promise.all([companyPlanAllowsSoon(tx, companyId, 'openAi'), companyPlanAllowsSoon(tx, companyId, 'integrations')]);
  return { openai, typebot };
}

// The server's zone does not change while it runs; asking Intl for it costs more than a step.
let zone: string | undefined;

// What every step reads besides its run: compiled once (../db/prepared.ts).
const selectContextRow = prepare((db, p: { companyId: number; ticketId: number }) =>
  db
    .selectFrom('tickets')
    .innerJoin('contacts', 'contacts.id', 'tickets.contactId')
    .leftJoin('queues', 'queues.id', 'tickets.queueId')
    .leftJoin('whatsapps', 'whatsapps.id', 'tickets.whatsappId')
    .select(['contacts.name', 'contacts.number', 'contacts.email', 'queues.name as queueName', 'whatsapps.name as connectionName'])
    .where('tickets.companyId', '=', p.companyId)
    .where('tickets.id', '=', p.ticketId),
);

/** The engine's context for a ticket: the moment, the server's random draw, the template variables (one read). */
async function contextFor(tx: Tx, ticket: TicketRow, now: Date): Promise<FlowContext> {
  const row = (await selectContextRow(tx.db, { companyId: ticket.companyId, ticketId: ticket.id })).rows[0];
  const vars = buildTemplateVars({
    contact: row ?? { name: '' },
    ticketId: ticket.id,
    queue: row?.queueName ?? null,
    connection: row?.connectionName ?? null,
    now,
    timeZone: (zone ??= serverTimeZone()),
    lang: await languageFor(tx, ticket),
  });
  // typebot and openai nodes run through the assistants (assistants/README.md, "Flows") when the
  // plan includes them; otherwise the engine takes their "not configured" path.
  return { now, random: Math.random, vars, adapters: await adaptersFor(tx, ticket.companyId) };
}

// A step's own rows, compiled once. The common step (no queue move, no hand-over) updates the ticket
// with one shape: the flow columns, and the preview and clock of its last message when it sends
// (null: unchanged), so the messages it queues do not update the ticket a second time.
const updateTicketStep = prepare(
  (db, p: { companyId: number; ticketId: number; flowId: number | null; flowNodeId: string | null; flowData: string | null; lastMessage: string | null; now: string }) =>
    db
      .updateTable('tickets')
      .set({
        flowId: p.flowId,
        flowNodeId: p.flowNodeId,
        flowData: p.flowData,
        lastMessage: sql<string>`coalesce(${p.lastMessage}, last_message)`,
        lastInteractionAt: sql<string>`case when cast(${p.lastMessage} as text) is null then last_interaction_at else ${p.now} end`,
        updatedAt: p.now,
        version: sql<number>`version + 1`,
      })
      .where('tickets.companyId', '=', p.companyId)
      .where('tickets.id', '=', p.ticketId),
);
/** A step that moves the ticket (a queue, a hand-over): the columns it changes, compiled once per set of them. */
const updateTicketMove = prepare(
  (db, p: { companyId: number; ticketId: number; changes: Partial<Pick<TicketRow, 'queueId' | 'queueOptionId' | 'chatbot' | 'amountUsedBotQueues' | 'flowId' | 'flowNodeId' | 'flowData' | 'lastMessage' | 'lastInteractionAt'>>; now: string }) =>
    db
      .updateTable('tickets')
      .set({ ...p.changes, updatedAt: p.now, version: sql<number>`version + 1` })
      .where('tickets.companyId', '=', p.companyId)
      .where('tickets.id', '=', p.ticketId),
);
const updateRunStep = prepare(
  (db, p: { companyId: number; runId: number; state: string; nodeId: string | null; deadline: string | null; status: string; endReason: string | null; endedAt: string | null; lastMessageId: number | null; now: string }) =>
    db
      .updateTable('flowRuns')
      .set({
        state: p.state,
        nodeId: p.nodeId,
        deadline: p.deadline,
        status: p.status,
        endReason: sql<string | null>`coalesce(${p.endReason}, end_reason)`,
        endedAt: sql<string | null>`coalesce(${p.endedAt}, ended_at)`,
        lastMessageId: sql<number | null>`coalesce(${p.lastMessageId}, last_message_id)`,
        updatedAt: p.now,
      })
      .where('flowRuns.companyId', '=', p.companyId)
      .where('flowRuns.id', '=', p.runId),
);
const selectQueueId = prepare((db, p: { companyId: number; queueId: number }) => db.selectFrom('queues').select('queues.id').where('queues.companyId', '=', p.companyId).where('queues.id', '=', p.queueId));
const insertTimer = prepare((db, p: { companyId: number; runId: number; timerId: string; dueAt: string }) =>
  db.insertInto('flowTimers').values({ companyId: p.companyId, runId: p.runId, timerId: p.timerId, dueAt: p.dueAt }),
);
const cancelTimer = prepare((db, p: { companyId: number; runId: number; timerId: string; now: string }) =>
  db
    .updateTable('flowTimers')
    .set({ status: 'cancelled', updatedAt: p.now })
    .where('flowTimers.companyId', '=', p.companyId)
    .where('flowTimers.runId', '=', p.runId)
    .where('flowTimers.timerId', '=', p.timerId)
    .where(sql<boolean>`flow_timers.status = 'pending'`),
);

const origin = (run: Pick<RunRow, 'id'>) => `flow:${run.id}`;

/**
 * What a node's media sends: a stored flow file copied into the ticket's folder, queued as that
 * media type with the caption as its text; a link (or a missing file) as text. Undefined: nothing.
 */
async function flowMediaMessage(tx: Tx, run: RunRow, ticket: TicketRow, a: Extract<FlowAction, { type: 'sendMedia' }>): Promise<OutgoingMessage | undefined> {
  const rel = flowMediaPath(ticket.companyId, a.url);
  const abs = rel ? resolveMediaFile(tx.config.mediaDir, rel) : undefined;
  const data = abs ? await readFile(abs).catch(() => undefined) : undefined;
  if (!rel || !data) {
    if (rel) tx.log.warn('flow media missing', { runId: run.id, nodeId: a.nodeId, url: a.url });
    // Not a stored file (a URL): no download inside a write, the link goes as text.
    const text = [a.caption, rel ? undefined : a.url].filter((s) => s && s.trim()).join('\n');
    return text ? { body: text, origin: origin(run) } : undefined;
  }
  const fileName = a.name ?? path.basename(rel).replace(/^\d+-[0-9a-f]{12}-/, '');
  const media = await saveTicketMedia(tx.config.mediaDir, ticket.companyId, ticket.id, { data, fileName, mimeType: mimeOfPath(rel), mediaType: a.mediaType, kind: a.mediaType });
  tx.effects.onRollback(() => removeMediaFile(tx.config.mediaDir, media.relPath));
  return { body: a.caption ?? '', media, origin: origin(run) };
}

/**
 * Performs the actions of one step and stores the run's new state, in the caller's write. The ticket
 * shows the step (flowId, flowNodeId) while the run lasts; the end clears them.
 */
async function applyStep(tx: Tx, run: RunRow, ticket: TicketRow, result: { state: FlowState; actions: FlowAction[] }, opts: { lastMessageId?: number } = {}): Promise<void> {
  const now = new Date().toISOString();
  const patch: Partial<Pick<TicketRow, 'queueId' | 'queueOptionId' | 'chatbot' | 'amountUsedBotQueues'>> = {};
  let endReason: string | null = null;
  // The step's messages, in order, queued together at the end (one insert for all of them).
  const outgoing: OutgoingMessage[] = [];
  const timers: Extract<FlowAction, { type: 'setTimer' | 'cancelTimer' }>[] = [];
  for (const a of result.actions) {
    switch (a.type) {
      case 'sendText':
        if (ticket.whatsappId !== null && a.text.trim()) outgoing.push({ body: a.text, origin: origin(run) });
        break;
      case 'sendMedia': {
        const out = ticket.whatsappId !== null ? await flowMediaMessage(tx, run, ticket, a) : undefined;
        if (out) outgoing.push(out);
        break;
      }
      case 'setTimer':
      case 'cancelTimer':
        timers.push(a);
        break;
      case 'moveToQueue': {
        // The queue may have been deleted since the flow was drawn: then the ticket keeps its queue.
        const queue = (await selectQueueId(tx.db, { companyId: ticket.companyId, queueId: a.queueId })).rows[0];
        if (queue) Object.assign(patch, { queueId: queue.id, queueOptionId: null });
        else tx.log.warn('flow ticket node: queue not found', { runId: run.id, nodeId: a.nodeId, queueId: a.queueId });
        break;
      }
      case 'handOver':
        Object.assign(patch, { chatbot: 0, amountUsedBotQueues: 0 });
        break;
      case 'askExternal':
        // The node's assistant answers the message that led here (a turn run after the commit).
        await queueTurn(tx, { companyId: ticket.companyId, ticketId: ticket.id, messageId: opts.lastMessageId ?? run.lastMessageId, kind: 'flow', targetId: run.id });
        break;
      case 'error':
        tx.log.warn('flow error', { runId: run.id, code: a.code, nodeId: a.nodeId, message: a.message });
        break;
      case 'end':
        endReason = a.reason;
        break;
    }
  }
  const running = !result.state.finished;
  const companyId = ticket.companyId;
  // The ticket first, then the messages, as the bot's steps do (the callers hold the ticket's lock
  // already; PostgreSQL locks the sync counters only at commit). The ticket's preview follows the
  // step's last message in this same update (queueMessages is told so).
  const flowColumns = running
    ? { flowId: run.flowId, flowNodeId: result.state.nodeId, flowData: JSON.stringify({ runId: run.id, awaiting: result.state.awaiting?.kind ?? null, deadline: result.state.timer?.at ?? null }) }
    : { flowId: null, flowNodeId: null, flowData: null };
  const last = outgoing.at(-1);
  const lastMessage = last ? previewOf(last.body, last.media?.mediaType ?? null, last.media?.fileName) : null;
  let updated: bigint | undefined;
  if (Object.keys(patch).length === 0) {
    updated = (await updateTicketStep(tx.db, { companyId, ticketId: ticket.id, ...flowColumns, lastMessage, now })).numAffectedRows;
  } else {
    const touch = lastMessage === null ? {} : { lastMessage, lastInteractionAt: now };
    updated = (await updateTicketMove(tx.db, { companyId, ticketId: ticket.id, changes: { ...patch, ...flowColumns, ...touch }, now })).numAffectedRows;
  }
  // No RETURNING (it costs SQLite as much as the update): what follows needs the ticket's ids and its queue.
  const moved: TicketRow | undefined = updated === 0n ? undefined : { ...ticket, ...patch, ...flowColumns };
  if (moved && patch.queueId !== undefined && patch.queueId !== ticket.queueId) await trackTicket(tx.db, companyId, moved, { queueId: patch.queueId, queuedAt: now });
  // A step that moved the ticket (another queue, people, closed) is announced; a step that only
  // walked the flow is not (the live channel and webhooks hear what consumers act on).
  if (moved && Object.keys(patch).length > 0) await emit(tx, ticketEvent('update', moved, ticket));
  for (const a of timers) {
    if (a.type === 'setTimer') await insertTimer(tx.db, { companyId, runId: run.id, timerId: a.id, dueAt: a.at });
    else await cancelTimer(tx.db, { companyId, runId: run.id, timerId: a.id, now });
  }
  await updateRunStep(tx.db, {
    companyId,
    runId: run.id,
    state: JSON.stringify(result.state),
    nodeId: result.state.nodeId,
    deadline: result.state.timer?.at ?? null,
    status: running ? 'running' : endReason === 'stopped' ? 'stopped' : 'finished',
    endReason: running ? null : (endReason ?? 'completed'),
    endedAt: running ? null : now,
    lastMessageId: opts.lastMessageId ?? null,
    now,
  });
  // The ticket's preview was set above (when it was still there; otherwise the insert fails as before).
  if (outgoing.length > 0) await queueMessages(tx, companyId, outgoing.map((out) => ({ ticket: moved ?? ticket, out })), { ticketTouched: moved !== undefined });
  tx.effects.poke(companyId);
}

/** Runs one event on a run (the run row locked by the caller). */
async function advance(tx: Tx, run: RunRow, ticket: TicketRow, event: FlowEvent, now: Date, opts: { lastMessageId?: number; graph?: FlowGraph } = {}): Promise<void> {
  const graph = opts.graph ?? (await loadVersionGraph(tx, ticket.companyId, run.flowVersionId));
  const result = step(graph, readState(run), event, await contextFor(tx, ticket, now));
  await applyStep(tx, run, ticket, result, opts);
}

/**
 * Starts flow `flowId` (its latest version) for the ticket; a run already going is stopped first.
 * Answers false when the flow cannot run: gone, inactive, or never saved.
 */
export async function startFlow(tx: Tx, ticket: TicketRow, input: { flowId: number; campaignId?: number | null; messageId?: number; now?: Date }): Promise<boolean> {
  const companyId = ticket.companyId;
  const version = (await selectLatestVersion(tx.db, { companyId, flowId: input.flowId })).rows[0];
  if (!version || version.active !== 1 || version.versionNo === 0 || version.versionId === null) return false;
  const now = input.now ?? new Date();
  await lockTicket(tx, companyId, ticket.id);
  await stopTicketFlow(tx, ticket, now);
  // Answers the customer gave in this ticket's earlier runs carry over (README, "Answers").
  const state = createFlowState(await earlierRunVariables(tx, companyId, ticket.id));
  const run = (
    await insertRun(tx.db, { companyId, ticketId: ticket.id, flowId: input.flowId, flowVersionId: version.versionId, campaignId: input.campaignId ?? null, state: JSON.stringify(state), lastMessageId: input.messageId ?? null })
  ).rows[0];
  if (!run) throw new Error(`flow run of ticket ${ticket.id} was not created`);
  await advance(tx, run, ticket, { type: 'start' }, now);
  return true;
}

// A flow start's rows, compiled once: the flow with its latest version (null: never saved), the new run.
const selectLatestVersion = prepare((db, p: { companyId: number; flowId: number }) =>
  db
    .selectFrom('flows')
    .leftJoin('flowVersions', (j) => j.onRef('flowVersions.flowId', '=', 'flows.id').onRef('flowVersions.versionNo', '=', 'flows.versionNo').on('flowVersions.companyId', '=', p.companyId))
    .select(['flows.active', 'flows.versionNo', 'flowVersions.id as versionId'])
    .where('flows.companyId', '=', p.companyId)
    .where('flows.id', '=', p.flowId),
);
const insertRun = prepare(
  (db, p: { companyId: number; ticketId: number; flowId: number; flowVersionId: number; campaignId: number | null; state: string; lastMessageId: number | null }) =>
    db
      .insertInto('flowRuns')
      .values({ companyId: p.companyId, ticketId: p.ticketId, flowId: p.flowId, flowVersionId: p.flowVersionId, campaignId: p.campaignId, state: p.state, lastMessageId: p.lastMessageId })
      .returningAll(),
);

export type FlowInbound = { ticket: TicketRow; connectionId: number; messageId: number; body: string; media?: FlowMedia; now: Date };

/**
 * The first link of the automation chain (DESIGN §5), for a pending, unassigned ticket: a running
 * flow takes the message as its answer (true: the queue menu stays silent); otherwise an active phrase
 * campaign of the connection whose phrase matches starts its flow (true). False: the chain goes on.
 * A message is taken once: a run remembers the last message id it took, and a redelivery of it (or
 * an older one) changes nothing.
 */
export async function takeInboundForFlow(tx: Tx, input: FlowInbound): Promise<boolean> {
  const { ticket } = input;
  // A running flow shows on its ticket (flowId): without one, no run to look up. Runs start only
  // here, one message of a contact at a time, so the row the pipeline read is current enough.
  if (ticket.flowId !== null) await lockTicket(tx, ticket.companyId, ticket.id);
  const run = ticket.flowId === null ? undefined : await lockRunningRun(tx, ticket.companyId, ticket.id);
  if (run) {
    if (run.lastMessageId !== null && run.lastMessageId >= input.messageId) return true;
    // A typebot or openai node talks with the customer until it is done: its messages are its own.
    if (readState(run).awaiting?.kind === 'external') {
      await queueTurn(tx, { companyId: ticket.companyId, ticketId: ticket.id, messageId: input.messageId, kind: 'flow', targetId: run.id });
      await tenant(tx.db, ticket.companyId).updateTable('flowRuns').set({ lastMessageId: input.messageId, updatedAt: input.now.toISOString() }).where('flowRuns.id', '=', run.id).execute();
      return true;
    }
    await advance(tx, run, ticket, { type: 'inbound', text: input.body, ...(input.media ? { media: input.media } : {}) }, input.now, { lastMessageId: input.messageId });
    return true;
  }
  if (!input.body.trim()) return false;
  const { rows: campaigns } = await selectActivePhraseCampaigns(tx.db, { companyId: ticket.companyId });
  if (campaigns.length === 0) return false;
  const chosen = selectPhraseCampaign(
    campaigns.map((c) => ({ ...c, status: true, matchMode: c.matchMode === 'contains' ? ('contains' as const) : ('exact' as const) })),
    input.body,
    input.connectionId,
  );
  if (!chosen) return false;
  // Phrase campaigns are a campaigns feature (spec/03 §6): a plan without it starts no flow.
  if (!(await companyPlanAllows(tx.db, ticket.companyId, 'campaigns'))) return false;
  return startFlow(tx, ticket, { flowId: chosen.flowId, campaignId: chosen.id, messageId: input.messageId, now: input.now });
}

const selectActivePhraseCampaigns = prepare((db, p: { companyId: number }) =>
  db
    .selectFrom('flowCampaigns')
    .select(['flowCampaigns.id', 'flowCampaigns.flowId', 'flowCampaigns.whatsappId', 'flowCampaigns.phrase', 'flowCampaigns.matchMode'])
    .where('flowCampaigns.companyId', '=', p.companyId)
    .where('flowCampaigns.status', '=', 1),
);


/** Ends the ticket's running flow (an agent's stop, the ticket taken or closed): its timer is cancelled, nothing is sent. */
export async function stopTicketFlow(tx: Tx, ticket: TicketRow, now = new Date()): Promise<boolean> {
  await lockTicket(tx, ticket.companyId, ticket.id);
  const run = await lockRunningRun(tx, ticket.companyId, ticket.id);
  if (!run) return false;
  await advance(tx, run, ticket, { type: 'stop' }, now);
  return true;
}

/**
 * A due timer of run `runId` (the caller locked the ticket, then claimed the timer row). A ticket
 * an agent took or closed meanwhile ends the flow instead (nothing more is sent to it).
 */
export async function fireRunTimer(tx: Tx, companyId: number, runId: number, timerId: string, now: Date): Promise<'fired' | 'stopped' | 'stale'> {
  const run = await lockRun(tx, companyId, runId);
  if (!run || run.status !== 'running') return 'stale';
  const ticket = await findTicketRow(tx.db, companyId, run.ticketId);
  if (!ticket) return 'stale';
  if (ticket.status !== 'pending' || ticket.userId !== null) {
    await advance(tx, run, ticket, { type: 'stop' }, now);
    return 'stopped';
  }
  await advance(tx, run, ticket, { type: 'timer', timerId }, now);
  return 'fired';
}

/**
 * The assistant of a typebot or openai node is done (it handed over, or its conversation ended) or
 * failed: the run goes on along the node's edge (or its failed path), in the caller's write. Stale
 * (the run ended, or waits elsewhere): nothing happens.
 */
export async function resumeExternal(tx: Tx, companyId: number, runId: number, nodeId: string, outcome: 'done' | 'failed', now = new Date()): Promise<boolean> {
  const peek = await tenant(tx.db, companyId).selectFrom('flowRuns').select('flowRuns.ticketId').where('flowRuns.id', '=', runId).executeTakeFirst();
  if (!peek) return false;
  await lockTicket(tx, companyId, peek.ticketId);
  const run = await lockRun(tx, companyId, runId);
  if (!run || run.status !== 'running') return false;
  const awaiting = readState(run).awaiting;
  if (awaiting?.kind !== 'external' || awaiting.nodeId !== nodeId) return false;
  const ticket = await findTicketRow(tx.db, companyId, run.ticketId);
  if (!ticket) return false;
  await advance(tx, run, ticket, { type: 'external', nodeId, outcome }, now);
  return true;
}
