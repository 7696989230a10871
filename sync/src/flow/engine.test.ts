import { describe, expect, it } from 'vitest';
import { step } from './engine.ts';
import { buildFlow, converse, makeCtx, NOW, seeded, texts, types, type NodeSpec } from './fixtures/build.ts';
import { createFlowGraph, flowGraphSchema } from './graph.ts';
import { createFlowState, flowStateSchema, type FlowAction } from './state.ts';

const at = (sec: number) => new Date(NOW.getTime() + sec * 1000).toISOString();
const menuData = (over: object = {}) => ({ message: 'Olá {{firstName}}, escolha:', arrayOption: [{ number: 1, value: 'Vendas' }, { number: 2, value: 'Suporte técnico' }], ...over });

describe('step: following the drawn edges', () => {
  it('runs along the edges, not the order of the node or edge lists', () => {
    // Listed backwards; drawn 1 → c → a → b.
    const flow = buildFlow(
      [['b', 'message', { label: 'third' }], ['a', 'message', { label: 'second' }], ['c', 'message', { label: 'first' }], ['1', 'start']],
      [['a', 'b'], ['c', 'a'], ['1', 'c']],
    );
    const c = converse(flow);
    const actions = c.start();
    expect(texts(actions)).toEqual(['first', 'second', 'third']);
    expect(actions.at(-1)).toEqual({ type: 'end', reason: 'completed' });
    expect(c.state).toMatchObject({ nodeId: 'b', finished: true, awaiting: null, timer: null });
  });

  it('ends at once when nothing leaves the start node', () => {
    expect(converse(createFlowGraph()).start()).toEqual([{ type: 'end', reason: 'completed' }]);
  });

  it('renders texts with the shared template renderer: contact fields, aliases, flow variables first', () => {
    const flow = buildFlow([['1', 'start'], ['m', 'message', { label: '{{ms}}, {primeiro-nome}! {{nome}} {email} pedido {{pedido}} {{unknown}}' }]], [['1', 'm']]);
    const c = converse(flow, makeCtx(), createFlowState({ pedido: '42', firstName: 'Aninha' }));
    expect(texts(c.start())).toEqual(['Boa tarde, Aninha! Ana Lima ana@example.com pedido 42 {{unknown}}']);
  });

  it('does not change the state it is given and answers the same to the same input', () => {
    const flow = buildFlow([['1', 'start'], ['q', 'question', { typebotIntegration: { message: 'Nome?', answerKey: 'nome' } }]], [['1', 'q']]);
    const waiting = step(flow, createFlowState({ a: '1' }), { type: 'start' }, makeCtx()).state;
    const frozen = structuredClone(waiting);
    const r1 = step(flow, Object.freeze(waiting), { type: 'inbound', text: 'Bia' }, makeCtx());
    const r2 = step(flow, waiting, { type: 'inbound', text: 'Bia' }, makeCtx());
    expect(waiting).toEqual(frozen);
    expect(r1).toEqual(r2);
    expect(r1.state.variables).toEqual({ a: '1', nome: 'Bia' });
  });
});

describe('message, img, audio, video', () => {
  it('sends texts and media in the drawn order', () => {
    const flow = buildFlow(
      [['1', 'start'], ['t', 'message', { label: 'Veja' }], ['i', 'img', { url: 'a.png', caption: 'Para {{firstName}}' }], ['au', 'audio', { url: 'b.mp3', record: true }], ['v', 'video', { url: 'c.mp4' }]],
      [['1', 't'], ['t', 'i'], ['i', 'au'], ['au', 'v']],
    );
    expect(converse(flow).start()).toEqual([
      { type: 'sendText', nodeId: 't', text: 'Veja' },
      { type: 'sendMedia', nodeId: 'i', mediaType: 'image', url: 'a.png', caption: 'Para Ana' },
      { type: 'sendMedia', nodeId: 'au', mediaType: 'audio', url: 'b.mp3', record: true },
      { type: 'sendMedia', nodeId: 'v', mediaType: 'video', url: 'c.mp4' },
      { type: 'end', reason: 'completed' },
    ]);
  });
});

