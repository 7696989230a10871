import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLOW_DUPLICATE_OFFSET, FLOW_HANDLES, FLOW_NODE_SPACING, flowSaveSchema, type FlowNodeType } from '@zapdesk/sync';
import { answerKeysOf, checkFlow, connect, createNode, duplicateNode, edgeOf, fromEditor, NODE_WIDTH, outputsOf, pruneEdges, removeNode, toEditor, updateAnswerKeys, type EditorNode } from './flow-graph.ts';

// A flow as the editor of the spec saved it (sync's fixture: 17 nodes of every kind, 19 edges, an
// older ticket shape, null and 'a' single outputs).
const saved = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../../sync/src/flow/fixtures/support-flow.json'), 'utf8')) as { nodes: unknown[]; connections: unknown[] };
const node = (id: string, type: FlowNodeType, data: Record<string, unknown> = {}, x = 0, y = 0): EditorNode => ({ id, type, position: { x, y }, data });

describe('a saved flow to React Flow and back', () => {
  const g = toEditor(saved);

  it('draws every node and every edge, each edge leaving an output its node draws', () => {
    expect(g.nodes).toHaveLength(17);
    expect(g.edges).toHaveLength(19);
    for (const e of g.edges) {
      const source = g.nodes.find((n) => n.id === e.source)!;
      expect(outputsOf(source.type as FlowNodeType, source.data), `${source.type} ${e.sourceHandle}`).toContain(e.sourceHandle);
    }
    expect(g.edges.every((e) => e.type === 'buttonedge')).toBe(true);
  });

  it('keeps the start node undeletable and adds one to a flow never drawn', () => {
    expect(g.nodes.find((n) => n.id === '1')).toMatchObject({ type: 'start', deletable: false });
    const fresh = toEditor(null);
    expect(fresh.nodes).toEqual([expect.objectContaining({ id: '1', type: 'start', position: { x: 250, y: 100 }, data: { label: 'Inicio do fluxo' } })]);
    expect(toEditor({ nodes: null, connections: null }).nodes).toHaveLength(1);
  });

  it('reads single outputs saved as null or absent as "a", and content as singleBlock', () => {
    const g2 = toEditor({ nodes: [{ id: '1', type: 'start', position: { x: 0, y: 0 }, data: {} }, { id: 'c', type: 'content', position: { x: 1, y: 1 }, data: { seq: [], elements: [] } }], connections: [{ source: '1', target: 'c', sourceHandle: null }] });
    expect(g2.nodes[1]!.type).toBe('singleBlock');
    expect(g2.edges[0]!.sourceHandle).toBe('a');
  });

  it('saves what flowSaveSchema accepts, the same graph, without the view state', () => {
    const body = { idFlow: 7, ...fromEditor(g.nodes.map((n) => ({ ...n, selected: true, dragging: false })), g.edges) };
    const parsed = flowSaveSchema.safeParse(body);
    expect(parsed.success).toBe(true);
    const ends = (edges: { source: string; target: string; sourceHandle?: string | null }[]) => edges.map((e) => `${e.source}>${e.sourceHandle ?? 'a'}>${e.target}`).sort();
    expect(ends(body.connections as never)).toEqual(ends(saved.connections as never));
    expect(body.nodes.some((n) => 'selected' in (n as object) || 'dragging' in (n as object))).toBe(false);
  });
});

describe('outputs', () => {
  it('are exactly the engine handles of each node type', () => {
    expect(outputsOf('menu', { arrayOption: [{ number: 1, value: 'A' }, { number: 2, value: 'B' }] })).toEqual([FLOW_HANDLES.menuOption(1), 'a2', 'invalid', 'timeout']);
    expect(outputsOf('condition', {})).toEqual(['true', 'false']);
    expect(outputsOf('randomizer', { percent: 50 })).toEqual(['a', 'b']);
    expect(outputsOf('question', {})).toEqual(['a', 'timeout']);
    expect(outputsOf('typebot', {})).toEqual(['a', 'notConfigured', 'failed']);
    expect(outputsOf('openai', {})).toEqual(['a', 'notConfigured', 'failed']);
    expect(outputsOf('ticket', {})).toEqual([]);
    for (const t of ['start', 'message', 'interval', 'img', 'audio', 'video', 'singleBlock'] as const) expect(outputsOf(t, {})).toEqual(['a']);
  });

  it('a menu mid-edit (options missing) still draws invalid and timeout', () => {
    expect(outputsOf('menu', {})).toEqual(['invalid', 'timeout']);
  });
});

