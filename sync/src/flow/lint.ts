import { edgeHandle, FLOW_HANDLES, type FlowGraph } from './graph.ts';
import type { FlowNode } from './nodes.ts';

// What the editor shows on the nodes before a save (issue 15's validation): a graph the schema
// accepts may still be drawn in a way nobody meant. These are warnings: the flow runs as drawn (an
// output drawn to nowhere ends the flow there), but the person drawing should see them.

export type FlowWarningCode = 'unreachable' | 'unconnected_output' | 'duplicate_answer_key' | 'loop_without_wait';
export type FlowWarning = { code: FlowWarningCode; nodeId: string; handle?: string; message: string };

/** Nodes that stop an event (wait for time, an answer or an adapter), so a cycle through one is fine. */
function waits(node: FlowNode): boolean {
  if (node.type === 'singleBlock') return node.data.elements.some((e) => e.number.startsWith('interval') || e.type === 'interval');
  return node.type === 'interval' || node.type === 'menu' || node.type === 'question' || node.type === 'typebot' || node.type === 'openai';
}

export function lintFlow(graph: FlowGraph): FlowWarning[] {
  const warnings: FlowWarning[] = [];
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const out = new Map<string, { handle: string; target: string }[]>();
  for (const e of graph.edges) out.set(e.source, [...(out.get(e.source) ?? []), { handle: edgeHandle(e), target: e.target }]);
  const drawn = (id: string, handle: string) => (out.get(id) ?? []).some((e) => e.handle === handle);

  // Reachable from the start node.
  const seen = new Set<string>();
  const stack = graph.nodes.filter((n) => n.type === 'start').map((n) => n.id);
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const e of out.get(id) ?? []) stack.push(e.target);
  }
  for (const n of graph.nodes) if (!seen.has(n.id)) warnings.push({ code: 'unreachable', nodeId: n.id, message: 'No path from the start reaches this node' });

  // Outputs that choose a way and lead nowhere.
  for (const n of graph.nodes) {
    const required =
      n.type === 'menu' ? n.data.arrayOption.map((o) => FLOW_HANDLES.menuOption(o.number))
      : n.type === 'condition' ? [FLOW_HANDLES.conditionTrue, FLOW_HANDLES.conditionFalse]
      : n.type === 'randomizer' ? [...(n.data.percent > 0 ? [FLOW_HANDLES.randomA] : []), ...(n.data.percent < 100 ? [FLOW_HANDLES.randomB] : [])]
      : [];
    for (const handle of required) {
      if (!drawn(n.id, handle)) warnings.push({ code: 'unconnected_output', nodeId: n.id, handle, message: `Output ${handle} is not connected: the flow ends there` });
    }
  }

  // One answer name per question (spec/03 §4 keeps the list of answer variables unique).
  const keys = new Map<string, string>();
  for (const n of graph.nodes) {
    if (n.type !== 'question') continue;
    const key = n.data.typebotIntegration.answerKey;
    if (keys.has(key)) warnings.push({ code: 'duplicate_answer_key', nodeId: n.id, message: `Answer name "${key}" is also used by node ${keys.get(key)}` });
    else keys.set(key, n.id);
  }

  // Cycles through nodes that never wait: the engine cuts them at its step cap.
  const state = new Map<string, 'open' | 'done'>();
  const flagged = new Set<string>();
  const visit = (id: string, path: string[]): void => {
    state.set(id, 'open');
    for (const e of out.get(id) ?? []) {
      const target = byId.get(e.target);
      if (!target || waits(target)) continue;
      if (state.get(e.target) === 'open') for (const onCycle of path.slice(path.indexOf(e.target))) flagged.add(onCycle);
      else if (!state.has(e.target)) visit(e.target, [...path, e.target]);
    }
    state.set(id, 'done');
  };
  for (const n of graph.nodes) if (!waits(n) && !state.has(n.id)) visit(n.id, [n.id]);
  for (const id of flagged) warnings.push({ code: 'loop_without_wait', nodeId: id, message: 'This node is on a cycle without a menu, question or interval: the flow would stop as a loop' });

  return warnings;
}
