// One turn: read (context.ts, targets.ts), call the service with a deadline (adapters/, no
// transaction open), fetch the files it answered with, then ONE write: the ticket is read again
// and, if it still waits for its assistant, the replies are queued in the outbox (spaced by the
// service's delay), the session, transcripts and token usage kept, a hand-over applied, and the
// turn marked done. A ticket an agent took meanwhile gets nothing. A call that fails is retried
// later when worth it (a webhook's 5xx); otherwise the assistant stops for that ticket, which stays
// pending for people with a note saying why. Rules in README.md.
import type { AppDeps } from '../context.ts';
import { tenant } from '../db/tenant.ts';
import { write, type Tx } from '../db/write.ts';
import { emit, ticketEvent } from '../events/emit.ts';
import { textLanguage } from '../inbound/reply.ts';
import { texts } from '../inbound/texts.ts';
import { removeMediaFile } from '../modules/media/storage.ts';
import { queueTicketMessage } from '../modules/messages/send.ts';
import { lockTicketRow, type TicketRow } from '../modules/tickets/dto.ts';
import { trackTicket } from '../modules/ticket-tracking/service.ts';
import { answerWithDialogflow } from './adapters/dialogflow.ts';
import { answerWithPrompt, isTimeout } from './adapters/openai.ts';
import { answerWithTypebot, type TypebotSession } from './adapters/typebot.ts';
import { RetryableError, type TurnContext, type TurnOutcome } from './adapters/types.ts';
import { answerWithWebhook } from './adapters/webhook.ts';
import { loadTurn, readMessages, waitsForTurn } from './context.ts';
import { resumeExternal } from '../flows-runtime/runtime.ts';
import { downloadReplyMedia, speakReplies, type ReplyFile } from './media.ts';
import { loadTarget, type FlowNodeRef, type Target } from './targets.ts';
import { endTurn, retryTurn, type TurnRow } from './turns.ts';
import { recordUsage } from './usage.ts';

type Heard = Map<number, string>;

export async function runTurn(deps: AppDeps, turn: TurnRow, stop: AbortSignal): Promise<void> {
  const loaded = await loadTurn(deps, turn);
  if (!loaded) return write(deps, (tx) => endTurn(tx, turn, 'done', 'the ticket no longer waits for an assistant'));
  const target = await loadTarget(deps, turn);
  if ('missing' in target) return failTurn(deps, turn, { label: 'The assistant', flow: target.flow }, target.missing);
  const { timeoutMs } = deps.config.assistants;
  const signal = AbortSignal.any([stop, AbortSignal.timeout(timeoutMs)]);
  const ctx: TurnContext = { ...loaded.ctx, signal, targets: { allowPrivate: deps.config.webhooks.allowPrivate } };
  let outcome: TurnOutcome & { heard?: Heard };
  try {
    outcome = await callTarget(deps, turn, target, ctx);
  } catch (err) {
    if (stop.aborted) throw err;
    const timedOut = signal.aborted || isTimeout(err);
    const why = timedOut ? `no answer within ${Math.round(timeoutMs / 1000)} s` : err instanceof Error ? err.message : String(err);
    const { attempts: max, backoffMs } = deps.config.assistants;
    if (err instanceof RetryableError && !timedOut && turn.attempts < max) {
      await retryTurn(deps.db, turn, err.retryAfterMs ?? backoffMs * 2 ** (turn.attempts - 1), why);
      return;
    }
    deps.log.warn('assistant call failed', { turnId: turn.id, ticketId: turn.ticketId, target: target.label, error: why });
    return failTurn(deps, turn, target, why);
  }
  const files = await downloadReplyMedia(deps, loaded.ticket, outcome.replies, signal);
  if (target.kind === 'prompt' && target.speech) {
    for (const [i, file] of await speakReplies(deps, loaded.ticket, outcome.replies, target.speech, signal)) files.set(i, file);
  }
  try {
    // A customer waits for this answer: it goes before the writes already queued (a short write).
    await write(deps, (tx) => applyOutcome(tx, turn, target, outcome, files), { first: true });
  } catch (err) {
    await Promise.all([...files.values()].map((f) => removeMediaFile(deps.config.mediaDir, f.relPath)));
    throw err;
  }
}

