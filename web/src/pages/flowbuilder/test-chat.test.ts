import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFlowEdge, flowGraphSchema, type FlowGraph } from '@zapdesk/sync';
import { chatReducer, createChat, pendingWait, type Chat, type ChatInput, type ChatLine } from './test-chat.ts';

const support = flowGraphSchema.parse(JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../../sync/src/flow/fixtures/support-flow.json'), 'utf8')));
const opts = { random: () => 0.5, vars: { firstName: 'Maria', name: 'Maria Souza', ms: 'Boa tarde' } };
const play = (graph: FlowGraph, inputs: ChatInput[], o = opts, from: Chat = createChat()) => inputs.reduce((c, input) => chatReducer(c, input, graph, o), from);
const shown = (lines: ChatLine[]) => lines.map((l) => (l.from === 'note' ? `(${l.code}${Object.keys(l.params).length ? ` ${Object.values(l.params).join(' ')}` : ''})` : l.from === 'contact' ? `> ${l.text}` : l.media ? `[${l.media.type} ${l.media.url}] ${l.text}`.trim() : l.text));

describe('the test panel conversation (sync step, fake clock)', () => {
  it('walks the support flow as the contact: an invalid choice, a choice by text, a question, a wait, the queue', () => {
    let chat = play(support, [{ kind: 'start' }]);
    expect(shown(chat.lines)).toEqual(['Boa tarde! Bem-vindo à Loja Exemplo.', 'Como podemos ajudar, Maria?\n\n1 - Comprar\n2 - Suporte técnico\n3 - Falar com um atendente', '(answerWindow 300)']);
    chat = play(support, [{ kind: 'say', text: '9' }, { kind: 'say', text: 'comprar' }, { kind: 'say', text: 'Maria' }], opts, chat);
    expect(shown(chat.lines.slice(3))).toEqual([
      '> 9',
      'Opção inválida. Responda com o número de uma das opções abaixo.',
      'Como podemos ajudar, Maria?\n\n1 - Comprar\n2 - Suporte técnico\n3 - Falar com um atendente',
      '(answerWindow 300)',
      '> comprar',
      'Qual é o seu nome?',
      '> Maria',
      'Obrigado, Maria! Veja nossa tabela:',
      '(wait 2)',
    ]);
    expect(chat.state.variables).toEqual({ nomeCliente: 'Maria' });
    expect(pendingWait(chat)).toBe(2);

    const before = chat.now;
    chat = chatReducer(chat, { kind: 'fireTimer' }, support, opts);
    expect(chat.now - before).toBe(2000);
    expect(shown(chat.lines.slice(12))).toEqual(['[image tabela.png]', '(queue Vendas)', '(handover)', '(end handover)']);
    expect(chat.state.finished).toBe(true);
    expect(pendingWait(chat)).toBeNull();
  });

  it('says the flow is not running before Start and after the end; Start again begins afresh', () => {
    const idle = play(support, [{ kind: 'say', text: 'oi' }]);
    expect(shown(idle.lines)).toEqual(['> oi', '(notRunning)']);
    const again = play(support, [{ kind: 'start' }, { kind: 'say', text: '1' }, { kind: 'say', text: 'Ana' }, { kind: 'start' }]);
    expect(again.lines).toHaveLength(3);
    expect(again.state.variables).toEqual({});
  });

  it('notes a message the flow does not wait for (during an interval) as ignored', () => {
    const graph = flowGraphSchema.parse({
      nodes: [
        { id: '1', type: 'start', position: { x: 0, y: 0 }, data: {} },
        { id: 'w', type: 'interval', position: { x: 1, y: 0 }, data: { sec: 5 } },
        { id: 'm', type: 'message', position: { x: 2, y: 0 }, data: { label: 'depois' } },
      ],
      connections: [createFlowEdge('1', 'w'), createFlowEdge('w', 'm')],
    });
    const chat = play(graph, [{ kind: 'start' }, { kind: 'say', text: 'alô?' }, { kind: 'fireTimer' }, { kind: 'fireTimer' }]);
    expect(shown(chat.lines)).toEqual(['(wait 5)', '> alô?', '(ignored)', 'depois', '(end completed)']);
  });

  it('plays an AI node: not configured takes its path; configured waits for the reported outcome', () => {
    const graph = flowGraphSchema.parse({
      nodes: [
        { id: '1', type: 'start', position: { x: 0, y: 0 }, data: {} },
        { id: 'ai', type: 'openai', position: { x: 1, y: 0 }, data: { typebotIntegration: { name: 'Bot', apiKey: 'k', prompt: 'p' } } },
        { id: 'ok', type: 'message', position: { x: 2, y: 0 }, data: { label: 'feito' } },
        { id: 'nc', type: 'message', position: { x: 2, y: 1 }, data: { label: 'sem IA' } },
      ],
      connections: [createFlowEdge('1', 'ai'), createFlowEdge('ai', 'ok'), createFlowEdge('ai', 'nc', 'notConfigured')],
    });
    expect(shown(play(graph, [{ kind: 'start' }]).lines).slice(1)).toEqual(['sem IA', '(end completed)']);
    const configured = { ...opts, adapters: { openai: true } };
    const waiting = play(graph, [{ kind: 'start' }], configured);
    expect(shown(waiting.lines)).toEqual(['(ask openai)']);
    expect(shown(chatReducer(waiting, { kind: 'external', outcome: 'done' }, graph, configured).lines).slice(1)).toEqual(['feito', '(end completed)']);
  });
});
