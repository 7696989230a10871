import { describe, expect, it } from 'vitest';
import { evaluateCondition, lookupFlowKey } from './condition.ts';
import type { FlowConditionOperator } from './nodes.ts';
import { foldFlowText, parseLooseNumber } from './text.ts';

describe('evaluateCondition', () => {
  const cases: [actual: string | undefined, op: FlowConditionOperator, expected: string, result: boolean][] = [
    // Texts: case, accents and spacing do not count.
    ['São  Paulo', 'equals', 'sao paulo', true],
    ['São Paulo', 'equals', 'Rio', false],
    ['São Paulo', 'notEquals', 'Rio', true],
    ['Quero CANCELAR o pedido', 'contains', 'cancelar', true],
    ['Quero comprar', 'notContains', 'cancelar', true],
    ['Atendimento', 'startsWith', 'ATEND', true],
    ['pedido.pdf', 'endsWith', '.PDF', true],
    // Numbers compare as numbers when both sides are numbers (decimal comma too).
    ['10', 'equals', '10.0', true],
    ['10,5', 'greater', '10', true],
    ['9', 'greater', '10', false], // not text order
    ['18', 'greaterOrEqual', '18', true],
    ['17', 'less', '18', true],
    ['18', 'lessOrEqual', '18', true],
    ['abc', 'greater', '1', false], // ordering needs two numbers
    ['abc', 'less', '1', false],
    // Presence: a value other than blanks.
    ['x', 'exists', '', true],
    ['  ', 'exists', '', false],
    [undefined, 'exists', '', false],
    [undefined, 'notExists', '', true],
    [undefined, 'equals', '', true], // missing reads as empty text
    [undefined, 'contains', 'a', false],
  ];
  it.each(cases)('%s %s %s → %s', (actual, op, expected, result) => {
    expect(evaluateCondition(actual, op, expected)).toBe(result);
  });
});

describe('lookupFlowKey', () => {
  const vars = { name: 'Ana Lima', number: '5511', email: 'a@b.c' };
  it('reads flow variables first, then contact fields and aliases, in any token spelling', () => {
    expect(lookupFlowKey('plano', { plano: 'ouro' }, vars)).toBe('ouro');
    expect(lookupFlowKey('name', { name: 'Dita' }, vars)).toBe('Dita');
    expect(lookupFlowKey('{{name}}', {}, vars)).toBe('Ana Lima');
    expect(lookupFlowKey('{nome}', {}, vars)).toBe('Ana Lima');
    expect(lookupFlowKey('contact.email', {}, vars)).toBe('a@b.c');
    expect(lookupFlowKey('numero', {}, vars)).toBe('5511');
    expect(lookupFlowKey('nada', {}, vars)).toBeUndefined();
    expect(lookupFlowKey('toString', {}, vars)).toBeUndefined();
  });
});

describe('text folding', () => {
  it('drops case and accents and collapses spaces; reads numbers as people type them', () => {
    expect(foldFlowText('  Ação\tRÁPIDA  já ')).toBe('acao rapida ja');
    expect([' 3,5 ', '-2', '.5', '1e3', '1.000,50', ''].map(parseLooseNumber)).toEqual([3.5, -2, 0.5, null, null, null]);
  });
});
