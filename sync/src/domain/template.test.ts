import { describe, expect, it } from 'vitest';
import { buildTemplateVars, greetingFor, hasTemplateTokens, isReservedVariable, renderTemplate, zonedParts } from './template.ts';

describe('renderTemplate', () => {
  const vars = { firstName: 'Ana', name: 'Ana Lima', ms: 'Bom dia', protocol: '20250101080000', date: '01/01/2025', hour: '08:00:00', queue: 'Sales', connection: 'Main line' };

  it('replaces the known variables, tolerates spaces inside braces and keeps unknown ones', () => {
    expect(renderTemplate('{{ms}}, {{ firstName }}! {{name}} #{{protocol}} {{date}} {{hour}} {{queue}} {{connection}} {{other}} {single}', vars)).toBe(
      'Bom dia, Ana! Ana Lima #20250101080000 01/01/2025 08:00:00 Sales Main line {{other}} {single}',
    );
    // Values go in verbatim: no HTML escaping, no recursive expansion.
    expect(renderTemplate('{{name}}', { name: 'A & B {{ms}}' })).toBe('A & B {{ms}}');
    expect(renderTemplate('{{toString}} {{__proto__}} {constructor}', {})).toBe('{{toString}} {{__proto__}} {constructor}');
  });

  it('understands the campaign style {nome} and the aliases, in both token styles', () => {
    const all = { ...vars, number: '5511988887777', email: 'ana@example.com' };
    expect(renderTemplate('{saudacao} {nome}, {primeiro-nome}! {numero} {email} {{nome}} {{primeiro-nome}} {protocolo} {fila}', all)).toBe(
      'Bom dia Ana Lima, Ana! 5511988887777 ana@example.com Ana Lima Ana 20250101080000 Sales',
    );
    // An extra variable plugs in by its own name; a variable of the exact name wins over an alias.
    expect(renderTemplate('{cupom} {{cupom}}', { cupom: 'ZAP10' })).toBe('ZAP10 ZAP10');
    expect(renderTemplate('{nome}', { name: 'Canonical', nome: 'Own' })).toBe('Own');
    // So a campaign's custom variable may not take a built-in name, in any case.
    for (const key of ['nome', 'Nome', 'primeiro-nome', 'email', 'numero', 'number', 'saudacao', 'firstName', 'protocolo']) expect(isReservedVariable(key), key).toBe(true);
    for (const key of ['cupom', 'loja', 'nomeFantasia']) expect(isReservedVariable(key), key).toBe(false);
    // Not tokens: digits, empty braces, JSON-ish text.
    expect(renderTemplate('Reply {1}, {} or {"a": 1}', vars)).toBe('Reply {1}, {} or {"a": 1}');
  });

  it('tells whether a text names any variable', () => {
    expect(hasTemplateTokens('Hello {{name}}')).toBe(true);
    expect(hasTemplateTokens('Hello {nome}')).toBe(true);
    expect(hasTemplateTokens('Hello {{name}}')).toBe(true); // the regex is global: a second call must not skip
    expect(hasTemplateTokens('Hello there {1}')).toBe(false);
  });
});

describe('greetingFor', () => {
  it('reads the local hour: morning from 5, afternoon from 12, evening from 18', () => {
    expect([0, 4, 5, 11, 12, 17, 18, 23].map((h) => greetingFor(h))).toEqual(['Boa noite', 'Boa noite', 'Bom dia', 'Bom dia', 'Boa tarde', 'Boa tarde', 'Boa noite', 'Boa noite']);
    expect(greetingFor(9, 'en')).toBe('Good morning');
    expect(greetingFor(20, 'es')).toBe('Buenas noches');
  });
});

describe('buildTemplateVars', () => {
  it('computes the variables in the given time zone', () => {
    const now = new Date('2025-01-01T02:03:04.000Z');
    expect(buildTemplateVars({ contact: { name: '  José   da Silva ', number: '5511988887777' }, ticketId: 77, queue: 'Sales', connection: 'Main', now, timeZone: 'America/Sao_Paulo' })).toEqual({
      firstName: 'José',
      name: 'José   da Silva',
      ms: 'Boa noite',
      protocol: '2024123123030477',
      date: '31/12/2024',
      hour: '23:03:04',
      queue: 'Sales',
      connection: 'Main',
      number: '5511988887777',
      email: '',
    });
    expect(buildTemplateVars({ contact: { name: 'Ann' }, now, timeZone: 'UTC', lang: 'en' })).toMatchObject({ ms: 'Good evening', protocol: '20250101020304', date: '01/01/2025', hour: '02:03:04', queue: '' });
    // Extra variables come along but never replace a canonical one.
    expect(buildTemplateVars({ contact: { name: 'Ann' }, now, timeZone: 'UTC', extra: { cupom: 'X', name: 'Hijack' } })).toMatchObject({ cupom: 'X', name: 'Ann' });
  });
});

describe('zonedParts', () => {
  it('answers each instant of a second alike, and the next second, another zone or a DST change anew', () => {
    const at = (iso: string) => new Date(iso);
    expect(zonedParts(at('2026-11-29T12:00:05.000Z'), 'America/Sao_Paulo')).toEqual({ year: '2026', month: '11', day: '29', hour: '09', minute: '00', second: '05' });
    expect(zonedParts(at('2026-11-29T12:00:05.999Z'), 'America/Sao_Paulo')).toMatchObject({ hour: '09', second: '05' });
    expect(zonedParts(at('2026-11-29T12:00:06.001Z'), 'America/Sao_Paulo')).toMatchObject({ hour: '09', second: '06' });
    expect(zonedParts(at('2026-11-29T12:00:06.500Z'), 'Europe/Lisbon')).toMatchObject({ hour: '12', second: '06' });
    // New York leaves daylight time at 06:00:00Z on 2026-11-01: the last second before and the first after.
    expect(zonedParts(at('2026-11-01T05:59:59.999Z'), 'America/New_York')).toMatchObject({ hour: '01', minute: '59', second: '59' });
    expect(zonedParts(at('2026-11-01T06:00:00.000Z'), 'America/New_York')).toMatchObject({ hour: '01', minute: '00', second: '00' });
    // Before 1970 too (a negative time floors to its own second).
    expect(zonedParts(at('1969-12-31T23:59:59.500Z'), 'UTC')).toMatchObject({ year: '1969', second: '59' });
    expect(zonedParts(at('1970-01-01T00:00:00.000Z'), 'UTC')).toMatchObject({ year: '1970', second: '00' });
  });
});
