import { describe, expect, it } from 'vitest';
import { formatCents, reaisToCents } from './money.ts';

describe('formatCents', () => {
  it('groups thousands and writes 2 decimals in the reader\'s language', () => {
    expect(formatCents(123456, 'pt')).toBe('R$ 1.234,56');
    expect(formatCents(123456, 'es')).toBe('R$ 1.234,56');
    expect(formatCents(123456, 'en')).toBe('R$ 1,234.56');
    expect(formatCents(100000, 'pt')).toBe('R$ 1.000,00');
    expect(formatCents(99999, 'en')).toBe('R$ 999.99');
    expect(formatCents(123456789, 'en')).toBe('R$ 1,234,567.89');
    expect(formatCents(5, 'pt')).toBe('R$ 0,05');
    expect(formatCents(0, 'en')).toBe('R$ 0.00');
    expect(formatCents(-1050, 'pt')).toBe('-R$ 10,50');
    expect(formatCents(4900, 'fr')).toBe('R$ 49.00');
    expect(formatCents(4900, 'pt-BR')).toBe('R$ 49,00');
  });

  it('reads reais back to cents without float drift', () => {
    expect(reaisToCents(1234.56)).toBe(123456);
    expect(reaisToCents(0.1 + 0.2)).toBe(30);
    expect(reaisToCents(1481.4)).toBe(148140);
  });
});