describe('editing', () => {
  const nodes = [node('1', 'start', {}, 250, 100), node('m', 'menu', { arrayOption: [{ number: 1, value: 'A' }, { number: 2, value: 'B' }] }, 600, 300)];

  it('connecting an output replaces the edge that left it; a node does not connect to itself', () => {
    let edges = connect([], 'm', 'a1', '1');
    edges = connect(edges, 'm', 'a1', 'x');
    expect(edges).toEqual([edgeOf('m', 'x', 'a1')]);
    expect(connect(edges, 'm', 'a2', 'm')).toBe(edges);
    expect(connect([], '1', null, 'm')[0]!.sourceHandle).toBe('a');
  });

  it('an option removed in the dialog takes its edge with it', () => {
    const edges = [edgeOf('m', '1', 'a1'), edgeOf('m', '1', 'a2'), edgeOf('m', '1', 'invalid')];
    const edited = [nodes[0]!, { ...nodes[1]!, data: { arrayOption: [{ number: 1, value: 'A' }] } }];
    expect(pruneEdges(edited, edges).map((e) => e.sourceHandle)).toEqual(['a1', 'invalid']);
  });

  it('places a new node right of the last one, 40 beyond its width, at its height (spec/03 §4)', () => {
    expect(createNode('message', { label: 'x' }, nodes).position).toEqual({ x: 600 + NODE_WIDTH + FLOW_NODE_SPACING, y: 300 });
    const measured = [{ ...nodes[1]!, measured: { width: 300, height: 100 } }];
    expect(createNode('message', {}, measured).position.x).toBe(600 + 300 + FLOW_NODE_SPACING);
    expect(createNode('message', {}, nodes).id).toMatch(/^[A-Za-z0-9]{30}$/);
  });

  it('duplicates right of the rightmost node with a new id, unselected, its data copied (spec/03 §2, §9)', () => {
    const copy = duplicateNode({ ...nodes[1]!, selected: true }, nodes);
    expect(copy.position).toEqual({ x: 600 + FLOW_DUPLICATE_OFFSET, y: 300 });
    expect(copy.id).not.toBe('m');
    expect(copy.selected).toBe(false);
    expect(copy.data).toEqual(nodes[1]!.data);
    expect(copy.data).not.toBe(nodes[1]!.data);
  });

  it('removing a node removes every edge touching it; the start node stays', () => {
    const edges = [edgeOf('1', 'm', 'a'), edgeOf('m', '1', 'a1')];
    expect(removeNode(nodes, edges, 'm')).toEqual({ nodes: [nodes[0]], edges: [] });
    expect(removeNode(nodes, edges, '1').nodes).toHaveLength(2);
  });
});

describe('the check before a save', () => {
  it('puts refusals on the node at fault, an edge refusal on its source node', () => {
    const nodes = [node('1', 'start'), node('i', 'interval', { sec: 130 }), node('t', 'ticket', { queueId: 2 }), node('m', 'message', { label: 'oi' })];
    const edges = [edgeOf('1', 'i', 'a'), edgeOf('t', 'm', 'a')];
    const check = checkFlow(7, nodes, edges);
    expect(check.graph).toBeNull();
    expect(check.errors.get('i')).toEqual([{ message: 'Máximo de tempo atingido 120 segundos', key: 'rules.intervalMax', params: {} }]);
    expect(check.errors.get('t')?.[0]).toMatchObject({ message: expect.stringMatching(/nothing may leave a ticket node/), key: 'graph.nothingLeaves' });
  });

  it('passes a drawable graph with the lint warnings on their nodes', () => {
    const nodes = [node('1', 'start'), node('m', 'menu', { message: 'Oi', arrayOption: [{ number: 1, value: 'A' }, { number: 2, value: 'B' }] }), node('lost', 'message', { label: 'sozinho' })];
    const check = checkFlow(7, nodes, [edgeOf('1', 'm', 'a'), edgeOf('m', '1', 'a1')]);
    expect(check.graph).not.toBeNull();
    expect(check.errors.size).toBe(0);
    expect(check.warnings.get('lost')?.[0]).toMatchObject({ key: 'warnings.unreachable', message: expect.stringMatching(/No path from the start/) });
    expect(check.warnings.get('m')?.[0]).toMatchObject({ key: 'warnings.unconnected_output', params: { handle: 'a2' } });
  });

  it('says so when there is no start node at all', () => {
    expect(checkFlow(7, [node('m', 'message', { label: 'x' })], []).general).toEqual([{ message: 'The flow has no start node', key: 'graph.noStart', params: { handle: '' } }]);
  });

  it('words two edges from one output and an answer name used twice', () => {
    const q = (id: string) => node(id, 'question', { typebotIntegration: { message: '?', answerKey: 'nome' } });
    const two = checkFlow(7, [node('1', 'start'), q('a'), q('b')], [edgeOf('1', 'a', 'a'), { ...edgeOf('1', 'b', 'a'), id: 'other' }, edgeOf('a', 'b', 'a')]);
    expect(two.errors.get('1')?.[0]).toMatchObject({ key: 'graph.twoEdges', params: { handle: 'a' } });
    const dup = checkFlow(7, [node('1', 'start'), q('a'), q('b')], [edgeOf('1', 'a', 'a'), edgeOf('a', 'b', 'a')]);
    expect(dup.warnings.get('b')?.[0]).toMatchObject({ key: 'warnings.duplicate_answer_key', params: { key: 'nome' } });
  });
});

describe('the answer-variable list (spec/03 §4)', () => {
  it('is rebuilt from the questions on load, each name once', () => {
    const q = (id: string, answerKey: string) => node(id, 'question', { typebotIntegration: { message: '?', answerKey } });
    expect(answerKeysOf([q('a', 'nome'), q('b', 'email'), q('c', 'nome'), node('d', 'message', { label: 'x' })])).toEqual(['nome', 'email']);
  });

  it('drops the old name on edit and any duplicate, then adds the new one', () => {
    expect(updateAnswerKeys(['nome', 'email'], 'nome', 'cidade')).toEqual(['email', 'cidade']);
    expect(updateAnswerKeys(['nome', 'email'], null, 'nome')).toEqual(['email', 'nome']);
  });
});