describe('interval', () => {
  const flow = buildFlow([['1', 'start'], ['a', 'message', { label: 'antes' }], ['w', 'interval', { sec: 30 }], ['b', 'message', { label: 'depois' }]], [['1', 'a'], ['a', 'w'], ['w', 'b']]);

  it('becomes a timer and resumes on it, once', () => {
    const c = converse(flow);
    expect(c.start()).toEqual([{ type: 'sendText', nodeId: 'a', text: 'antes' }, { type: 'setTimer', nodeId: 'w', id: 'w#1', at: at(30) }]);
    expect(c.state.timer).toEqual({ id: 'w#1', nodeId: 'w', at: at(30), purpose: 'interval' });
    expect(c.say('oi?')).toEqual([]); // not an answer: the flow is waiting on time
    expect(c.send({ type: 'timer', timerId: 'w#0' })).toEqual([]); // not the pending timer
    const timer = c.state.timer!;
    expect(texts(c.fire())).toEqual(['depois']);
    expect(c.send({ type: 'timer', timerId: timer.id })).toEqual([]); // fired twice: nothing more
    expect(c.state.finished).toBe(true);
  });

  it('resumes from a state stored as JSON and read back (a restart)', () => {
    const c = converse(flow);
    c.start();
    const stored = flowStateSchema.parse(JSON.parse(JSON.stringify(c.state)));
    const r = step(flow, stored, { type: 'timer', timerId: 'w#1' }, makeCtx({ now: new Date(at(31)) }));
    expect(texts(r.actions)).toEqual(['depois']);
  });
});

describe('menu', () => {
  const flow = buildFlow(
    [['1', 'start'], ['m', 'menu', menuData()], ['v', 'message', { label: 'vendas' }], ['s', 'message', { label: 'suporte' }], ['x', 'message', { label: 'inválido' }], ['t', 'message', { label: 'tempo' }]],
    [['1', 'm'], ['m', 'v', 'a1'], ['m', 's', 'a2'], ['m', 'x', 'invalid'], ['m', 't', 'timeout']],
  );

  it('sends numbered options and follows the chosen option by number or by text', () => {
    const c = converse(flow);
    expect(texts(c.start())).toEqual(['Olá Ana, escolha:\n\n1 - Vendas\n2 - Suporte técnico']);
    expect(c.state.awaiting).toEqual({ kind: 'menu', nodeId: 'm', invalidCount: 0 });
    expect(texts(c.say(' 2. '))).toEqual(['suporte']);
    for (const answer of ['1', '1)', 'VENDAS', 'vendas ']) expect(texts((() => { const d = converse(flow); d.start(); return d.say(answer); })())).toEqual(['vendas']);
    const d = converse(flow);
    d.start();
    expect(texts(d.say('suporte   TECNICO'))).toEqual(['suporte']);
  });

  it('answers every invalid choice with the invalid message and the menu, then takes the invalid path', () => {
    const c = converse(flow);
    c.start();
    const menu = 'Olá Ana, escolha:\n\n1 - Vendas\n2 - Suporte técnico';
    expect(texts(c.say('9'))).toEqual(['Opção inválida. Responda com o número de uma das opções abaixo.', menu]);
    expect(c.state.awaiting).toEqual({ kind: 'menu', nodeId: 'm', invalidCount: 1 });
    expect(texts(c.say('quero falar'))).toHaveLength(2);
    expect(texts(c.say(''))).toEqual(['inválido']); // the third invalid answer
    expect(c.state.finished).toBe(true);
  });

  it('keeps re-prompting when no invalid path is drawn; the node may set its own invalid message and limit', () => {
    const open = buildFlow([['1', 'start'], ['m', 'menu', menuData({ invalidMessage: 'Hmm, {{firstName}}?' })], ['v', 'message', { label: 'vendas' }]], [['1', 'm'], ['m', 'v', 'a1']]);
    const c = converse(open);
    c.start();
    for (let i = 1; i <= 5; i++) expect(texts(c.say('x'))[0]).toBe('Hmm, Ana?');
    expect(c.state.awaiting).toMatchObject({ invalidCount: 5 });
    expect(texts(c.say('1'))).toEqual(['vendas']);
    const quick = converse(flow, makeCtx({ maxInvalid: 1 }));
    quick.start();
    expect(texts(quick.say('x'))).toEqual(['inválido']);
  });

  it('times out along the timeout path; an answer cancels the timer, an invalid one restarts it', () => {
    const c = converse(flow);
    expect(c.start().filter((a) => a.type === 'setTimer')).toEqual([{ type: 'setTimer', nodeId: 'm', id: 'm#1', at: at(300) }]);
    expect(c.say('x').filter((a) => a.type !== 'sendText')).toEqual([{ type: 'cancelTimer', id: 'm#1' }, { type: 'setTimer', nodeId: 'm', id: 'm#2', at: at(300) }]);
    expect(texts(c.fire())).toEqual(['tempo']);
    const d = converse(flow);
    d.start();
    expect(d.say('1')).toEqual([{ type: 'cancelTimer', id: 'm#1' }, { type: 'sendText', nodeId: 'v', text: 'vendas' }, { type: 'end', reason: 'completed' }]);
    const noTimeout = buildFlow([['1', 'start'], ['m', 'menu', menuData({ timeoutSec: 60 })]], [['1', 'm']]);
    expect(types(converse(noTimeout).start())).toEqual(['sendText']); // no timeout path: no timer
    const custom = buildFlow([['1', 'start'], ['m', 'menu', menuData({ timeoutSec: 60 })], ['t', 'message', { label: 'tempo' }]], [['1', 'm'], ['m', 't', 'timeout']]);
    expect(converse(custom).start().at(-1)).toEqual({ type: 'setTimer', nodeId: 'm', id: 'm#1', at: at(60) });
  });

  it('ends where a valid option is not drawn on', () => {
    const partial = buildFlow([['1', 'start'], ['m', 'menu', menuData()]], [['1', 'm']]);
    const c = converse(partial);
    c.start();
    expect(c.say('2')).toEqual([{ type: 'end', reason: 'completed' }]);
  });
});

