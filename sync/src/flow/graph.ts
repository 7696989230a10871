import { z } from 'zod';
import { FLOW_EDGE_TYPE, FLOW_START_LABEL, FLOW_START_NODE_ID, FLOW_START_POSITION } from './constants.ts';
import { flowNodeSchema, type FlowNode } from './nodes.ts';

// A flow as a graph (spec/03 §3; DESIGN §13): the nodes of nodes.ts and the edges the editor draws
// between them, React Flow's shape. The schema refuses a graph that cannot run as drawn, each issue
// at the path of the node or edge at fault, so the editor can show it there: an unknown node type,
// a missing or second start node, an edge to or from a missing node, an edge from an output the
// node does not have, two edges from one output (which one would run?), an interval beyond 120 s.

/** Outputs (React Flow source handles) per node type; README.md has the table. */
export const FLOW_HANDLES = {
  /** The one output of a node with a single way on: null, undefined or 'a' in the saved JSON. */
  next: 'a',
  menuOption: (number: number) => `a${number}`,
  invalid: 'invalid',
  timeout: 'timeout',
  conditionTrue: 'true',
  conditionFalse: 'false',
  /** Randomizer: `a` takes `percent`, `b` the remainder (spec/03 §9). */
  randomA: 'a',
  randomB: 'b',
  notConfigured: 'notConfigured',
  failed: 'failed',
} as const;

export const flowEdgeSchema = z.looseObject({
  id: z.string().optional(),
  source: z.string().min(1),
  target: z.string().min(1),
  sourceHandle: z.string().nullish(),
  targetHandle: z.string().nullish(),
  type: z.string().optional(),
});
export type FlowEdge = z.infer<typeof flowEdgeSchema>;

/** The output an edge leaves from, single outputs folded to 'a'. */
export function edgeHandle(edge: Pick<FlowEdge, 'sourceHandle'>): string {
  return edge.sourceHandle == null || edge.sourceHandle === '' ? FLOW_HANDLES.next : edge.sourceHandle;
}

/** The outputs a node offers (an empty list: nothing may leave it). */
export function nodeHandles(node: FlowNode): string[] {
  const { next, invalid, timeout } = FLOW_HANDLES;
  switch (node.type) {
    case 'menu':
      return [...node.data.arrayOption.map((o) => FLOW_HANDLES.menuOption(o.number)), invalid, timeout];
    case 'condition':
      return [FLOW_HANDLES.conditionTrue, FLOW_HANDLES.conditionFalse];
    case 'randomizer':
      return [FLOW_HANDLES.randomA, FLOW_HANDLES.randomB];
    case 'question':
      return [next, timeout];
    case 'typebot':
    case 'openai':
      return [next, FLOW_HANDLES.notConfigured, FLOW_HANDLES.failed];
    case 'ticket':
      return [];
    default:
      return [next];
  }
}