async function callTarget(deps: AppDeps, turn: TurnRow, target: Target, ctx: TurnContext): Promise<TurnOutcome & { heard?: Heard }> {
  switch (target.kind) {
    case 'prompt': {
      const history = await readMessages(deps, turn.companyId, turn.ticketId, { latest: Math.max(1, target.prompt.maxMessages) });
      ctx.message = history.find((m) => m.id === turn.messageId) ?? ctx.message;
      const { openaiBaseUrl, timeoutMs, transcriptionModel } = deps.config.assistants;
      return answerWithPrompt(target.prompt, ctx, history, { baseURL: openaiBaseUrl, timeoutMs, transcriptionModel });
    }
    case 'typebot':
      return answerWithTypebot(target.typebot, ctx, await readSession<TypebotSession>(deps, turn, target.integrationId));
    case 'webhook':
      return answerWithWebhook(target.webhook, ctx);
    case 'dialogflow': {
      const m = ctx.message;
      const text = m ? (m.mediaType === 'audio' ? (m.transcript ?? '') : m.body) : '';
      if (!text.trim()) return { replies: [] };
      return answerWithDialogflow({ ...target.dialogflow, baseUrl: deps.config.assistants.dialogflowBaseUrl }, ctx, text);
    }
  }
}

async function readSession<T>(deps: AppDeps, turn: TurnRow, integrationId: number): Promise<(T & { id: string }) | undefined> {
  const row = await tenant(deps.db, turn.companyId)
    .selectFrom('assistantSessions')
    .select(['assistantSessions.sessionId', 'assistantSessions.data', 'assistantSessions.expiresAt'])
    .where('assistantSessions.ticketId', '=', turn.ticketId)
    .where('assistantSessions.integrationId', '=', integrationId)
    .executeTakeFirst();
  // An expired session is over: the next message starts a new one.
  if (!row || (row.expiresAt && Date.parse(row.expiresAt) <= Date.now())) return undefined;
  return { id: row.sessionId, choices: row.data ? (JSON.parse(row.data) as unknown) : [] } as unknown as T & { id: string };
}

/**
 * The ticket, read again in the write (PostgreSQL: locked, first, as every runtime write locks it:
 * flows-runtime/README.md).
 */
async function lockTicket(tx: Tx, turn: TurnRow): Promise<TicketRow | undefined> {
  return lockTicketRow(tx, turn.companyId, turn.ticketId);
}

