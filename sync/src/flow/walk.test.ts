import { describe, expect, it } from 'vitest';
import { converse, makeCtx, seeded, texts, types } from './fixtures/build.ts';
import editorFlow from './fixtures/support-flow.json';
import { flowGraphSchema } from './graph.ts';
import { createFlowState, flowStateSchema } from './state.ts';

// A support flow as the editor saves it (fixtures/support-flow.json: nodes listed out of order,
// React Flow's extra fields, 30-character ids, `connections`), walked as a customer would.
const flow = flowGraphSchema.parse(editorFlow);
const MENU = 'Como podemos ajudar, Ana?\n\n1 - Comprar\n2 - Suporte técnico\n3 - Falar com um atendente';

describe('a realistic flow from the editor', () => {
  it('option 1: question, condition on the answer, content with a wait, ticket to Vendas', () => {
    const c = converse(flow);
    expect(texts(c.start())).toEqual(['Boa tarde! Bem-vindo à Loja Exemplo.', MENU]);
    expect(texts(c.say('comprar'))).toEqual(['Qual é o seu nome?']);
    const content = c.say('Bia');
    expect(texts(content)).toEqual(['Obrigado, Bia! Veja nossa tabela:']);
    expect(types(content)).toEqual(['sendText', 'setTimer']);
    // The server stores the state between events; it must read back the same.
    c.state = flowStateSchema.parse(JSON.parse(JSON.stringify(c.state)));
    expect(c.fire()).toEqual([
      { type: 'sendMedia', nodeId: expect.any(String), mediaType: 'image', url: '1732791000000-tabela.png', name: 'tabela.png' },
      { type: 'moveToQueue', nodeId: expect.any(String), queueId: 2, queueName: 'Vendas' },
      { type: 'handOver', nodeId: expect.any(String) },
      { type: 'end', reason: 'handover' },
    ]);
    expect(c.state.variables).toEqual({ nomeCliente: 'Bia' });
  });

  it('option 2: image, 5 s interval, randomizer 70/30 to team A or an audio, ticket to Suporte', () => {
    const c = converse(flow, makeCtx({ random: () => 0.2 }));
    c.start();
    const first = c.say('2');
    expect(first.map((a) => a.type)).toEqual(['cancelTimer', 'sendMedia', 'setTimer']);
    expect(first[2]).toMatchObject({ at: '2026-03-02T12:00:05.000Z' });
    expect(c.fire()).toEqual([
      { type: 'sendText', nodeId: expect.any(String), text: 'Você foi direcionado para a equipe A.' },
      { type: 'moveToQueue', nodeId: expect.any(String), queueId: 3, queueName: 'Suporte' },
      { type: 'handOver', nodeId: expect.any(String) },
      { type: 'end', reason: 'handover' },
    ]);
    const b = converse(flow, makeCtx({ random: () => 0.9 }));
    b.start();
    b.say('2');
    expect(b.fire()[0]).toMatchObject({ type: 'sendMedia', mediaType: 'audio', record: true });
    let teamA = 0;
    const random = seeded(2026);
    for (let i = 0; i < 1000; i++) {
      const r = converse(flow, makeCtx({ random }));
      r.start();
      r.say('2');
      if (texts(r.fire()).length === 1) teamA++;
    }
    expect(teamA).toBeGreaterThan(650);
    expect(teamA).toBeLessThan(750);
  });

  it('option 3: the AI node is not configured, so it takes its drawn path to a human', () => {
    const c = converse(flow);
    c.start();
    const actions = c.say('3');
    expect(actions[1]).toMatchObject({ type: 'error', code: 'not_configured' });
    expect(actions.slice(2)).toEqual([
      { type: 'moveToQueue', nodeId: expect.any(String), queueId: 1, queueName: 'Atendimento' },
      { type: 'handOver', nodeId: expect.any(String) },
      { type: 'end', reason: 'handover' },
    ]);
  });

  it('three wrong answers go to a human; silence takes the timeout path', () => {
    const c = converse(flow);
    c.start();
    expect(texts(c.say('7'))).toHaveLength(2);
    expect(texts(c.say('quero ajuda'))).toHaveLength(2);
    expect(c.say('???').find((a) => a.type === 'moveToQueue')).toMatchObject({ queueId: 1 });
    const quiet = converse(flow);
    quiet.start();
    expect(texts(quiet.fire())).toEqual(['Não recebemos sua resposta. Até logo!']);
    expect(quiet.state.finished).toBe(true);
  });

  it('a customer without a name takes the condition\'s false branch', () => {
    const c = converse(flow, makeCtx(), createFlowState());
    c.start();
    c.say('1');
    expect(texts(c.say('   '))).toEqual(['Sem nome, tudo bem.']);
  });
});
