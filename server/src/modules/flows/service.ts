// Flows (spec/03 §2, §3, §7): list, create, rename, duplicate, delete, and the graph saved as a new
// immutable version (flow_versions). A conversation keeps the version it started on
// (../../flows-runtime/), so saving never changes a running conversation. Services take the write's
// `tx`; the routes own the transaction (DESIGN §12).
import { AppError, FLOW_VOICES, lintFlow, promptMaxMessagesSchema, promptMaxTokensSchema, promptTemperatureSchema, type FlowGraph, type FlowWarning, type ValidationIssue } from '@zapdesk/sync';
import { sql } from 'kysely';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import { toLikePattern } from '../../db/like.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';
import { texts } from '../../inbound/texts.ts';
import type { SecretBox } from '../../auth/secret-box.ts';
import { sealFlowKeys, withoutSealedKeys } from './secrets.ts';
import { storedGraphOf, toFlowDto, type FlowDto, type FlowRow, type StoredGraph } from './dto.ts';

export async function getFlowRow(db: Database, companyId: number, id: number): Promise<FlowRow> {
  const row = await tenant(db, companyId).selectFrom('flows').selectAll('flows').where('flows.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('ERR_NOT_FOUND', 'Flow not found.');
  return row;
}

/** GET /flowbuilder: by name; `searchParam` filters (case-insensitive). */
export async function findFlows(db: Database, companyId: number, searchParam = ''): Promise<{ flows: FlowDto[] }> {
  let q = tenant(db, companyId).selectFrom('flows').selectAll('flows');
  if (searchParam.trim()) q = q.where(sql<boolean>`lower(flows.name) like ${toLikePattern(searchParam.trim())} escape '\\'`);
  const rows = await q.orderBy('flows.name').orderBy('flows.id').execute();
  return { flows: rows.map(toFlowDto) };
}

export async function createFlow(tx: Tx, actor: Actor, input: { name: string }): Promise<FlowDto> {
  const row = await tenant(tx.db, actor.companyId).insertInto('flows', { name: input.name, userId: actor.userId, active: 1 }).returningAll().executeTakeFirstOrThrow();
  tx.effects.poke(actor.companyId);
  return toFlowDto(row);
}

/** PUT /flowbuilder: the name, and (ours) `active`: an inactive flow starts no new conversation. */
export async function renameFlow(tx: Tx, actor: Actor, input: { flowId: number; name: string; active?: boolean }): Promise<FlowDto> {
  await getFlowRow(tx.db, actor.companyId, input.flowId);
  const row = await tenant(tx.db, actor.companyId)
    .updateTable('flows')
    .set({ name: input.name, ...(input.active === undefined ? {} : { active: input.active ? 1 : 0 }), ...bumpVersion() })
    .where('flows.id', '=', input.flowId)
    .returningAll()
    .executeTakeFirstOrThrow();
  tx.effects.poke(actor.companyId);
  return toFlowDto(row);
}

/**
 * One slice of a flow's delete, run before its write (the route repeats it in writes of their own:
 * db/slices.ts): up to `limit` of the runs that ended (the flow's history: a welcome flow has one per
 * new contact) deleted; answers how many. The delete's cascade of 100,000 runs held SQLite's writer
 * 0.7 s. Running runs stay for the delete's own write, which lets their tickets go first. Another
 * company's flow id matches none of its runs.
 */
export async function clearEndedRunsSlice(tx: Tx, companyId: number, flowId: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  // The ids first (db/slices.ts says why).
  const versions = t.selectFrom('flowVersions').select('flowVersions.id').where('flowVersions.flowId', '=', flowId);
  const ids = (await t.selectFrom('flowRuns').select('flowRuns.id').where('flowRuns.flowVersionId', 'in', versions).where('flowRuns.status', '!=', 'running').limit(limit).execute()).map((r) => r.id);
  if (ids.length > 0) await t.deleteFrom('flowRuns').where('flowRuns.id', 'in', ids).execute();
  return ids.length;
}

/**
 * Deletes the flow with its versions, phrase campaigns, and the conversations running it (their
 * timers go with them); those tickets stop showing a flow step and stay pending for the agents.
 */
export async function deleteFlow(tx: Tx, actor: Actor, id: number): Promise<void> {
  await getFlowRow(tx.db, actor.companyId, id);
  const t = tenant(tx.db, actor.companyId);
  await t.updateTable('tickets').set({ flowId: null, flowNodeId: null, flowData: null, ...bumpVersion() }).where('tickets.flowId', '=', id).execute();
  // A flowbuilder integration that started this flow keeps its row without a flow (the foreign key's
  // own set null would be unseen by sync).
  await t.updateTable('queueIntegrations').set({ flowId: null, ...bumpVersion() }).where('queueIntegrations.flowId', '=', id).execute();
  await t.deleteFrom('flows').where('flows.id', '=', id).execute();
  tx.effects.poke(actor.companyId);
}

/**
 * POST /flowbuilder/duplicate: a copy named in its author's language ("<name> - copy", " - cópia",
 * " - copia"; cut to 50), holding the latest graph as its version 1.
 */
export async function duplicateFlow(tx: Tx, actor: Actor, flowId: number): Promise<FlowDto> {
  const source = await getFlowRow(tx.db, actor.companyId, flowId);
  const t = tenant(tx.db, actor.companyId);
  const author = await t.selectFrom('users').select('users.language').where('users.id', '=', actor.userId).executeTakeFirst();
  const name = texts(author?.language).copyOf(source.name).slice(0, 50);
  const row = await t
    .insertInto('flows', { name, userId: actor.userId, active: source.active, flow: source.flow, versionNo: source.flow ? 1 : 0 })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (source.flow) await t.insertInto('flowVersions', { flowId: row.id, versionNo: 1, graph: source.flow, userId: actor.userId }).execute();
  tx.effects.poke(actor.companyId);
  return toFlowDto(row);
}

export type FlowWithGraph = FlowDto & { flow: StoredGraph | null };

/** GET /flowbuilder/flow/{id}: `{ flow: { …flow, flow: { nodes, connections } | null } }`. */
export async function getFlowWithGraph(db: Database, companyId: number, id: number): Promise<{ flow: FlowWithGraph }> {
  const row = await getFlowRow(db, companyId, id);
  return { flow: { ...toFlowDto(row), flow: withoutSealedKeys(storedGraphOf(row)) } };
}

/**
 * What a saved node must hold to run, beyond its shape (a stored graph is read leniently, so an old
 * flow still runs): a ticket node's queue, an openai node's hand-over queue and a typebot node's
 * integration are the company's own (another company's id is as unknown as a missing one); an
 * openai node's numbers are those a prompt accepts (spec/03 §5) and its voice one of the list.
 * ERR_VALIDATION with each problem at its node's path.
 */
async function assertRunnableNodes(db: Database, companyId: number, graph: FlowGraph): Promise<void> {
  const issues: ValidationIssue[] = [];
  const queues: { path: string; id: number }[] = [];
  const integrations: { path: string; id: number }[] = [];
  for (const [i, node] of graph.nodes.entries()) {
    const at = `nodes.${i}.data`;
    if (node.type === 'ticket' && node.data.queueId) queues.push({ path: `${at}.queueId`, id: node.data.queueId });
    if (node.type === 'typebot' && node.data.typebotIntegration.id) integrations.push({ path: `${at}.typebotIntegration.id`, id: node.data.typebotIntegration.id });
    if (node.type !== 'openai') continue;
    const ai = node.data.typebotIntegration;
    if (ai.queueId) queues.push({ path: `${at}.typebotIntegration.queueId`, id: ai.queueId });
    for (const [field, schema] of [['temperature', promptTemperatureSchema], ['maxTokens', promptMaxTokensSchema], ['maxMessages', promptMaxMessagesSchema]] as const) {
      const checked = schema.safeParse(ai[field]);
      if (!checked.success) issues.push({ path: `${at}.typebotIntegration.${field}`, message: checked.error.issues[0]?.message ?? 'Invalid value' });
    }
    if (!(FLOW_VOICES as readonly string[]).includes(ai.voice)) issues.push({ path: `${at}.typebotIntegration.voice`, message: `Unknown voice: one of ${FLOW_VOICES.join(', ')}` });
  }
  const t = tenant(db, companyId);
  const own = async (table: 'queues' | 'queueIntegrations', refs: { id: number }[]) =>
    refs.length === 0 ? new Set<number>() : new Set((await t.selectFrom(table).select(`${table}.id as id`).where(`${table}.id`, 'in', [...new Set(refs.map((r) => r.id))]).execute()).map((r) => r.id));
  const ownQueues = await own('queues', queues);
  for (const q of queues) if (!ownQueues.has(q.id)) issues.push({ path: q.path, message: `No queue ${q.id} in this company` });
  const ownIntegrations = await own('queueIntegrations', integrations);
  for (const r of integrations) if (!ownIntegrations.has(r.id)) issues.push({ path: r.path, message: `No integration ${r.id} in this company` });
  if (issues[0]) throw new AppError('ERR_VALIDATION', `${issues[0].path}: ${issues[0].message}`, { issues });
}

/** The graph as stored: what the editor sent, checked, with edges under spec/03's name `connections`. */
export const toStoredGraph = (graph: FlowGraph): StoredGraph => ({ nodes: graph.nodes, connections: graph.edges });

/**
 * POST /flowbuilder/flow: the graph becomes the flow's next version. The number is taken by one
 * update of the flow row (two saves at once get two numbers; on PostgreSQL the row lock orders them).
 * Answers the flow with its graph and the editor's warnings (lintFlow: they do not block a save).
 */
export async function saveFlowGraph(tx: Tx, actor: Actor, input: { idFlow: number; graph: FlowGraph }, secrets: SecretBox): Promise<{ flow: FlowWithGraph; warnings: FlowWarning[] }> {
  const current = await getFlowRow(tx.db, actor.companyId, input.idFlow);
  await assertRunnableNodes(tx.db, actor.companyId, input.graph);
  const stored = toStoredGraph(sealFlowKeys(input.graph, storedGraphOf(current), secrets));
  const json = JSON.stringify(stored);
  const t = tenant(tx.db, actor.companyId);
  const row = await t
    .updateTable('flows')
    .set((eb) => ({ flow: json, versionNo: eb('flows.versionNo', '+', 1), ...bumpVersion() }))
    .where('flows.id', '=', input.idFlow)
    .returningAll()
    .executeTakeFirstOrThrow();
  await t.insertInto('flowVersions', { flowId: row.id, versionNo: row.versionNo, graph: json, userId: actor.userId }).execute();
  tx.effects.poke(actor.companyId);
  return { flow: { ...toFlowDto(row), flow: withoutSealedKeys(stored) }, warnings: lintFlow(input.graph) };
}