async function updateTicket(tx: Tx, ticket: TicketRow, patch: Partial<Pick<TicketRow, 'assistantState' | 'chatbot' | 'useIntegration' | 'integrationId' | 'promptId' | 'queueId'>>): Promise<TicketRow> {
  const now = new Date().toISOString();
  const row = await tenant(tx.db, ticket.companyId)
    .updateTable('tickets')
    .set((eb) => ({ ...patch, updatedAt: now, version: eb('tickets.version', '+', 1) }))
    .where('tickets.id', '=', ticket.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  tx.effects.poke(ticket.companyId);
  // A hand-over is a transfer (another queue) for the live channel and webhooks.
  await emit(tx, ticketEvent('update', row, ticket));
  return row;
}

async function applyOutcome(tx: Tx, turn: TurnRow, target: Target, outcome: TurnOutcome & { heard?: Heard }, files: Map<number, ReplyFile>): Promise<void> {
  let ticket = await lockTicket(tx, turn);
  if (!ticket || !waitsForTurn(turn, ticket)) {
    for (const f of files.values()) tx.effects.afterCommit((app) => removeMediaFile(app.config.mediaDir, f.relPath));
    return endTurn(tx, turn, 'done', 'the ticket no longer waits for an assistant');
  }
  const t = tenant(tx.db, turn.companyId);
  // A flow's step speaks for the flow: the ticket shows the flow, not an assistant of its own.
  const owner = target.kind === 'prompt' ? { promptId: turn.targetId, integrationId: null } : { integrationId: turn.targetId, promptId: null };
  if (!target.flow && (ticket.assistantState !== 'active' || ticket.useIntegration !== 1 || ticket.promptId !== owner.promptId || ticket.integrationId !== owner.integrationId)) {
    ticket = await updateTicket(tx, ticket, { assistantState: 'active', useIntegration: 1, ...owner });
  }
  const gap = outcome.gapMs ?? 0;
  const start = Date.now();
  for (const [i, reply] of outcome.replies.entries()) {
    const media = files.get(i);
    // A file that could not be fetched leaves as its link; a voice note says its text (no caption).
    const body = media?.spoken !== undefined ? '' : media ? reply.text : [reply.text, reply.media?.url].filter(Boolean).join('\n');
    if (!body.trim() && !media) continue;
    const row = await queueTicketMessage(tx, ticket, { body, media, origin: `assistant:${turn.id}`, notBefore: gap > 0 && i > 0 ? new Date(start + gap * i).toISOString() : undefined });
    // What the note says, as for a customer's voice note: the model reads it in the next turns.
    if (media?.spoken !== undefined) await t.insertInto('messageTranscripts', { messageId: row.id, text: media.spoken }).execute();
  }
  if (outcome.session !== undefined && 'integrationId' in target) await keepSession(tx, turn, target.integrationId, outcome.session);
  for (const [messageId, text] of outcome.heard ?? []) {
    await t.insertInto('messageTranscripts', { messageId, text }).onConflict((oc) => oc.column('messageId').doNothing()).execute();
  }
  if (outcome.usage) await recordUsage(tx, turn.companyId, outcome.usage);
  await endTurn(tx, turn, 'done');
  // Done talking: a flow goes on from its node (after this step's replies); otherwise people take it.
  if (outcome.handOver && target.flow) await resumeExternal(tx, turn.companyId, target.flow.runId, target.flow.nodeId, 'done');
  else if (outcome.handOver) await handOver(tx, ticket, target.label, outcome.handOver);
}

async function keepSession(tx: Tx, turn: TurnRow, integrationId: number, session: TurnOutcome['session']): Promise<void> {
  const t = tenant(tx.db, turn.companyId);
  await t.deleteFrom('assistantSessions').where('assistantSessions.ticketId', '=', turn.ticketId).where('assistantSessions.integrationId', '=', integrationId).execute();
  if (!session) return;
  await t.insertInto('assistantSessions', { ticketId: turn.ticketId, integrationId, sessionId: session.id, data: JSON.stringify(session.data ?? null), expiresAt: session.expiresAt }).execute();
}

/** The customer goes to people: the named queue (if it is the company's), the bot off, a note for the agents. */
async function handOver(tx: Tx, ticket: TicketRow, label: string, to: NonNullable<TurnOutcome['handOver']>): Promise<void> {
  const queue = to.queueId === null ? undefined : await tenant(tx.db, ticket.companyId).selectFrom('queues').select('queues.id').where('queues.id', '=', to.queueId).executeTakeFirst();
  const moved = await updateTicket(tx, ticket, { assistantState: 'off', chatbot: 0, useIntegration: 0, ...(queue && queue.id !== ticket.queueId ? { queueId: queue.id } : {}) });
  if (moved.queueId !== ticket.queueId) await trackTicket(tx.db, ticket.companyId, moved, { queueId: moved.queueId, queuedAt: new Date().toISOString() });
  await addNote(tx, moved, texts(await textLanguage(tx, moved)).assistantHandedOver(label, to.reason));
}

/**
 * The assistant stops for the ticket, which waits for people; the agents read why in a note. A
 * flow's step fails into the flow instead (its failed path, or the flow ends).
 */
async function failTurn(deps: AppDeps, turn: TurnRow, target: { label: string; flow?: FlowNodeRef }, why: string): Promise<void> {
  await write(deps, async (tx) => {
    await endTurn(tx, turn, 'failed', why);
    const ticket = await lockTicket(tx, turn);
    if (!ticket || !waitsForTurn(turn, ticket)) return;
    const note = texts(await textLanguage(tx, ticket)).assistantFailed(target.label, why);
    if (target.flow) {
      await addNote(tx, ticket, note);
      await resumeExternal(tx, turn.companyId, target.flow.runId, target.flow.nodeId, 'failed');
      return;
    }
    const stopped = await updateTicket(tx, ticket, { assistantState: 'off', chatbot: 0, useIntegration: 0 });
    await addNote(tx, stopped, note);
  });
}

async function addNote(tx: Tx, ticket: TicketRow, note: string): Promise<void> {
  await tenant(tx.db, ticket.companyId).insertInto('ticketNotes', { ticketId: ticket.id, contactId: ticket.contactId, userId: null, note }).execute();
  tx.effects.poke(ticket.companyId);
}