describe('question', () => {
  const q = (id: string, key: string, message = `${key}?`) => [id, 'question', { typebotIntegration: { message, answerKey: key } }] as NodeSpec;
  const flow = buildFlow(
    [['1', 'start'], q('q1', 'nome', 'Qual seu nome?'), q('q2', 'cidade', 'De onde, {{nome}}?'), ['m', 'message', { label: '{{nome}} de {{cidade}} ({{origem}})' }]],
    [['1', 'q1'], ['q1', 'q2'], ['q2', 'm']],
  );

  it('stores each answer under its answerKey, merging with what is known', () => {
    const c = converse(flow, makeCtx(), createFlowState({ origem: 'site' }));
    expect(texts(c.start())).toEqual(['Qual seu nome?']);
    expect(c.state.awaiting).toEqual({ kind: 'question', nodeId: 'q1', invalidCount: 0 });
    expect(texts(c.say('  Bia  '))).toEqual(['De onde, Bia?']);
    expect(texts(c.say('Recife'))).toEqual(['Bia de Recife (site)']);
    expect(c.state.variables).toEqual({ origem: 'site', nome: 'Bia', cidade: 'Recife' });
  });

  it('keeps earlier answers when the flow runs again, and overwrites only the key answered', () => {
    const c = converse(flow);
    c.start();
    c.say('Bia');
    c.say('Recife');
    c.start();
    c.say('Beatriz');
    expect(c.state.variables).toEqual({ nome: 'Beatriz', cidade: 'Recife' });
  });

  it('takes a media answer as its file, and follows the timeout path when drawn', () => {
    const c = converse(flow);
    c.start();
    c.send({ type: 'inbound', media: { url: 'doc-1.pdf', name: 'rg.pdf' } });
    expect(c.state.variables.nome).toBe('doc-1.pdf');
    const timed = buildFlow([['1', 'start'], ['q', 'question', { typebotIntegration: { message: 'Nome?', answerKey: 'nome', timeoutSec: 90 } }], ['t', 'message', { label: 'sem resposta' }]], [['1', 'q'], ['q', 't', 'timeout']]);
    const d = converse(timed);
    expect(d.start().at(-1)).toEqual({ type: 'setTimer', nodeId: 'q', id: 'q#1', at: at(90) });
    expect(texts(d.fire())).toEqual(['sem resposta']);
    expect(d.state.variables).toEqual({});
  });
});

