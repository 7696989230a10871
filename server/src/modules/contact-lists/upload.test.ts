// POST /contact-lists/{id}/upload: a spreadsheet into a list through the contacts import (the same
// streamed NDJSON report with a reason per refused row), then the WhatsApp check of what landed.
import type { ContactImportEvent } from '@zapdesk/sync';
import { openAsBlob } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupDesk } from '../../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';
import { generateCsv, generateXlsx } from '../../../test/spreadsheets.ts';
import { settleContactListChecks } from './whatsapp-check.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../fixtures/spreadsheets');

describe.each(DIALECTS)('contact list uploads on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  }, 180_000);
  afterAll(async () => t.close());

  async function upload(token: string, listId: number, file: Blob, name: string) {
    const form = new FormData();
    form.append('file', file, name);
    const res = await t.app.request(`/contact-lists/${listId}/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const text = await res.text();
    const events = res.headers.get('content-type')?.includes('ndjson') ? text.trim().split('\n').map((l) => JSON.parse(l) as ContactImportEvent) : [];
    return { status: res.status, events, body: events.length ? undefined : JSON.parse(text) };
  }

  it('imports an xlsx with a reason for every refused row; a rerun skips every row; numbers are checked after', async () => {
    const desk = await setupDesk(t);
    const token = desk.adminSession.token;
    const list = (await t.request('POST', '/contact-lists', { token, body: { name: 'From a sheet' } })).body;
    const sheet = await generateXlsx({ rows: 1_200, badRows: true, numberOffset: 7_000_000 });
    const first = await upload(token, list.id, await openAsBlob(sheet.file), path.basename(sheet.file));
    expect(first.status).toBe(200);
    expect(first.events[0]).toMatchObject({ type: 'start' });
    const done = first.events.at(-1)!;
    expect(done).toMatchObject({ type: 'done', rows: 1_200, imported: sheet.goodCount, rejected: sheet.bad.length, skipped: 0 });
    const issues = first.events.filter((e) => e.type === 'issue');
    expect(issues.map((i) => [i.row, i.reason])).toEqual(sheet.bad.map((b) => [b.row, b.reason]));
    expect(first.events.filter((e) => e.type === 'progress')).toHaveLength(2);
    expect((await t.request('GET', `/contact-lists/${list.id}`, { token })).body.contactsCount).toBe(sheet.goodCount);

    const again = await upload(token, list.id, await openAsBlob(sheet.file), path.basename(sheet.file));
    expect(again.events.at(-1)).toMatchObject({ type: 'done', imported: 0, skipped: sheet.goodCount, rejected: sheet.bad.length });
    expect(again.events.find((e) => e.type === 'issue' && e.kind === 'skipped')).toMatchObject({ reason: 'This number is already in the list', code: 'ERR_DUPLICATED_CONTACT' });

    await settleContactListChecks(t.deps);
    const unchecked = await t.db.selectFrom('contactListItems').select('id').where('contactListId', '=', list.id).where('isWhatsappValid', 'is', null).execute();
    expect(unchecked).toEqual([]);
    // The contacts of the company are untouched: a list holds its own items.
    expect(await t.db.selectFrom('contacts').select('id').where('companyId', '=', desk.companyId).where('importKey', 'is not', null).execute()).toEqual([]);
  });

  it('imports a csv into one list only; the same number may sit in two lists', async () => {
    const { adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const a = (await t.request('POST', '/contact-lists', { token, body: { name: 'List A' } })).body;
    const b = (await t.request('POST', '/contact-lists', { token, body: { name: 'List B' } })).body;
    const sheet = await generateCsv({ rows: 30, numberOffset: 8_000_000 });
    expect((await upload(token, a.id, await openAsBlob(sheet.file), 'a.csv')).events.at(-1)).toMatchObject({ type: 'done', imported: 30 });
    expect((await upload(token, b.id, await openAsBlob(sheet.file), 'b.csv')).events.at(-1)).toMatchObject({ type: 'done', imported: 30 });
    const page = (await t.request('GET', '/contact-lists', { token })).body.records;
    expect(page.map((r: { contactsCount: number }) => r.contactsCount)).toEqual([30, 30]);
    const items = (await t.request('GET', `/contact-list-items?contactListId=${a.id}&searchParam=Contato 1`, { token })).body.contacts;
    expect(items[0]).toMatchObject({ contactListId: a.id, isWhatsappValid: null });
  });

  it('imports an Excel 97-2003 (.xls) workbook as written by other programs', async () => {
    const { adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const list = (await t.request('POST', '/contact-lists', { token, body: { name: 'Old Excel' } })).body;
    const file = await openAsBlob(path.join(FIXTURES, 'contacts-sheetjs.xls'));
    const result = await upload(token, list.id, new Blob([file], { type: 'application/vnd.ms-excel' }), 'contacts-sheetjs.xls');
    expect(result.status).toBe(200);
    expect(result.events.at(-1)).toMatchObject({ type: 'done', rows: 3, imported: 3, rejected: 0 });
    const items = (await t.request('GET', `/contact-list-items?contactListId=${list.id}`, { token })).body.contacts;
    const byName = Object.fromEntries(items.map((i: { name: string; number: string }) => [i.name, i.number]));
    expect(byName).toEqual({ 'João Conceição': '5511988887777', 'Zoë 北京': '5521977776666', Ana: '5531966665555' });
  });

  it('refuses what is not a spreadsheet upload with catalogue errors before reading any row', async () => {
    const { adminSession, userSession } = await seedTenant(t);
    const token = adminSession.token;
    const list = (await t.request('POST', '/contact-lists', { token, body: { name: 'Refusals' } })).body;
    const truncatedXls = await upload(token, list.id, new Blob([Buffer.from([0xd0, 0xcf, 0x11, 0xe0])], { type: 'application/vnd.ms-excel' }), 'old.xls');
    expect(truncatedXls.events.at(-1)).toMatchObject({ type: 'failed', error: 'ERR_VALIDATION', message: expect.stringContaining('.xls') });
    const word = await upload(token, list.id, new Blob(['plain words, not a workbook']), 'letter.xls');
    expect(word.events.at(-1)).toMatchObject({ type: 'failed', error: 'ERR_VALIDATION' });
    expect((await upload(token, list.id, new Blob(['%PDF-1.4']), 'notes.pdf')).body.error).toBe('ERR_VALIDATION');
    const json = await t.request('POST', `/contact-lists/${list.id}/upload`, { token, body: { rows: [] } });
    expect([json.status, json.body.error]).toEqual([415, 'ERR_UNSUPPORTED_MEDIA_TYPE']);
    const noFile = new FormData();
    noFile.append('other', 'x');
    const res = await t.app.request(`/contact-lists/${list.id}/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: noFile });
    expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([400, 'ERR_VALIDATION']);
    const broken = await upload(token, list.id, new Blob(['PK\u0003\u0004 not really a zip']), 'broken.xlsx');
    expect(broken.events.at(-1)).toMatchObject({ type: 'failed', error: 'ERR_VALIDATION' });
    const user = await upload(userSession.token, list.id, new Blob(['name;number\nAna;5511955550000\n']), 'a.csv');
    expect([user.status, user.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);
    expect((await t.request('GET', `/contact-lists/${list.id}`, { token })).body.contactsCount).toBe(0);
  });
});
