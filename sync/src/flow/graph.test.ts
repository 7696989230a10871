import { describe, expect, it } from 'vitest';
import editorFlow from './fixtures/support-flow.json';
import { createFlowEdge, createFlowGraph, createFlowNodeId, flowGraphSchema, flowSaveSchema } from './graph.ts';

type Issue = { path: PropertyKey[]; message: string };
const issues = (input: unknown): Issue[] => {
  const r = flowGraphSchema.safeParse(input);
  if (r.success) throw new Error('expected the graph to be refused');
  return r.error.issues.map((i) => ({ path: i.path, message: i.message }));
};
const start = { id: '1', type: 'start', position: { x: 250, y: 100 }, data: { label: 'Inicio do fluxo' } };
const msg = (id: string, label = 'Olá') => ({ id, type: 'message', position: { x: 0, y: 0 }, data: { label } });
const withNodes = (...nodes: object[]) => ({ nodes: [start, ...nodes], connections: [] });

describe('flowGraphSchema: the editor JSON', () => {
  it('parses a flow as the editor saves it, keeping what the editor stores besides', () => {
    const graph = flowGraphSchema.parse(editorFlow);
    expect(graph.nodes).toHaveLength(editorFlow.nodes.length);
    expect(graph.edges).toHaveLength(editorFlow.connections.length);
    const menu = graph.nodes.find((n) => n.type === 'menu');
    expect(menu).toMatchObject({ width: 220, selected: false, data: { arrayOption: [{ number: 1, value: 'Comprar' }, { number: 2 }, { number: 3 }] } });
    expect(graph.edges[0]).toMatchObject({ type: 'buttonedge', style: { strokeWidth: 6 }, animated: false });
    // The queue of an older ticket node ({ data: { id, name } }) is read as queueId and queueName.
    const ticket = graph.nodes.find((n) => n.type === 'ticket' && n.data.queueId === 2);
    expect(ticket?.data).toMatchObject({ queueId: 2, queueName: 'Vendas' });
  });

  it('reads `content` as singleBlock, numbers typed as text, `edges` or `connections`', () => {
    const graph = flowGraphSchema.parse({
      nodes: [start, { id: 'w', type: 'interval', position: { x: '10', y: 0 }, data: { sec: '15' } }, { id: 'c', type: 'content', position: { x: 0, y: 0 }, data: { seq: ['message1'], elements: [{ number: 'message1', value: 'Oi' }] } }],
      edges: [createFlowEdge('1', 'w', 'a'), createFlowEdge('w', 'c')],
    });
    expect(graph.nodes.map((n) => n.type)).toEqual(['start', 'interval', 'singleBlock']);
    expect(graph.nodes[1]).toMatchObject({ position: { x: 10 }, data: { sec: 15 } });
  });

  it('starts a new flow with the start node alone, at (250, 100)', () => {
    expect(flowGraphSchema.parse(createFlowGraph()).nodes).toEqual([start]);
    const id = createFlowNodeId(() => 0.999);
    expect(id).toMatch(/^[A-Za-z0-9]{30}$/);
  });
});

