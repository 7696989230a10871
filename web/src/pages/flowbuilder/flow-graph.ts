// The editor's pure side: a saved flow (spec/03 §3, §7: nodes and connections) to React Flow's nodes
// and edges and back, the outputs every node draws (exactly sync's FLOW_HANDLES, so the server engine
// follows what was drawn), where a new or duplicated node goes (spec/03 §4, §9), and the checks before
// a save: flowSaveSchema's refusals and lintFlow's warnings, each at the node it is about.
import type { Edge, Node } from '@xyflow/react';
import {
  createFlowGraph, createFlowNodeId, edgeHandle, FLOW_DUPLICATE_OFFSET, FLOW_EDGE_TYPE, FLOW_HANDLES, FLOW_NODE_SPACING,
  FLOW_NODE_TYPES, FLOW_START_NODE_ID, flowSaveSchema, lintFlow, nodeHandles, type FlowGraph, type FlowNode, type FlowNodeType, type FlowWarning,
} from '@zapdesk/sync';
import { ruleKey } from './node-forms.ts';
import type { SavedGraph } from '../flowbuilders/flow-wire.ts';

export type EditorNode = Node<Record<string, unknown>, FlowNodeType>;
export type EditorEdge = Edge;

/** The width a node is drawn with before React Flow has measured it. */
export const NODE_WIDTH = 240;

const isType = (t: unknown): t is FlowNodeType => typeof t === 'string' && (FLOW_NODE_TYPES as readonly string[]).includes(t);

/** A saved flow as React Flow state; a flow never drawn (or without a start) gets the start node. */
export function toEditor(saved: SavedGraph): { nodes: EditorNode[]; edges: EditorEdge[] } {
  const rawNodes = (saved?.nodes ?? []) as Record<string, unknown>[];
  const nodes: EditorNode[] = [];
  for (const raw of rawNodes) {
    const type = raw.type === 'content' ? 'singleBlock' : raw.type;
    if (!isType(type) || typeof raw.id !== 'string') continue;
    const p = raw.position as { x?: unknown; y?: unknown } | undefined;
    const node: EditorNode = { id: raw.id, type, position: { x: Number(p?.x ?? 0), y: Number(p?.y ?? 0) }, data: (raw.data as Record<string, unknown>) ?? {} };
    if (raw.style && typeof raw.style === 'object') node.style = raw.style as EditorNode['style'];
    if (type === 'start') node.deletable = false;
    nodes.push(node);
  }
  if (!nodes.some((n) => n.type === 'start')) nodes.unshift({ ...(createFlowGraph().nodes[0] as EditorNode), deletable: false });
  const ids = new Set(nodes.map((n) => n.id));
  const edges: EditorEdge[] = ((saved?.connections ?? []) as Record<string, unknown>[])
    .filter((e) => typeof e.source === 'string' && typeof e.target === 'string' && ids.has(e.source) && ids.has(e.target))
    .map((e) => edgeOf(e.source as string, e.target as string, edgeHandle({ sourceHandle: e.sourceHandle as string | null | undefined }), typeof e.id === 'string' ? e.id : undefined));
  return { nodes, edges };
}

export function edgeOf(source: string, target: string, handle: string, id?: string): EditorEdge {
  return { id: id ?? `reactflow__edge-${source}${handle}-${target}`, source, target, sourceHandle: handle, type: FLOW_EDGE_TYPE };
}

/** React Flow state as POST /flowbuilder/flow wants it: only what the flow is, none of the view's state. */
export function fromEditor(nodes: EditorNode[], edges: EditorEdge[]): { nodes: unknown[]; connections: unknown[] } {
  return {
    nodes: nodes.map((n) => ({
      id: n.id,
      type: n.type,
      position: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
      data: n.data,
      ...(n.style ? { style: n.style } : {}),
      ...(n.measured?.width ? { width: n.measured.width, height: n.measured.height } : {}),
    })),
    connections: edges.map((e) => ({ id: e.id, source: e.source, target: e.target, sourceHandle: e.sourceHandle ?? FLOW_HANDLES.next, targetHandle: null, type: FLOW_EDGE_TYPE })),
  };
}

/** The outputs a node draws, as sync's nodeHandles names them (data mid-edit tolerated). */
export function outputsOf(type: FlowNodeType, data: Record<string, unknown>): string[] {
  const arrayOption = Array.isArray(data.arrayOption) ? (data.arrayOption as { number: unknown }[]).map((o) => ({ number: Number(o.number) })) : [];
  return nodeHandles({ type, data: { ...data, arrayOption } } as unknown as FlowNode);
}

/** Connecting an output replaces whatever left it before: one edge per output (flowGraphSchema). */
export function connect(edges: EditorEdge[], source: string, handle: string | null | undefined, target: string): EditorEdge[] {
  const h = handle ?? FLOW_HANDLES.next;
  if (source === target) return edges;
  return [...edges.filter((e) => !(e.source === source && (e.sourceHandle ?? FLOW_HANDLES.next) === h)), edgeOf(source, target, h)];
}

/** Edges whose output a node no longer has (a menu option removed in its dialog) go with it. */
export function pruneEdges(nodes: EditorNode[], edges: EditorEdge[]): EditorEdge[] {
  const outs = new Map(nodes.map((n) => [n.id, new Set(outputsOf(n.type as FlowNodeType, n.data))]));
  return edges.filter((e) => outs.get(e.source)?.has(e.sourceHandle ?? FLOW_HANDLES.next) && outs.has(e.target));
}

