import { describe, expect, it } from 'vitest';
import { flowNameProblem, listFrom, savedGraphFrom, storedNameFrom } from './flow-wire.ts';

describe('reading the flow calls (spec/03 §7)', () => {
  it('GET /flowbuilder/flow/{id}: flow.flow with nodes and connections, or null for a new flow', () => {
    const nodes = [{ id: '1' }];
    expect(savedGraphFrom({ flow: { id: 7, name: 'Loja', flow: { nodes, connections: [] } } })).toEqual({ name: 'Loja', graph: { nodes, connections: [] } });
    expect(savedGraphFrom({ flow: { id: 7, name: 'Loja', flow: null } })).toEqual({ name: 'Loja', graph: null });
    expect(savedGraphFrom({ flow: { id: 7, name: 'Loja', flow: { nodes: null, connections: null } } })).toEqual({ name: 'Loja', graph: { nodes: null, connections: null } });
    expect(savedGraphFrom({ flow: null })).toEqual({ name: null, graph: null });
  });

  it('lists under their key or bare', () => {
    expect(listFrom({ flows: [1] }, ['flows'])).toEqual([1]);
    expect(listFrom([2], ['flows'])).toEqual([2]);
    expect(listFrom({ other: 1 }, ['flows'])).toEqual([]);
  });

  it('an upload answer: the stored name or a list of file names', () => {
    expect(storedNameFrom('123-a.png')).toBe('123-a.png');
    expect(storedNameFrom(['123-a.png', 'x'])).toBe('123-a.png');
    expect(storedNameFrom({ name: '123-a.png' })).toBe('123-a.png');
    expect(() => storedNameFrom({})).toThrow();
  });

  it('flow names: 2 to 50 characters with the spec messages', () => {
    expect(flowNameProblem('')).toBe('nameRequired');
    expect(flowNameProblem('a')).toBe('nameShort');
    expect(flowNameProblem('a'.repeat(51))).toBe('nameLong');
    expect(flowNameProblem('Atendimento')).toBeNull();
  });
});