describe('flowGraphSchema: graphs that cannot run as drawn', () => {
  it('names an unknown node type at the node', () => {
    expect(issues(withNodes({ id: 'x', type: 'webhook', position: { x: 0, y: 0 }, data: {} }))).toEqual([
      { path: ['nodes', 1, 'type'], message: expect.stringMatching(/^Unknown node type "webhook"; expected one of start, message/) },
    ]);
  });

  it('needs exactly one start node, with id "1"', () => {
    expect(issues({ nodes: null, connections: null })).toEqual([{ path: ['nodes'], message: 'The flow has no start node' }]);
    expect(issues({ nodes: [msg('a')], connections: [] })).toEqual([{ path: ['nodes'], message: 'The flow has no start node' }]);
    expect(issues(withNodes({ ...start, id: 'zz' }))).toEqual([
      { path: ['nodes', 1, 'type'], message: 'Only one start node may exist (node "zz")' },
      { path: ['nodes', 1, 'id'], message: 'The start node\'s id is "1"' },
    ]);
    expect(issues({ nodes: [{ ...start, id: 'a' }, msg('1')], connections: [] }).map((i) => i.message)).toEqual(['The start node\'s id is "1"', 'Id "1" is the start node\'s']);
    expect(issues(withNodes(msg('a'), msg('a')))).toEqual([{ path: ['nodes', 2, 'id'], message: 'Node id "a" appears twice' }]);
  });

  it('refuses edges to or from a missing node', () => {
    expect(issues({ nodes: [start, msg('a')], connections: [createFlowEdge('1', 'a'), createFlowEdge('a', 'gone'), createFlowEdge('ghost', 'a')] })).toEqual([
      { path: ['edges', 1, 'target'], message: 'Edge reactflow__edge-a-gone goes to a missing node "gone"' },
      { path: ['edges', 2, 'source'], message: 'Edge reactflow__edge-ghost-a leaves a missing node "ghost"' },
    ]);
  });

  it('refuses an output the node does not have, two edges from one output, and anything after a ticket', () => {
    const menu = { id: 'm', type: 'menu', position: { x: 0, y: 0 }, data: { message: 'Escolha', arrayOption: [{ number: 1, value: 'A' }] } };
    const ticket = { id: 't', type: 'ticket', position: { x: 0, y: 0 }, data: { queueId: 1 } };
    const found = issues({
      nodes: [start, menu, msg('a'), msg('b'), ticket],
      connections: [createFlowEdge('1', 'm'), createFlowEdge('m', 'a', 'a1'), createFlowEdge('m', 'b', 'a9'), createFlowEdge('a', 'b'), createFlowEdge('a', 't', 'a'), createFlowEdge('t', 'a')],
    });
    expect(found).toEqual([
      { path: ['edges', 2, 'sourceHandle'], message: 'Edge reactflow__edge-ma9-b leaves output "a9" of node "m": it has a1, invalid, timeout' },
      { path: ['edges', 4], message: 'Two edges leave output "a" of node "a"' },
      { path: ['edges', 5, 'sourceHandle'], message: 'Edge reactflow__edge-t-a leaves output "a" of node "t": nothing may leave a ticket node' },
    ]);
    const cond = { id: 'c', type: 'condition', position: { x: 0, y: 0 }, data: { key: 'x', condition: 'equals', value: '1' } };
    expect(issues({ nodes: [start, cond, msg('a')], connections: [createFlowEdge('c', 'a')] })[0]?.message).toBe('Edge reactflow__edge-c-a leaves output "a" of node "c": it has true, false');
  });

  it('keeps intervals within 120 seconds, in interval nodes and content blocks', () => {
    const interval = (sec: unknown) => ({ id: 'w', type: 'interval', position: { x: 0, y: 0 }, data: { sec } });
    expect(issues(withNodes(interval(121)))).toEqual([{ path: ['nodes', 1, 'data', 'sec'], message: 'Máximo de tempo atingido 120 segundos' }]);
    expect(issues(withNodes(interval(0)))[0]?.message).toBe('Adicione o valor de intervalo');
    expect(issues(withNodes(interval(undefined)))[0]?.message).toBe('Adicione o valor de intervalo');
    expect(flowGraphSchema.safeParse(withNodes(interval(120))).success).toBe(true);
    const content = (elements: object[], seq = elements.map((e) => (e as { number: string }).number)) => ({ id: 'c', type: 'singleBlock', position: { x: 0, y: 0 }, data: { seq, elements } });
    expect(issues(withNodes(content([{ number: 'interval1', value: '0' }, { number: 'interval2', value: '121' }]))).map((i) => i.message)).toEqual([
      'O intervalo não pode ser 0 ou maior que 120',
      'O intervalo não pode ser 0 ou maior que 120',
    ]);
    expect(issues(withNodes(content([{ number: 'message1', value: ' ' }, { number: 'img2', value: '' }]))).map((i) => i.message)).toEqual(['Campos de mensagem vazio!', 'Delete os cards vazios(Imagem, Audio e Video)']);
    expect(issues(withNodes(content([{ number: 'message1', value: 'Oi' }], ['message1', 'audio9'])))).toEqual([{ path: ['nodes', 1, 'data', 'seq', 1], message: 'Content element "audio9" is missing' }]);
  });

  it('checks each node type\'s data with the dialogs\' rules', () => {
    const n = (type: string, data: object) => withNodes({ id: 'n', type, position: { x: 0, y: 0 }, data });
    expect(issues(n('ticket', { queue: { name: 'Sem id' } }))).toEqual([{ path: ['nodes', 1, 'data', 'queueId'], message: 'Adicione uma fila' }]);
    expect(issues(n('menu', { message: 'x', arrayOption: [] }))[0]?.message).toBe('A menu needs at least one option');
    expect(issues(n('menu', { message: 'x', arrayOption: [{ number: 1, value: 'A' }, { number: '1', value: 'B' }] }))[0]).toEqual({ path: ['nodes', 1, 'data', 'arrayOption', 1, 'number'], message: 'Menu option 1 appears twice' });
    expect(issues(n('question', { typebotIntegration: { message: 'Nome?', answerKey: '' } }))[0]?.message).toBe('Salvar resposta is required');
    expect(issues(n('question', { typebotIntegration: { message: 'Nome?', answerKey: 'nome do cliente' } }))[0]?.message).toMatch(/^Salvar resposta: a letter/);
    expect(issues(n('condition', { key: 'x', condition: 'like', value: '1' }))[0]?.message).toMatch(/^Unknown condition operator/);
    expect(issues(n('message', { label: '' }))[0]?.message).toBe('Campos de mensagem vazio!');
    expect(issues(n('img', { url: '' }))[0]?.message).toBe('Delete os cards vazios(Imagem, Audio e Video)');
    expect(issues(n('randomizer', { percent: 110 }))[0]?.path).toEqual(['nodes', 1, 'data', 'percent']);
    expect(issues(n('openai', { typebotIntegration: { name: 'Bot' } })).map((i) => i.path.at(-1))).toEqual(['apiKey', 'prompt']);
    const cond = flowGraphSchema.parse(n('condition', { key: ' idade ', condition: '>=', value: 18 }));
    expect(cond.nodes[1]?.data).toMatchObject({ key: 'idade', condition: 'greaterOrEqual', value: '18' });
    const ai = flowGraphSchema.parse(n('openai', { typebotIntegration: { name: 'Bot', apiKey: 'k', prompt: 'p' } }));
    expect(ai.nodes[1]?.data).toMatchObject({ typebotIntegration: { voice: 'texto', temperature: 1, maxTokens: 100, maxMessages: 10 } });
  });
});

describe('flowSaveSchema (POST /flowbuilder/flow)', () => {
  it('reads idFlow, nodes and connections and reports issues under connections', () => {
    const ok = flowSaveSchema.parse({ idFlow: '7', nodes: [start], connections: [] });
    expect(ok).toEqual({ idFlow: 7, graph: { nodes: [start], edges: [] } });
    const bad = flowSaveSchema.safeParse({ idFlow: 7, nodes: [start], connections: [createFlowEdge('1', 'x')] });
    expect(bad.error?.issues.map((i) => [i.path, i.message])).toEqual([[['connections', 0, 'target'], 'Edge reactflow__edge-1-x goes to a missing node "x"']]);
  });
});
