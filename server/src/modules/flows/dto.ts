// Flow and phrase-campaign rows → what the REST calls answer (spec/03 §3, §7). The graph is stored
// as the editor saves it ({nodes, connections}), parsed by the sync schema on the way in.
import type { Selectable } from 'kysely';
import type { FlowCampaigns, Flows } from '../../db/schema.ts';

export type FlowRow = Selectable<Flows>;
export type PhraseCampaignRow = Selectable<FlowCampaigns>;

export type FlowDto = {
  id: number;
  name: string;
  active: boolean;
  userId: number | null;
  /** The number of the latest saved version (0: never saved). */
  versionNo: number;
  createdAt: string;
  updatedAt: string;
  version: number;
};

export type StoredGraph = { nodes: unknown[]; connections: unknown[] };

export type PhraseCampaignDto = {
  id: number;
  name: string;
  flowId: number;
  whatsappId: number | null;
  phrase: string;
  /** Ours: `exact` (the whole message, the default) or `contains` (whole words inside it). */
  matchMode: 'exact' | 'contains';
  status: boolean;
  createdAt: string;
  updatedAt: string;
  version: number;
};

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
