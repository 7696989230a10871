// What the flow builder's REST calls carry (spec/03 §7 "Flows and phrase campaigns"), pure so it can
// be tested without a browser. The server side is written against the same spec; where the spec names
// a response only loosely ("response list", "the stored name or file names") the readers accept the
// plausible shapes, so the pages do not break on a wrapper key.
import { flowNameSchema } from '@zapdesk/sync';

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

/** flowNameSchema's messages (spec/03 §5) and the `flowbuilders.*` keys that word them. */
const NAME_RULES: Record<string, string> = { 'Digite um nome!': 'nameRequired', 'Muito curto!': 'nameShort', 'Muito longo!': 'nameLong' };

/** A flow or phrase campaign name's problem as a `flowbuilders.*` key, or null. */
export function flowNameProblem(name: string): string | null {
  const parsed = flowNameSchema.safeParse(name);
  return parsed.success ? null : (NAME_RULES[parsed.error.issues[0]?.message ?? ''] ?? 'nameRequired');
}