describe('condition', () => {
  const flow = (key: string, condition: string, value: string) =>
    buildFlow([['1', 'start'], ['c', 'condition', { key, condition, value }], ['y', 'message', { label: 'sim' }], ['n', 'message', { label: 'não' }]], [['1', 'c'], ['c', 'y', 'true'], ['c', 'n', 'false']]);
  const branch = (key: string, condition: string, value: string, variables: Record<string, string> = {}) => texts(converse(flow(key, condition, value), makeCtx(), createFlowState(variables)).start())[0];

  it('compares flow variables and contact fields, rendering the value', () => {
    expect(branch('plano', 'equals', 'OURO', { plano: 'ouro' })).toBe('sim');
    expect(branch('plano', 'equals', 'prata', { plano: 'ouro' })).toBe('não');
    expect(branch('name', 'contains', 'LIMA')).toBe('sim'); // the contact's name
    expect(branch('{{nome}}', 'startsWith', 'ana')).toBe('sim'); // alias, written as a token
    expect(branch('idade', 'greaterOrEqual', '{{minima}}', { idade: '18', minima: '18' })).toBe('sim');
    expect(branch('cidade', 'exists', '', {})).toBe('não');
  });

  it('ends where the chosen branch is not drawn', () => {
    const half = buildFlow([['1', 'start'], ['c', 'condition', { key: 'x', condition: 'exists', value: '' }], ['y', 'message', { label: 'sim' }]], [['1', 'c'], ['c', 'y', 'true']]);
    expect(converse(half).start()).toEqual([{ type: 'end', reason: 'completed' }]);
  });
});

describe('content (singleBlock)', () => {
  const flow = buildFlow(
    [['1', 'start'], ['c', 'singleBlock', {
      seq: ['message0', 'interval1', 'img2', 'audio3', 'video4', 'message5'],
      elements: [
        { number: 'img2', value: 'f.png', original: 'foto.png' }, { number: 'message0', value: 'Olá {{firstName}}' }, { number: 'interval1', value: '3' },
        { number: 'audio3', value: 'a.ogg', original: 'voz.ogg', record: true }, { number: 'video4', value: 'v.mp4' }, { number: 'message5', value: 'fim' },
      ],
    }], ['n', 'message', { label: 'depois' }]],
    [['1', 'c'], ['c', 'n']],
  );

  it('sends its texts, waits and media in seq order, then goes on', () => {
    const c = converse(flow);
    expect(c.start()).toEqual([{ type: 'sendText', nodeId: 'c', text: 'Olá Ana' }, { type: 'setTimer', nodeId: 'c', id: 'c#1', at: at(3) }]);
    expect(c.state.timer).toMatchObject({ purpose: 'content', index: 2 });
    expect(c.fire()).toEqual([
      { type: 'sendMedia', nodeId: 'c', mediaType: 'image', url: 'f.png', name: 'foto.png' },
      { type: 'sendMedia', nodeId: 'c', mediaType: 'audio', url: 'a.ogg', name: 'voz.ogg', record: true },
      { type: 'sendMedia', nodeId: 'c', mediaType: 'video', url: 'v.mp4' },
      { type: 'sendText', nodeId: 'c', text: 'fim' },
      { type: 'sendText', nodeId: 'n', text: 'depois' },
      { type: 'end', reason: 'completed' },
    ]);
  });
});

describe('randomizer', () => {
  const flow = (percent: number) =>
    buildFlow([['1', 'start'], ['r', 'randomizer', { percent }], ['a', 'message', { label: 'A' }], ['b', 'message', { label: 'B' }]], [['1', 'r'], ['r', 'a', 'a'], ['r', 'b', 'b']]);

  it('splits by percent with the injected random source', () => {
    const random = seeded(42);
    const counts = { A: 0, B: 0 };
    const f = flow(70);
    for (let i = 0; i < 1000; i++) counts[texts(step(f, createFlowState(), { type: 'start' }, makeCtx({ random })).actions)[0] as 'A' | 'B']++;
    expect(counts.A).toBeGreaterThan(660);
    expect(counts.A).toBeLessThan(740);
    expect(counts.A + counts.B).toBe(1000);
    expect(texts(converse(f, makeCtx({ random: () => 0.69 })).start())).toEqual(['A']);
    expect(texts(converse(f, makeCtx({ random: () => 0.7 })).start())).toEqual(['B']);
    expect(texts(converse(flow(0), makeCtx({ random: () => 0 })).start())).toEqual(['B']);
    expect(texts(converse(flow(100), makeCtx({ random: () => 0.999 })).start())).toEqual(['A']);
  });
});

