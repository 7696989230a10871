// Flow and phrase-campaign rows → what the REST calls answer (spec/03 §3, §7). The graph is stored
// as the editor saves it ({nodes, connections}), parsed by the sync schema on the way in. The wire
// shapes are sync's (`sync/src/flow/wire.ts`).
import type { Flow, PhraseCampaign, StoredFlowGraph } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { FlowCampaigns, Flows } from '../../db/schema.ts';

export type FlowRow = Selectable<Flows>;
export type PhraseCampaignRow = Selectable<FlowCampaigns>;

export type FlowDto = Flow;
export type StoredGraph = StoredFlowGraph;
export type PhraseCampaignDto = PhraseCampaign;

const iso = (v: string | Date) => (v instanceof Date ? v.toISOString() : new Date(v).toISOString());

export function toFlowDto(row: FlowRow): FlowDto {
  return {
    id: row.id,
    name: row.name,
    active: row.active === 1,
    userId: row.userId,
    versionNo: row.versionNo,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    version: row.version,
  };
}

/** The latest saved graph, or null for a flow never saved (spec/03 §7: "may be null"). */
export function storedGraphOf(row: Pick<FlowRow, 'flow'>): StoredGraph | null {
  if (!row.flow) return null;
  try {
    return JSON.parse(row.flow) as StoredGraph;
  } catch {
    return null;
  }
}

export function toPhraseCampaignDto(row: PhraseCampaignRow): PhraseCampaignDto {
  return {
    id: row.id,
    name: row.name,
    flowId: row.flowId,
    whatsappId: row.whatsappId,
    phrase: row.phrase,
    matchMode: row.matchMode === 'contains' ? 'contains' : 'exact',
    status: row.status === 1,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    version: row.version,
  };
}
