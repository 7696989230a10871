// What agents see of a ticket's conversation in a flow (GET /tickets/{id}/flow, issue 15): the
// ticket's latest run — running or ended, since the answers matter most once the flow has handed the
// customer over — with its flow's name, the node it is at and the answers its question nodes stored.
// The caller has checked that the actor may see the ticket.
import { flowStateSchema, type FlowGraph, type TicketFlowRun } from '@zapdesk/sync';
import { tenant } from '../../db/tenant.ts';
import type { Reader } from '../../db/write.ts';
import { loadVersionGraph } from '../../flows-runtime/runs.ts';

const iso = (v: string | Date) => (v instanceof Date ? v.toISOString() : new Date(v).toISOString());
const TEXT_MAX = 200;

/** The words a node shows the customer (or a short stand-in), for the agent's "where is it" line. */
export function nodeTextOf(graph: FlowGraph, nodeId: string | null): { type: string | null; text: string | null } {
  const node = nodeId === null ? undefined : graph.nodes.find((n) => n.id === nodeId);
  if (!node) return { type: null, text: null };
  const data = node.data as Record<string, unknown> & { typebotIntegration?: { message?: unknown } };
  const raw = [data.label, data.message, data.typebotIntegration?.message, data.caption].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return { type: node.type, text: raw === undefined ? null : raw.trim().slice(0, TEXT_MAX) };
}

/** The ticket's latest run, or null when no flow ever ran in it. */
export async function getTicketFlow(r: Reader, companyId: number, ticketId: number): Promise<TicketFlowRun | null> {
  const run = await tenant(r.db, companyId)
    .selectFrom('flowRuns')
    .innerJoin('flows', 'flows.id', 'flowRuns.flowId')
    .innerJoin('flowVersions', 'flowVersions.id', 'flowRuns.flowVersionId')
    .select([
      'flowRuns.id',
      'flowRuns.flowId',
      'flowRuns.flowVersionId',
      'flowRuns.status',
      'flowRuns.endReason',
      'flowRuns.nodeId',
      'flowRuns.deadline',
      'flowRuns.state',
      'flowRuns.createdAt',
      'flowRuns.updatedAt',
      'flowRuns.endedAt',
      'flows.name as flowName',
      'flowVersions.versionNo',
    ])
    .where('flowRuns.ticketId', '=', ticketId)
    .orderBy('flowRuns.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!run) return null;
  const state = flowStateSchema.parse(JSON.parse(run.state));
  const node = nodeTextOf(await loadVersionGraph(r, companyId, run.flowVersionId), run.nodeId);
  return {
    id: run.id,
    flowId: run.flowId,
    flowName: run.flowName,
    versionNo: run.versionNo,
    status: run.status === 'running' || run.status === 'stopped' ? run.status : 'finished',
    endReason: run.endReason,
    nodeId: run.nodeId,
    nodeType: node.type,
    nodeText: node.text,
    awaiting: run.status === 'running' ? (state.awaiting?.kind ?? null) : null,
    deadline: run.status === 'running' && run.deadline ? iso(run.deadline) : null,
    variables: state.variables,
    startedAt: iso(run.createdAt),
    updatedAt: iso(run.updatedAt),
    endedAt: run.endedAt ? iso(run.endedAt) : null,
  };
}