const nodeWidth = (n: EditorNode) => n.measured?.width ?? n.width ?? NODE_WIDTH;

/** spec/03 §4: a new node goes right of the last node in the list, at its height, 40 units beyond its width. */
export function newNodePosition(nodes: EditorNode[]): { x: number; y: number } {
  const last = nodes[nodes.length - 1];
  if (!last) return { x: 250, y: 100 };
  return { x: last.position.x + nodeWidth(last) + FLOW_NODE_SPACING, y: last.position.y };
}

export function createNode(type: FlowNodeType, data: Record<string, unknown>, nodes: EditorNode[], random: () => number = Math.random): EditorNode {
  return { id: createFlowNodeId(random), type, position: newNodePosition(nodes), data };
}

/** spec/03 §2, §9: a copy 240 units right of the rightmost node, a new id, unselected. */
export function duplicateNode(node: EditorNode, nodes: EditorNode[], random: () => number = Math.random): EditorNode {
  const maxX = Math.max(...nodes.map((n) => n.position.x));
  return { id: createFlowNodeId(random), type: node.type, position: { x: maxX + FLOW_DUPLICATE_OFFSET, y: node.position.y }, data: structuredClone(node.data), selected: false };
}

/** Removes a node and every edge touching it; the start node stays. */
export function removeNode(nodes: EditorNode[], edges: EditorEdge[], id: string): { nodes: EditorNode[]; edges: EditorEdge[] } {
  if (id === FLOW_START_NODE_ID) return { nodes, edges };
  return { nodes: nodes.filter((n) => n.id !== id), edges: edges.filter((e) => e.source !== id && e.target !== id) };
}

/** A refusal or warning on a node: sync's message, and the `flowbuilder.*` key that words it when there is one. */
export type FlowNote = { message: string; key: string | null; params: Record<string, string> };

export type Check = {
  /** The parsed graph when the schema accepts it (the test panel runs it). */
  graph: FlowGraph | null;
  errors: Map<string, FlowNote[]>;
  warnings: Map<string, FlowNote[]>;
  /** Refusals that name no node (no start node at all…). */
  general: FlowNote[];
};

const add = (m: Map<string, FlowNote[]>, id: string, note: FlowNote) => m.set(id, [...(m.get(id) ?? []), note]);

/** sync's schema messages, worded: the dialogs' rules, then the graph's own (edges, start node). */
export function errorNote(message: string): FlowNote {
  const rule = ruleKey(message);
  if (rule !== 'invalid') return { message, key: `rules.${rule}`, params: {} };
  const patterns: [RegExp, string][] = [
    [/nothing may leave a \w+ node/, 'graph.nothingLeaves'],
    [/Two edges leave output "([^"]+)"/, 'graph.twoEdges'],
    [/leaves output "([^"]+)" of node/, 'graph.noSuchOutput'],
    [/goes to a missing node|leaves a missing node/, 'graph.missingNode'],
    [/The flow has no start node/, 'graph.noStart'],
  ];
  for (const [re, key] of patterns) {
    const m = re.exec(message);
    if (m) return { message, key, params: { handle: m[1] ?? '' } };
  }
  return { message, key: null, params: {} };
}

function warningNote(w: FlowWarning): FlowNote {
  const key = /"([^"]+)"/.exec(w.message)?.[1] ?? '';
  return { message: w.message, key: `warnings.${w.code}`, params: { handle: w.handle ?? '', key } };
}

/** flowSaveSchema's refusals and lintFlow's warnings, each at the node it is about (an edge's at its source). */
export function checkFlow(idFlow: number, nodes: EditorNode[], edges: EditorEdge[]): Check {
  const body = { idFlow, ...fromEditor(nodes, edges) };
  const parsed = flowSaveSchema.safeParse(body);
  const errors = new Map<string, FlowNote[]>();
  const warnings = new Map<string, FlowNote[]>();
  const general: FlowNote[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [list, index] = issue.path;
      const at = typeof index === 'number' ? (list === 'nodes' ? nodes[index]?.id : list === 'connections' ? edges[index]?.source : undefined) : undefined;
      if (at) add(errors, at, errorNote(issue.message));
      else general.push(errorNote(issue.message));
    }
    return { graph: null, errors, warnings, general };
  }
  for (const w of lintFlow(parsed.data.graph)) add(warnings, w.nodeId, warningNote(w));
  return { graph: parsed.data.graph, errors, warnings, general };
}

/** spec/03 §4: the answer-variable list is rebuilt on load from every question's answerKey. */
export function answerKeysOf(nodes: EditorNode[]): string[] {
  const keys = nodes.filter((n) => n.type === 'question').map((n) => String((n.data.typebotIntegration as { answerKey?: unknown } | undefined)?.answerKey ?? '').trim());
  return [...new Set(keys.filter(Boolean))];
}

/** spec/03 §4: a question save drops the old name (on edit) and any duplicate, then adds the new one. */
export function updateAnswerKeys(list: string[], oldKey: string | null, newKey: string): string[] {
  return [...list.filter((k) => k !== oldKey && k !== newKey), newKey];
}
