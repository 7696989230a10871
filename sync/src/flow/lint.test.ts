import { describe, expect, it } from 'vitest';
import { buildFlow } from './fixtures/build.ts';
import editorFlow from './fixtures/support-flow.json';
import { flowGraphSchema } from './graph.ts';
import { lintFlow } from './lint.ts';

const menu = { message: 'Escolha', arrayOption: [{ number: 1, value: 'A' }, { number: 2, value: 'B' }] };

describe('lintFlow', () => {
  it('finds nothing to say about the realistic flow', () => {
    expect(lintFlow(flowGraphSchema.parse(editorFlow))).toEqual([]);
  });

  it('warns of unreachable nodes and of choices that lead nowhere', () => {
    const flow = buildFlow(
      [['1', 'start'], ['m', 'menu', menu], ['a', 'message', { label: 'a' }], ['orphan', 'message', { label: 'x' }], ['r', 'randomizer', { percent: 100 }], ['c', 'condition', { key: 'k', condition: 'exists' }], ['z', 'message', { label: 'z' }]],
      [['1', 'm'], ['m', 'a', 'a1'], ['a', 'r'], ['r', 'c', 'a'], ['c', 'z', 'true']],
    );
    expect(lintFlow(flow).map((w) => [w.code, w.nodeId, w.handle])).toEqual([
      ['unreachable', 'orphan', undefined],
      ['unconnected_output', 'm', 'a2'],
      ['unconnected_output', 'c', 'false'],
    ]);
  });

  it('warns of an answer name used twice and of a cycle that never waits', () => {
    const q = (key: string) => ({ typebotIntegration: { message: '?', answerKey: key } });
    const flow = buildFlow(
      [['1', 'start'], ['q1', 'question', q('nome')], ['q2', 'question', q('nome')], ['a', 'message', { label: 'a' }], ['b', 'message', { label: 'b' }]],
      [['1', 'q1'], ['q1', 'q2'], ['q2', 'a'], ['a', 'b'], ['b', 'a']],
    );
    const found = lintFlow(flow);
    expect(found.map((w) => [w.code, w.nodeId])).toEqual([
      ['duplicate_answer_key', 'q2'],
      ['loop_without_wait', 'a'],
      ['loop_without_wait', 'b'],
    ]);
    // A cycle through a menu waits for the customer each time round: no warning.
    const ok = buildFlow([['1', 'start'], ['m', 'menu', menu], ['x', 'message', { label: 'x' }]], [['1', 'm'], ['m', 'x', 'a1'], ['x', 'm'], ['m', '1', 'a2']]);
    expect(lintFlow(ok)).toEqual([]);
  });
});