describe('ticket', () => {
  it('moves the conversation to the queue, hands it over to people and ends the flow', () => {
    const flow = buildFlow([['1', 'start'], ['t', 'ticket', { queue: { id: 4, name: 'Financeiro' } }]], [['1', 't']]);
    const c = converse(flow);
    expect(c.start()).toEqual([{ type: 'moveToQueue', nodeId: 't', queueId: 4, queueName: 'Financeiro' }, { type: 'handOver', nodeId: 't' }, { type: 'end', reason: 'handover' }]);
    expect(c.state).toMatchObject({ finished: true, nodeId: 't' });
    expect(c.say('oi')).toEqual([]); // a finished flow answers nothing but start
  });
});

describe('typebot and openai', () => {
  const openai = { typebotIntegration: { name: 'Bot', apiKey: 'k', prompt: 'p' } };
  const flow = buildFlow(
    [['1', 'start'], ['ai', 'openai', openai], ['tb', 'typebot', { typebotIntegration: { id: 3, name: 'Typebot' } }], ['ok', 'message', { label: 'ok {{resumo}}' }], ['nc', 'message', { label: 'sem IA' }], ['f', 'message', { label: 'falhou' }]],
    [['1', 'ai'], ['ai', 'ok'], ['ai', 'nc', 'notConfigured'], ['ai', 'f', 'failed']],
  );

  it('takes the notConfigured path (or ends) when no adapter is configured', () => {
    const actions = converse(flow).start();
    expect(actions[0]).toEqual({ type: 'error', code: 'not_configured', nodeId: 'ai', message: 'The openai integration is not configured' });
    expect(texts(actions)).toEqual(['sem IA']);
    const bare = buildFlow([['1', 'start'], ['tb', 'typebot', { typebotIntegration: { id: 3 } }]], [['1', 'tb']]);
    expect(types(converse(bare, makeCtx({ adapters: { openai: true } })).start())).toEqual(['error', 'end']);
    // The typebot adapter, once there, is asked the same way.
    const tb = converse(bare, makeCtx({ adapters: { typebot: true } }));
    expect(tb.start()).toEqual([{ type: 'askExternal', nodeId: 'tb', kind: 'typebot', integration: { id: 3 }, variables: {} }]);
    expect(tb.send({ type: 'external', nodeId: 'tb', outcome: 'done' })).toEqual([{ type: 'end', reason: 'completed' }]);
  });

  it('asks the adapter, waits for its report, merges its variables and goes on', () => {
    const c = converse(flow, makeCtx({ adapters: { openai: true } }), createFlowState({ nome: 'Bia' }));
    expect(c.start()).toEqual([{ type: 'askExternal', nodeId: 'ai', kind: 'openai', integration: expect.objectContaining({ name: 'Bot', voice: 'texto' }), variables: { nome: 'Bia' } }]);
    expect(c.state.awaiting).toEqual({ kind: 'external', nodeId: 'ai', adapter: 'openai' });
    expect(c.say('pergunta para a IA')).toEqual([]); // the adapter has the conversation
    expect(c.send({ type: 'external', nodeId: 'tb', outcome: 'done' })).toEqual([]); // not the node waited on
    expect(texts(c.send({ type: 'external', nodeId: 'ai', outcome: 'done', variables: { resumo: 'troca' } }))).toEqual(['ok troca']);
    expect(c.state.variables).toEqual({ nome: 'Bia', resumo: 'troca' });
    const d = converse(flow, makeCtx({ adapters: { openai: true } }));
    d.start();
    const failed = d.send({ type: 'external', nodeId: 'ai', outcome: 'failed' });
    expect(failed[0]).toMatchObject({ type: 'error', code: 'external_failed' });
    expect(texts(failed)).toEqual(['falhou']);
  });
});

