// Name search ignores case and accents alike on both dialects (issue 13; SQLite's lower() is
// ASCII-only), and a contact is found by any part of its number.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { seedCompany, seedContact, seedSuper, seedTenant, seedUser } from '../../test/seed.ts';
import { foldText } from './fold.ts';

describe('foldText', () => {
  it('lower-cases and drops the accents of Latin letters', () => {
    expect(foldText('José ÁLVARES Ñandú Łódź Øre ça')).toBe('jose alvares nandu lodz ore ca');
    expect(foldText('50%_off')).toBe('50%_off');
  });
});

describe.each(DIALECTS)('search ignoring case and accents on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const q = (s: string) => encodeURIComponent(s);

  it('users: "jose" finds "José" and "JOSÉ" finds "jose", over names and emails', async () => {
    const { company, adminSession } = await seedTenant(t);
    await seedUser(t, company.id, { name: 'José Álvares' });
    await seedUser(t, company.id, { name: 'jose plain' });
    await seedUser(t, company.id, { name: 'Maria', email: `conceição-${company.id}@example.test` });
    const names = async (s: string) => {
      const res = await t.request('GET', `/users?searchParam=${q(s)}`, { token: adminSession.token });
      expect(res.status).toBe(200);
      return (res.body.users as { name: string }[]).map((u) => u.name).sort();
    };
    expect(await names('jose')).toEqual(['José Álvares', 'jose plain']);
    expect(await names('JOSÉ')).toEqual(['José Álvares', 'jose plain']);
    expect(await names('alvares')).toEqual(['José Álvares']);
    expect(await names('ÁLVA')).toEqual(['José Álvares']);
    expect(await names('conceicao')).toEqual(['Maria']);
    // The search's own wildcards stay literal.
    expect(await names('jos_')).toEqual([]);
  });

  it('companies: the super-admin finds "São João Ltda" by "sao joao" and "SÃO JOÃO"', async () => {
    const platform = await seedSuper(t);
    const tag = `${Date.now()}`;
    await seedCompany(t, { name: `São João Ltda ${tag}` });
    await seedCompany(t, { name: `sao joao plain ${tag}` });
    const names = async (s: string) => {
      const res = await t.request('GET', `/companies?searchParam=${q(s)}`, { token: platform.session.token });
      expect(res.status).toBe(200);
      return (res.body.companies as { name: string }[]).map((c) => c.name).sort();
    };
    expect(await names(`sao joao ltda ${tag}`)).toEqual([`São João Ltda ${tag}`]);
    expect(await names(`SÃO JOÃO`)).toEqual(expect.arrayContaining([`São João Ltda ${tag}`, `sao joao plain ${tag}`]));
    expect((await names(`joão plain ${tag}`))).toEqual([`sao joao plain ${tag}`]);
  });

  it('contacts: accents and case both ways, and a number by any part of it', async () => {
    const { company, adminSession } = await seedTenant(t);
    await seedContact(t, company.id, { name: 'José Souza', number: '5511987654321' });
    await seedContact(t, company.id, { name: 'jose lima', number: '5521912345678' });
    const names = async (s: string) => {
      const res = await t.request('GET', `/contacts?searchParam=${q(s)}`, { token: adminSession.token });
      expect(res.status).toBe(200);
      return (res.body.contacts as { name: string }[]).map((c) => c.name).sort();
    };
    expect(await names('jose')).toEqual(['José Souza', 'jose lima']);
    expect(await names('JOSÉ')).toEqual(['José Souza', 'jose lima']);
    expect(await names('souza')).toEqual(['José Souza']);
    // The whole number, formatted as people write it.
    expect(await names('+55 (11) 98765-4321')).toEqual(['José Souza']);
    // Without the country code, its last digits, a part from the middle.
    expect(await names('11987654321')).toEqual(['José Souza']);
    expect(await names('(11) 98765-4321')).toEqual(['José Souza']);
    expect(await names('4321')).toEqual(['José Souza']);
    expect(await names('5678')).toEqual(['jose lima']);
    expect(await names('98765')).toEqual(['José Souza']);
    expect(await names('55')).toEqual(['José Souza', 'jose lima']);
    expect(await names('99999')).toEqual([]);
    // The pickers' list narrows the same way.
    const options = await t.request('GET', `/contacts/list?name=${q('987654321')}`, { token: adminSession.token });
    expect(options.status).toBe(200);
    expect((options.body as { name: string }[]).map((c) => c.name)).toEqual(['José Souza']);
  });
});
