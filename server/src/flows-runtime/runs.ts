// The rows behind a running conversation (migration 20261128T110000): the run of a ticket, the flow
// version it runs (parsed once per version: versions never change) and its timer rows.
import { AppError, flowGraphSchema, flowStateSchema, type FlowGraph, type FlowState } from '@zapdesk/sync';
import { sql, type Selectable } from 'kysely';
import { prepare } from '../db/prepared.ts';
import type { FlowRuns } from '../db/schema.ts';
import { tenant } from '../db/tenant.ts';
import type { Reader, Tx } from '../db/write.ts';

export type RunRow = Selectable<FlowRuns>;

/**
 * PostgreSQL: locks the ticket row for this write. Every write of the runtime takes it first, as the
 * ticket transitions do (they update the ticket, then stop its flow), so a message, a timer and an
 * agent's accept on one ticket queue behind each other in one lock order instead of deadlocking.
 */
export async function lockTicket(tx: Tx, companyId: number, ticketId: number): Promise<void> {
  if (tx.dialect !== 'postgres') return;
  await tenant(tx.db, companyId).selectFrom('tickets').select('tickets.id').where('tickets.id', '=', ticketId).forUpdate().execute();
}

// Every event reads its run: compiled once (../db/prepared.ts). `status = 'running'` is a literal so
// both planners can use the partial unique index of running runs.
const selectRunningRun = prepare((db, p: { companyId: number; ticketId: number }) =>
  db.selectFrom('flowRuns').selectAll('flowRuns').where('flowRuns.companyId', '=', p.companyId).where('flowRuns.ticketId', '=', p.ticketId).where(sql<boolean>`flow_runs.status = 'running'`),
);
const selectRunningRunForUpdate = prepare((db, p: { companyId: number; ticketId: number }) =>
  db.selectFrom('flowRuns').selectAll('flowRuns').where('flowRuns.companyId', '=', p.companyId).where('flowRuns.ticketId', '=', p.ticketId).where(sql<boolean>`flow_runs.status = 'running'`).forUpdate(),
);
const selectRun = prepare((db, p: { companyId: number; runId: number }) =>
  db.selectFrom('flowRuns').selectAll('flowRuns').where('flowRuns.companyId', '=', p.companyId).where('flowRuns.id', '=', p.runId),
);
const selectRunForUpdate = prepare((db, p: { companyId: number; runId: number }) =>
  db.selectFrom('flowRuns').selectAll('flowRuns').where('flowRuns.companyId', '=', p.companyId).where('flowRuns.id', '=', p.runId).forUpdate(),
);

/** The ticket's running run, locked for this write on PostgreSQL (an inbound message and a timer never step it at once). */
export async function lockRunningRun(tx: Tx, companyId: number, ticketId: number): Promise<RunRow | undefined> {
  const query = tx.dialect === 'postgres' ? selectRunningRunForUpdate : selectRunningRun;
  return (await query(tx.db, { companyId, ticketId })).rows[0];
}

export async function lockRun(tx: Tx, companyId: number, runId: number): Promise<RunRow | undefined> {
  const query = tx.dialect === 'postgres' ? selectRunForUpdate : selectRun;
  return (await query(tx.db, { companyId, runId })).rows[0];
}

// Parsed graphs by database and version id; a version is immutable, so an entry never goes stale.
const graphs = new Map<string, FlowGraph>();
const GRAPH_CACHE_SIZE = 500;

export async function loadVersionGraph(r: Reader, companyId: number, versionId: number): Promise<FlowGraph> {
  const key = `${r.config.databaseUrl}#${versionId}`;
  const cached = graphs.get(key);
  if (cached) return cached;
  const row = await tenant(r.db, companyId).selectFrom('flowVersions').select('flowVersions.graph').where('flowVersions.id', '=', versionId).executeTakeFirst();
  if (!row) throw new AppError('ERR_NOT_FOUND', 'Flow version not found.');
  const graph = flowGraphSchema.parse(JSON.parse(row.graph));
  if (graphs.size >= GRAPH_CACHE_SIZE) graphs.delete(graphs.keys().next().value!);
  graphs.set(key, graph);
  return graph;
}

export function readState(run: Pick<RunRow, 'state'>): FlowState {
  return flowStateSchema.parse(JSON.parse(run.state));
}

/**
 * The answers a new run of the ticket starts from: those of its earlier runs, the newer winning.
 * An answer already given (an e-mail, a document number) is there for the new flow's texts and
 * conditions; a question asked again overwrites it. Runs of a ticket are few (one per trigger).
 */
const selectRunStates = prepare((db, p: { companyId: number; ticketId: number }) =>
  db.selectFrom('flowRuns').select('flowRuns.state').where('flowRuns.companyId', '=', p.companyId).where('flowRuns.ticketId', '=', p.ticketId).orderBy('flowRuns.id'),
);

export async function earlierRunVariables(tx: Tx, companyId: number, ticketId: number): Promise<Record<string, string>> {
  const { rows } = await selectRunStates(tx.db, { companyId, ticketId });
  const variables: Record<string, string> = {};
  for (const row of rows) {
    const parsed = flowStateSchema.safeParse(JSON.parse(row.state));
    if (parsed.success) Object.assign(variables, parsed.data.variables);
  }
  return variables;
}
