import { describe, expect, it } from 'vitest';
import { daysToDue, dueDateTone, formatCents, formatDate, formatMoney, invoiceDetailText, maskPhone } from './format.ts';

describe('maskPhone', () => {
  it('formats as typed and stops at 11 digits', () => {
    expect(maskPhone('')).toBe('');
    expect(maskPhone('1')).toBe('(1');
    expect(maskPhone('119')).toBe('(11) 9');
    expect(maskPhone('1198765')).toBe('(11) 9876-5');
    expect(maskPhone('1187654321')).toBe('(11) 8765-4321');
    expect(maskPhone('11987654321')).toBe('(11) 98765-4321');
    expect(maskPhone('(11) 98765-43219999')).toBe('(11) 98765-4321');
    expect(maskPhone('ab11cd9')).toBe('(11) 9');
  });
});

describe('dates and money', () => {
  it('shows dd/mm/yyyy in every language', () => {
    for (const lng of ['en', 'pt', 'es']) expect(formatDate('2026-03-07T23:59:59.999Z', lng)).toBe('07/03/2026');
    expect(formatDate(null, 'en')).toBe('');
  });

  it('shows reais with two decimals', () => {
    expect(formatMoney(49.9, 'pt').replace(/\s/g, ' ')).toBe('R$ 49,90');
    expect(formatMoney(1234, 'en')).toMatch(/R\$\s?1,234\.00/);
  });
});

describe('invoice details', () => {
  const names: Record<string, string> = { MENSAL: 'Monthly', ANUAL: 'Yearly' };
  it("words the invoice job's detail: recurrence named, period as dd/mm/yyyy", () => {
    expect(invoiceDetailText('Pro · MENSAL · 2026-12-08 – 2027-01-08', 'en', (c) => names[c]!)).toBe('Pro · Monthly · 08/12/2026 – 08/01/2027');
    expect(invoiceDetailText('Plano · com · ponto · ANUAL · 2026-02-28 – 2027-02-28', 'pt', (c) => names[c]!)).toBe('Plano · com · ponto · Yearly · 28/02/2026 – 28/02/2027');
  });
  it('keeps a detail written by hand as it is', () => {
    expect(invoiceDetailText('Setup fee', 'en', (c) => names[c]!)).toBe('Setup fee');
    expect(invoiceDetailText('Pro · WEEKLY · 2026-12-08 – 2027-01-08', 'en', (c) => names[c]!)).toBe('Pro · WEEKLY · 2026-12-08 – 2027-01-08');
  });
});

describe('company row colours', () => {
  const now = new Date('2026-01-10T12:00:00Z');
  const due = (days: number) => new Date(Date.UTC(2026, 0, 10 + days, 23, 59)).toISOString();

  it('counts calendar days to the due date', () => {
    expect(daysToDue(due(5), now)).toBe(5);
    expect(daysToDue(due(-4), now)).toBe(-4);
    expect(daysToDue(null, now)).toBeNull();
  });

  it('paints exactly 5 yellow, -3..4 orange, exactly -4 red, the rest plain', () => {
    expect(dueDateTone(6)).toBeNull();
    expect(dueDateTone(5)).toBe('yellow');
    for (const d of [4, 0, -3]) expect(dueDateTone(d)).toBe('orange');
    expect(dueDateTone(-4)).toBe('red');
    expect(dueDateTone(-5)).toBeNull();
    expect(dueDateTone(null)).toBeNull();
  });
});

describe('formatCents', () => {
  it('groups thousands and keeps two decimals in each language', () => {
    expect(formatCents(123456, 'pt')).toBe('R$ 1.234,56');
    expect(formatCents(123456, 'en')).toBe('R$ 1,234.56');
    expect(formatCents(123456, 'es')).toBe('R$ 1.234,56');
    expect(formatCents(4900, 'pt')).toBe('R$ 49,00');
    expect(formatCents(5, 'en')).toBe('R$ 0.05');
    expect(formatCents(123456789, 'pt')).toBe('R$ 1.234.567,89');
    expect(formatCents(-1050, 'en')).toBe('-R$ 10.50');
    expect(formatMoney(1234.56, 'pt')).toBe('R$ 1.234,56');
  });
});