const graphShape = z
  .object({
    nodes: z.array(flowNodeSchema),
    edges: z.array(flowEdgeSchema),
  })
  .superRefine((graph, ctx) => {
    const byId = new Map<string, FlowNode>();
    graph.nodes.forEach((n, i) => {
      if (byId.has(n.id)) ctx.addIssue({ code: 'custom', path: ['nodes', i, 'id'], message: `Node id "${n.id}" appears twice` });
      byId.set(n.id, n);
    });
    const starts = graph.nodes.map((n, i) => [n, i] as const).filter(([n]) => n.type === 'start');
    if (starts.length === 0) ctx.addIssue({ code: 'custom', path: ['nodes'], message: 'The flow has no start node' });
    for (const [n, i] of starts.slice(1)) ctx.addIssue({ code: 'custom', path: ['nodes', i, 'type'], message: `Only one start node may exist (node "${n.id}")` });
    for (const [n, i] of starts) {
      if (n.id !== FLOW_START_NODE_ID) ctx.addIssue({ code: 'custom', path: ['nodes', i, 'id'], message: `The start node's id is "${FLOW_START_NODE_ID}"` });
    }
    graph.nodes.forEach((n, i) => {
      if (n.type !== 'start' && n.id === FLOW_START_NODE_ID) ctx.addIssue({ code: 'custom', path: ['nodes', i, 'id'], message: `Id "${FLOW_START_NODE_ID}" is the start node's` });
    });

    const used = new Map<string, number>();
    graph.edges.forEach((e, i) => {
      const source = byId.get(e.source);
      if (!source) ctx.addIssue({ code: 'custom', path: ['edges', i, 'source'], message: `Edge ${e.id ?? i} leaves a missing node "${e.source}"` });
      if (!byId.has(e.target)) ctx.addIssue({ code: 'custom', path: ['edges', i, 'target'], message: `Edge ${e.id ?? i} goes to a missing node "${e.target}"` });
      if (!source) return;
      const handle = edgeHandle(e);
      const handles = nodeHandles(source);
      if (!handles.includes(handle)) {
        const offered = handles.length === 0 ? `nothing may leave a ${source.type} node` : `it has ${handles.join(', ')}`;
        ctx.addIssue({ code: 'custom', path: ['edges', i, 'sourceHandle'], message: `Edge ${e.id ?? i} leaves output "${handle}" of node "${source.id}": ${offered}` });
        return;
      }
      const key = `${source.id}\u0000${handle}`;
      if (used.has(key)) ctx.addIssue({ code: 'custom', path: ['edges', i], message: `Two edges leave output "${handle}" of node "${source.id}"` });
      used.set(key, i);
    });
  });

/**
 * A flow's graph as the editor saves it. `connections` (the name of spec/03 §7's save call) is read
 * as `edges`; null lists (a new flow, spec/03 §7) read as empty, which then lacks its start node.
 */
export const flowGraphSchema = z.preprocess((v) => {
  if (!v || typeof v !== 'object') return v;
  const o = v as { nodes?: unknown; edges?: unknown; connections?: unknown };
  return { nodes: o.nodes ?? [], edges: o.edges ?? o.connections ?? [] };
}, graphShape);
/** A parsed graph; the engine caches an index per graph object, so treat it as immutable. */
export type FlowGraph = z.infer<typeof graphShape>;

/** POST /flowbuilder/flow (spec/03 §7): saves the graph of flow `idFlow` as its next version. */
export const flowSaveSchema = z
  .object({ idFlow: z.coerce.number().int().positive(), nodes: z.unknown(), connections: z.unknown() })
  .transform((b, ctx) => {
    const parsed = flowGraphSchema.safeParse({ nodes: b.nodes, connections: b.connections });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', path: issue.path.map((p, i) => (i === 0 && p === 'edges' ? 'connections' : p)) });
      return z.NEVER;
    }
    return { idFlow: b.idFlow, graph: parsed.data };
  });

/** A new flow: the start node alone (spec/03 §3). */
export function createFlowGraph(): FlowGraph {
  return { nodes: [{ id: FLOW_START_NODE_ID, type: 'start', position: { ...FLOW_START_POSITION }, data: { label: FLOW_START_LABEL } }], edges: [] };
}

/** An edge as the editor draws it (spec/03 §3: type 'buttonedge'); id in React Flow's style. */
export function createFlowEdge(source: string, target: string, sourceHandle: string | null = null): FlowEdge {
  return { id: `reactflow__edge-${source}${sourceHandle ?? ''}-${target}`, source, target, sourceHandle, type: FLOW_EDGE_TYPE };
}

/** A node id: 30 letters and digits (spec/03 §3), drawn with the caller's random source. */
export function createFlowNodeId(random: () => number, length = 30): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let id = '';
  for (let i = 0; i < length; i++) id += alphabet[Math.floor(random() * alphabet.length) % alphabet.length];
  return id;
}
