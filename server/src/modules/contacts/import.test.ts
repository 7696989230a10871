import { readFile } from 'node:fs/promises';
import type { ContactImportEvent } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedConnection, seedTenant } from '../../../test/seed.ts';
import { generateCsv, generateXlsx, numberOf, type GeneratedSheet } from '../../../test/spreadsheets.ts';
import type { Peer } from '../../channels/types.ts';
import { importContacts } from './import.ts';
import type { NumberedRow } from './import-batch.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe.each(DIALECTS)('contact imports on %s', (dialect) => {
  let t: TestApp;
  let xlsx: GeneratedSheet;
  let csv: GeneratedSheet;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    [xlsx, csv] = await Promise.all([generateXlsx({ rows: 10_000, badRows: true }), generateCsv({ rows: 10_000, badRows: true, delimiter: ';' })]);
  }, 180_000);
  afterAll(async () => t.close());

  /** POST /contacts/import/file with the file as multipart; the NDJSON answer as events. */
  async function uploadFile(token: string, sheet: GeneratedSheet, type: string) {
    const form = new FormData();
    form.append('file', new Blob([await readFile(sheet.file)], { type }), sheet.file.split('/').pop());
    const res = await t.app.request('/contacts/import/file', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const text = await res.text();
    const events = res.status === 200 ? text.trim().split('\n').map((l) => JSON.parse(l) as ContactImportEvent) : [];
    return { status: res.status, headers: res.headers, events, body: res.status === 200 ? undefined : JSON.parse(text) };
  }
  const countContacts = async (companyId: number) =>
    Number((await t.db.selectFrom('contacts').select((eb) => eb.fn.countAll<number>().as('n')).where('companyId', '=', companyId).executeTakeFirstOrThrow()).n);

  it.each([
    ['xlsx', () => xlsx, XLSX],
    ['csv', () => csv, 'text/csv'],
  ])('imports a 10,000-row %s with bad rows once, reporting each, and a rerun adds nothing', async (_, sheetOf, type) => {
    const sheet = sheetOf();
    const { company, adminSession } = await seedTenant(t);
    const first = await uploadFile(adminSession.token, sheet, type);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    expect(first.events[0]).toMatchObject({ type: 'start', importId: expect.any(String) });
    const done = first.events.at(-1)!;
    expect(done).toMatchObject({ type: 'done', rows: 10_000, imported: sheet.goodCount, skipped: 0, rejected: sheet.bad.length });
    const issues = first.events.filter((e) => e.type === 'issue');
    expect(issues.map((i) => ({ row: i.row, reason: i.reason }))).toEqual(sheet.bad);
    expect(issues[0]).toMatchObject({ row: 9, name: '', number: numberOf(7), kind: 'rejected', code: 'ERR_VALIDATION' });
    expect(first.events.filter((e) => e.type === 'progress')).toHaveLength(10);
    expect(await countContacts(company.id)).toBe(sheet.goodCount);

    // The masked number and the number cell landed normalised; the import is on record.
    const masked = await t.db.selectFrom('contacts').selectAll().where('companyId', '=', company.id).where('number', '=', numberOf(500)).executeTakeFirstOrThrow();
    expect(masked).toMatchObject({ name: 'Contato 500', email: 'c500@example.test', importKey: (first.events[0] as { importId: string }).importId, version: 1 });
    expect(await t.db.selectFrom('contacts').select('id').where('companyId', '=', company.id).where('number', '=', numberOf(501)).executeTakeFirst()).toBeDefined();

    const again = await uploadFile(adminSession.token, sheet, type);
    expect(again.events.at(-1)).toMatchObject({ type: 'done', imported: 0, skipped: sheet.goodCount, rejected: sheet.bad.length });
    expect(again.events.filter((e) => e.type === 'issue' && e.kind === 'skipped')[0]).toMatchObject({ row: 2, reason: 'A contact with this number already exists' });
    expect(await countContacts(company.id)).toBe(sheet.goodCount);
    // Two imports of 10,000 rows: minutes, not seconds, on a busy CI machine.
  }, 240_000);

  it('refuses what is not a spreadsheet, and reports a broken one as failed', async () => {
    const { adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const form = new FormData();
    form.append('file', new Blob(['hello']), 'notes.pdf');
    const wrong = await t.app.request('/contacts/import/file', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(wrong.status).toBe(400);
    const none = await t.request('POST', '/contacts/import/file', { token, body: { rows: [] } });
    expect(none.status).toBe(415);
    const form2 = new FormData();
    form2.append('file', new Blob(['PK\u0003\u0004 not really a zip']), 'broken.xlsx');
    const res = await t.app.request('/contacts/import/file', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form2 });
    const events = (await res.text()).trim().split('\n').map((l) => JSON.parse(l));
    expect(events.at(-1)).toMatchObject({ type: 'failed', error: 'ERR_VALIDATION', imported: 0 });
    // A quote never closed: the rest of the file is one field, refused past 1 MB with the reason.
    const form3 = new FormData();
    form3.append('file', new Blob([`name;number\nAna;5511900000001\n"Bia;${'9'.repeat(2_000_000)}\n`]), 'open-quote.csv');
    const open = await t.app.request('/contacts/import/file', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form3 });
    const openEvents = (await open.text()).trim().split('\n').map((l) => JSON.parse(l));
    expect(openEvents.at(-1)).toMatchObject({ type: 'failed', error: 'ERR_VALIDATION', message: 'The file is not a readable CSV (the record at line 3 is longer than 1 MB: is a quote left open?).', imported: 0 });
  });

  it('gives the event loop a turn between batches, so one big import does not hold the whole server', async () => {
    const { adminSession } = await seedTenant(t);
    const form = new FormData();
    form.append('file', new Blob([await readFile(csv.file)], { type: 'text/csv' }), 'contacts.csv');
    const res = await t.app.request('/contacts/import/file', { method: 'POST', headers: { authorization: `Bearer ${adminSession.token}` }, body: form });
    // A timer armed when the first batch is reported must run before the last one is: on SQLite
    // a batch is synchronous work and the upload is in memory, so only an explicit yield lets it.
    let batches = 0;
    let batchesWhenTimerRan: number | undefined;
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      const lines = text.split('\n');
      text = lines.pop()!;
      for (const line of lines) {
        if ((JSON.parse(line) as ContactImportEvent).type !== 'progress') continue;
        if (++batches === 1) setTimeout(() => (batchesWhenTimerRan = batches), 0);
      }
    }
    expect(batches).toBe(10);
    expect(batchesWhenTimerRan).toBeLessThan(10);
  });

  it('keeps whole batches only when the input breaks midway, and a rerun completes the import', async () => {
    const { company } = await seedTenant(t);
    const rows = (n: number): NumberedRow[] => Array.from({ length: n }, (_, i) => ({ row: i + 2, fields: { name: `Batch ${i}`, number: numberOf(i, 70_000), email: '' } }));
    async function* breaking() {
      yield* rows(2_500);
      throw new Error('disk gone');
    }
    const pokes = vi.spyOn(t.deps.realtime, 'pokeCompany');
    const pokesOfCompany = () => pokes.mock.calls.filter(([id]) => id === company.id).length;
    try {
      await expect(importContacts(t.deps, company.id, breaking())).rejects.toThrow('disk gone');
      expect(await countContacts(company.id)).toBe(2_000);
      // One poke per committed batch; the half batch that never committed pokes no one.
      expect(pokesOfCompany()).toBe(2);
      pokes.mockClear();
      const rerun = await importContacts(t.deps, company.id, rows(3_000));
      expect(rerun).toMatchObject({ rows: 3_000, imported: 1_000, skipped: 2_000, rejected: 0 });
      expect(await countContacts(company.id)).toBe(3_000);
      // The two batches the company already had change nothing a client shows: only the third pokes.
      expect(pokesOfCompany()).toBe(1);
    } finally {
      pokes.mockRestore();
    }
  });

  it('POST /contacts/upload answers newContacts and errorBag, existing numbers included', async () => {
    const { company, adminSession } = await seedTenant(t);
    const token = adminSession.token;
    await t.request('POST', '/contacts', { token, body: { name: 'Already here', number: '5511912340000' } });
    const rows = [
      { Nome: 'Ana Lima', Número: '+55 11 91234-0001', Email: 'ana@example.test' },
      { name: 'Bruno', number: 5511912340002 },
      { nome: 'X', numero: '5511912340003' },
      { nome: 'Sem número' },
      { nome: 'Carla', numero: '5511912340001' },
      { nome: 'Existing', numero: '5511912340000' },
      { nome: 'Dani', numero: '5511912340004', email: 'dani@' },
    ];
    const res = await t.request('POST', '/contacts/upload', { token, body: rows });
    expect(res.status).toBe(200);
    expect(res.body.newContacts).toEqual([
      { contactId: expect.any(Number), contactName: 'Ana Lima' },
      { contactId: expect.any(Number), contactName: 'Bruno' },
    ]);
    expect(res.body.errorBag).toEqual([
      { contactName: 'X', row: 4, error: { message: 'Name is too short (2 to 50 characters)', code: 'ERR_VALIDATION' } },
      { contactName: 'Sem número', row: 5, error: { message: 'Number is missing', code: 'ERR_VALIDATION' } },
      { contactName: 'Carla', row: 6, error: { message: 'Duplicated number in this file', code: 'ERR_DUPLICATED_CONTACT' } },
      { contactName: 'Existing', row: 7, error: { message: 'A contact with this number already exists', code: 'ERR_DUPLICATED_CONTACT' } },
      { contactName: 'Dani', row: 8, error: { message: 'Invalid email', code: 'ERR_VALIDATION' } },
    ]);
    expect(await countContacts(company.id)).toBe(3);
    expect((await t.request('POST', '/contacts/upload', { token, body: { rows: [] } })).body).toEqual({ newContacts: [], errorBag: [] });
    expect((await t.request('POST', '/contacts/upload', { token, body: { rows: 'nope' } })).status).toBe(400);
  });

  it('POST /contacts/import/rows takes the CLI batches with row numbers and an import id', async () => {
    const { adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const body = { importId: 'cli-run-1', firstRow: 1002, rows: [{ name: 'Eva', number: '5511900001111' }, { name: 'Eva 2', number: '5511900001111' }, { name: '', number: '5511900002222' }] };
    const res = await t.request('POST', '/contacts/import/rows', { token, body });
    expect(res.body).toEqual({
      importId: 'cli-run-1', rows: 3, imported: 1, skipped: 0, rejected: 2,
      issues: [
        { row: 1003, name: 'Eva 2', number: '5511900001111', email: '', kind: 'rejected', code: 'ERR_DUPLICATED_CONTACT', reason: 'Duplicated number in this file' },
        { row: 1004, name: '', number: '5511900002222', email: '', kind: 'rejected', code: 'ERR_VALIDATION', reason: 'Name is missing' },
      ],
    });
    // A later batch of the same import repeating a number is still a duplicate of the file.
    const next = await t.request('POST', '/contacts/import/rows', { token, body: { importId: 'cli-run-1', firstRow: 1005, rows: [{ name: 'Eva 3', number: '5511900001111' }] } });
    expect(next.body.issues[0]).toMatchObject({ row: 1005, reason: 'Duplicated number in this file' });
    expect((await t.request('POST', '/contacts/import/rows', { token, body: { importId: 'bad id!', rows: [] } })).status).toBe(400);
  });

  it("never lets another company's contacts or import id touch an import", async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    const body = { importId: 'shared-name', rows: [{ name: 'Ana', number: '5511900008881' }, { name: 'Bia', number: '5511900008882' }] };
    expect((await t.request('POST', '/contacts/import/rows', { token: a.adminSession.token, body })).body).toMatchObject({ imported: 2, skipped: 0, rejected: 0 });
    // The same numbers and the same import id in company B: new contacts of B, not duplicates.
    expect((await t.request('POST', '/contacts/import/rows', { token: b.adminSession.token, body })).body).toMatchObject({ imported: 2, skipped: 0, rejected: 0, issues: [] });
    expect(await countContacts(a.company.id)).toBe(2);
    expect(await countContacts(b.company.id)).toBe(2);
  });

  it('exports contatos.csv with ; and name, number, email of this company only', async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    await t.request('POST', '/contacts', { token: a.adminSession.token, body: { name: 'Zé; "o Rei"', number: '5511900003333', email: 'ze@example.test' } });
    await t.request('POST', '/contacts', { token: a.adminSession.token, body: { name: 'Ana', number: '5511900004444' } });
    await t.request('POST', '/contacts', { token: b.adminSession.token, body: { name: 'Other company', number: '5511900005555' } });
    const res = await t.app.request('/contacts/export', { headers: { authorization: `Bearer ${a.userSession.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="contatos.csv"');
    const bytes = Buffer.from(await res.arrayBuffer());
    // A UTF-8 byte-order mark first, so Excel reads the accents.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe('name;number;email\r\n"Zé; ""o Rei""";5511900003333;ze@example.test\r\nAna;5511900004444;\r\n');
  });

  it('POST /contacts/import reads the address books of connected channels, {count: 0} without any', async () => {
    const { company, adminSession } = await seedTenant(t);
    const token = adminSession.token;
    expect((await t.request('POST', '/contacts/import', { token })).body).toEqual({ count: 0 });
    const connection = await seedConnection(t, company.id);
    const book: Peer[] = [
      { jid: '5511900006666@s.whatsapp.net', name: 'Phone Friend' },
      { number: '5511900007777' },
      { jid: '120363@g.us', name: 'A group', isGroup: true },
      { lid: '998877@lid', name: 'Only a LID' },
    ];
    // The connection's session (wherever it runs) answers with this address book.
    const original = t.deps.sessions.queries.bind(t.deps.sessions);
    t.deps.sessions.queries = (companyId, id) => (id === connection.id ? ({ ...original(companyId, id), listContacts: async () => book } as never) : original(companyId, id));
    try {
      expect((await t.request('POST', '/contacts/import', { token })).body).toEqual({ count: 2 });
      expect((await t.request('POST', '/contacts/import', { token })).body).toEqual({ count: 0 });
    } finally {
      t.deps.sessions.queries = original;
    }
    const list = await t.request('GET', '/contacts', { token });
    expect(list.body.contacts.map((c: { name: string; number: string }) => [c.name, c.number])).toEqual([
      ['5511900007777', '5511900007777'],
      ['Phone Friend', '5511900006666'],
    ]);
  });
});
