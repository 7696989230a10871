import { describe, expect, it } from 'vitest';
import { buildTemplateVars, greetingFor, renderTemplate, scheduleCreateSchema, scheduleUpdateSchema } from './schedule.ts';

describe('renderTemplate', () => {
  it('replaces the known variables, tolerates spaces inside braces and keeps unknown ones', () => {
    const vars = { firstName: 'Ana', name: 'Ana Lima', ms: 'Bom dia', protocol: '20250101080000', date: '01/01/2025', hour: '08:00:00' };
    expect(renderTemplate('{{ms}}, {{ firstName }}! {{name}} #{{protocol}} {{date}} {{hour}} {{other}} {single}', vars)).toBe(
      'Bom dia, Ana! Ana Lima #20250101080000 01/01/2025 08:00:00 {{other}} {single}',
    );
    // Values go in verbatim: no HTML escaping, no recursive expansion.
    expect(renderTemplate('{{name}}', { name: 'A & B {{ms}}' })).toBe('A & B {{ms}}');
    expect(renderTemplate('{{toString}} {{__proto__}}', {})).toBe('{{toString}} {{__proto__}}');
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
    expect(buildTemplateVars({ contactName: '  José   da Silva ', ticketId: 77, now, timeZone: 'America/Sao_Paulo' })).toEqual({
      firstName: 'José',
      name: 'José   da Silva',
      ms: 'Boa noite',
      protocol: '2024123123030477',
      date: '31/12/2024',
      hour: '23:03:04',
    });
    expect(buildTemplateVars({ contactName: 'Ann', now, timeZone: 'UTC', lang: 'en' })).toMatchObject({ ms: 'Good evening', protocol: '20250101020304', date: '01/01/2025', hour: '02:03:04' });
  });
});

describe('schedule schemas', () => {
  it('accept an instant with a zone and store it in UTC', () => {
    expect(scheduleCreateSchema.parse({ body: 'Hello there', contactId: '3', sendAt: '2030-05-01T10:00Z' }).sendAt).toBe('2030-05-01T10:00:00.000Z');
    expect(scheduleCreateSchema.safeParse({ body: 'Hello there', contactId: 3, sendAt: '2030-05-01 10:00' }).success).toBe(false);
    expect(scheduleCreateSchema.safeParse({ body: 'Hello there', contactId: 3, sendAt: 'tomorrow' }).success).toBe(false);
    expect(scheduleUpdateSchema.parse({})).toEqual({});
    expect(scheduleUpdateSchema.safeParse({ body: '    hi    ' }).error?.issues[0]?.message).toBe('Mensagem muito curta');
  });
});
