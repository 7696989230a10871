// GET /contacts/export (contatos.csv, spec/02 §2 screen 12): a cell a spreadsheet would run as a
// formula is defused with a leading quote, while the stored contact keeps its exact text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedContact, seedTenant } from '../../../test/seed.ts';
import { tenant } from '../../db/tenant.ts';

describe.each(DIALECTS)('contacts CSV export on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('prefixes cells starting with =, +, -, @, a tab or a carriage return with a quote; the contacts keep their text', async () => {
    const { company, adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const names = ['=HYPERLINK("http://evil.test","x")', '+SUM(1;2)', '-2+3', '@SUM(A1)'];
    for (const [i, name] of names.entries()) {
      const res = await t.request('POST', '/contacts', { token, body: { name, number: `551190000000${i}` } });
      expect(res.status).toBe(201);
    }
    // Names that arrive from WhatsApp are stored as sent: a leading tab or carriage return too.
    await seedContact(t, company.id, { name: '\tcmd', number: '5511900000010' });
    await seedContact(t, company.id, { name: '\r=1+1', number: '5511900000011' });
    await seedContact(t, company.id, { name: 'Plain Name', number: '5511900000012' });
    await seedContact(t, company.id, { name: 'Mid=dle - ok', number: '5511900000013' });

    const res = await t.app.request('/contacts/export', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const lines = (await res.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines).toEqual([
      'name;number;email',
      `"'=HYPERLINK(""http://evil.test"",""x"")";5511900000000;`,
      `"'+SUM(1;2)";5511900000001;`,
      `'-2+3;5511900000002;`,
      `'@SUM(A1);5511900000003;`,
      `'\tcmd;5511900000010;`,
      `"'\r=1+1";5511900000011;`,
      'Plain Name;5511900000012;',
      'Mid=dle - ok;5511900000013;',
      '',
    ]);
    const stored = await tenant(t.db, company.id).selectFrom('contacts').select('contacts.name').orderBy('contacts.id').execute();
    expect(stored.map((r) => r.name)).toEqual([...names, '\tcmd', '\r=1+1', 'Plain Name', 'Mid=dle - ok']);
    const one = await t.request('GET', '/contacts?searchParam=hyperlink', { token });
    expect(one.body.contacts[0].name).toBe(names[0]);
  });
});