describe('limits and endings', () => {
  it('cuts a loop without a waiting node at the step cap, sending nothing from that event', () => {
    const flow = buildFlow([['1', 'start'], ['a', 'message', { label: 'a' }], ['b', 'message', { label: 'b' }]], [['1', 'a'], ['a', 'b'], ['b', 'a']]);
    const c = converse(flow);
    const actions = c.start();
    expect(actions).toEqual([
      { type: 'error', code: 'loop', nodeId: expect.any(String), message: 'More than 50 steps in one event: the flow loops without a node that waits (menu, question, interval)' },
      { type: 'end', reason: 'error' },
    ]);
    expect(c.state).toMatchObject({ finished: true, timer: null, awaiting: null });
    expect(types(converse(flow, makeCtx({ maxSteps: 5 })).start())).toEqual(['error', 'end']);
  });

  it('keeps the cancel of a timer pending before the looping event', () => {
    const flow = buildFlow(
      [['1', 'start'], ['m', 'menu', menuData()], ['a', 'message', { label: 'a' }], ['b', 'message', { label: 'b' }], ['t', 'message', { label: 't' }]],
      [['1', 'm'], ['m', 'a', 'a1'], ['a', 'b'], ['b', 'a'], ['m', 't', 'timeout']],
    );
    const c = converse(flow);
    c.start();
    expect(types(c.say('1'))).toEqual(['cancelTimer', 'error', 'end']);
  });

  it('lets a loop through a node that waits go round', () => {
    const flow = buildFlow([['1', 'start'], ['m', 'menu', menuData()], ['a', 'message', { label: 'de novo' }]], [['1', 'm'], ['m', 'a', 'a1'], ['a', 'm']]);
    const c = converse(flow);
    c.start();
    for (let i = 0; i < 60; i++) expect(texts(c.say('1'))[0]).toBe('de novo');
    expect(c.state.finished).toBe(false);
  });

  it('stops mid-wait: the pending timer is cancelled and later events do nothing', () => {
    const flow = buildFlow([['1', 'start'], ['w', 'interval', { sec: 10 }], ['b', 'message', { label: 'depois' }]], [['1', 'w'], ['w', 'b']]);
    const c = converse(flow);
    c.start();
    expect(c.send({ type: 'stop' })).toEqual([{ type: 'cancelTimer', id: 'w#1' }, { type: 'end', reason: 'stopped' }]);
    expect(c.state).toMatchObject({ finished: true, timer: null });
    expect(c.send({ type: 'timer', timerId: 'w#1' })).toEqual([]);
    expect(c.send({ type: 'stop' })).toEqual([]);
    const q = buildFlow([['1', 'start'], ['q', 'question', { typebotIntegration: { message: 'Nome?', answerKey: 'nome' } }]], [['1', 'q']]);
    const d = converse(q);
    d.start();
    expect(d.send({ type: 'stop' })).toEqual([{ type: 'end', reason: 'stopped' }]);
    expect(d.state.awaiting).toBeNull();
  });

  it('starts again from a running state, cancelling its timer and keeping its variables', () => {
    const flow = buildFlow([['1', 'start'], ['w', 'interval', { sec: 10 }]], [['1', 'w']]);
    const c = converse(flow, makeCtx(), createFlowState({ x: '1' }));
    c.start();
    expect(c.start()).toEqual([{ type: 'cancelTimer', id: 'w#1' }, { type: 'setTimer', nodeId: 'w', id: 'w#2', at: at(10) }]);
    expect(c.state.variables).toEqual({ x: '1' });
  });

  it('reports an awaited node missing from the flow instead of guessing', () => {
    const flow = buildFlow([['1', 'start']], []);
    const state = { ...createFlowState(), nodeId: 'gone', awaiting: { kind: 'menu' as const, nodeId: 'gone', invalidCount: 0 } };
    const actions: FlowAction[] = step(flow, state, { type: 'inbound', text: '1' }, makeCtx()).actions;
    expect(types(actions)).toEqual(['error', 'end']);
    expect(actions[0]).toMatchObject({ code: 'missing_node', nodeId: 'gone' });
  });

  it('reads the parsed graph only: a graph object may be reused for many conversations', () => {
    const graph = flowGraphSchema.parse(createFlowGraph());
    expect(step(graph, createFlowState(), { type: 'start' }, makeCtx()).actions).toEqual(step(graph, createFlowState(), { type: 'start' }, makeCtx()).actions);
  });
});
