// The flow builder's REST calls (spec/03 §7 "Flows and phrase campaigns"), in one place for the flow
// list, the editor and the phrase campaigns page. The server side is written against the same spec;
// where the spec names a response only loosely ("response list", "the stored name or file names")
// the readers below accept the plausible shapes, so the pages do not break on a wrapper key.
import { flowNameSchema, type PhraseCampaignCreateInput, type PhraseCampaignUpdateInput } from '@zapdesk/sync';
import { api } from '../../api/client.ts';

export type FlowRecord = { id: number; name: string; active?: boolean; updatedAt?: string };
/** What GET /flowbuilder/flow/{id} holds: the saved graph, or null for a flow never drawn. */
export type SavedGraph = { nodes: unknown[] | null; connections: unknown[] | null } | null;
export type PhraseCampaign = { id: number; name: string; flowId: number; whatsappId: number | null; phrase: string; status: boolean; matchMode?: 'exact' | 'contains' };

/** The first array found under one of `keys` (or the body itself when it is an array). */
export function listFrom<T>(body: unknown, keys: string[]): T[] {
  if (Array.isArray(body)) return body as T[];
  if (body && typeof body === 'object') {
    for (const k of keys) {
      const v = (body as Record<string, unknown>)[k];
      if (Array.isArray(v)) return v as T[];
    }
  }
  return [];
}

/** GET /flowbuilder/flow/{id}: `flow.flow` with nodes and connections (spec/03 §7), null when new. */
export function savedGraphFrom(body: unknown): { name: string | null; graph: SavedGraph } {
  const flow = (body as { flow?: unknown } | null)?.flow as Record<string, unknown> | null | undefined;
  if (!flow || typeof flow !== 'object') return { name: null, graph: null };
  const name = typeof flow.name === 'string' ? flow.name : null;
  const inner = 'flow' in flow ? flow.flow : 'nodes' in flow ? flow : null;
  if (!inner || typeof inner !== 'object') return { name, graph: null };
  const g = inner as { nodes?: unknown; connections?: unknown; edges?: unknown };
  const arr = (v: unknown) => (Array.isArray(v) ? v : null);
  return { name, graph: { nodes: arr(g.nodes), connections: arr(g.connections ?? g.edges) } };
}

/** An upload's answer: the stored name, or a list of file names (the first is ours). */
export function storedNameFrom(body: unknown): string {
  if (typeof body === 'string') return body;
  if (Array.isArray(body) && body.length > 0) return storedNameFrom(body[0]);
  if (body && typeof body === 'object') {
    const o = body as Record<string, unknown>;
    for (const k of ['name', 'filename', 'fileName', 'path', 'url', 'media', 'medias', 'files']) if (k in o) return storedNameFrom(o[k]);
  }
  throw new Error('The upload answer names no file');
}

export const flowApi = {
  list: async () => listFrom<FlowRecord>(await api.get('/flowbuilder'), ['flows']),
  create: (name: string) => api.post<unknown>('/flowbuilder', { name }),
  rename: (flowId: number, name: string) => api.put<unknown>('/flowbuilder', { flowId, name }),
  remove: (flowId: number) => api.delete<unknown>(`/flowbuilder/${flowId}`),
  duplicate: (flowId: number) => api.post<unknown>('/flowbuilder/duplicate', { flowId }),
  load: async (flowId: number) => savedGraphFrom(await api.get(`/flowbuilder/flow/${flowId}`)),
  save: (body: { idFlow: number; nodes: unknown[]; connections: unknown[] }) => api.post<unknown>('/flowbuilder/flow', body),
  /** POST /flowbuilder/img | audio | content: multipart `medias`, `body`, `fromMe`. */
  upload: async (kind: 'img' | 'audio' | 'content', file: File): Promise<string> => {
    const form = new FormData();
    form.append('medias', file, file.name);
    form.append('body', file.name);
    form.append('fromMe', 'true');
    return storedNameFrom(await api.post(`/flowbuilder/${kind}`, form));
  },
};

export const phraseApi = {
  list: async () => listFrom<PhraseCampaign>(await api.get('/flowcampaign'), ['flow', 'flows', 'list', 'records', 'campaigns']),
  create: (body: PhraseCampaignCreateInput) => api.post<unknown>('/flowcampaign', body),
  update: (body: PhraseCampaignUpdateInput) => api.put<unknown>('/flowcampaign', body),
  remove: (id: number) => api.delete<unknown>(`/flowcampaign/${id}`),
};

/** flowNameSchema's messages (spec/03 §5) and the `flowbuilders.*` keys that word them. */
const NAME_RULES: Record<string, string> = { 'Digite um nome!': 'nameRequired', 'Muito curto!': 'nameShort', 'Muito longo!': 'nameLong' };

/** A flow or phrase campaign name's problem as a `flowbuilders.*` key, or null. */
export function flowNameProblem(name: string): string | null {
  const parsed = flowNameSchema.safeParse(name);
  return parsed.success ? null : (NAME_RULES[parsed.error.issues[0]?.message ?? ''] ?? 'nameRequired');
}
