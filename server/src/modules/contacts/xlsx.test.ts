// The xlsx reader against workbooks written the ways other programs write them (parts in any
// order, a prefixed namespace, rich and inline strings, sparse cells, a stored part), uploaded
// through POST /contacts/import/file; and the XML scanner fed in every possible split.
import { crc32, deflateRawSync } from 'node:zlib';
import type { ContactImportEvent } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';
import { createXmlScanner } from './xml-scanner.ts';

/** A zip archive of the given parts, deflated unless `stored`; written by hand so each test picks the order. */
function zipOf(parts: { name: string; text: string; stored?: boolean }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const data = Buffer.from(part.text, 'utf8');
    const body = part.stored ? data : deflateRawSync(data);
    const name = Buffer.from(part.name, 'utf8');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(part.stored ? 0 : 8, 8);
    header.writeUInt32LE(crc32(data), 14);
    header.writeUInt32LE(body.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(part.stored ? 0 : 8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(header, name, body);
    centrals.push(central, name);
    offset += header.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const rootRels = `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
// The first sheet of the workbook ("Contatos") lives in sheet2.xml; sheet1.xml is a later sheet.
const workbook = `<?xml version="1.0"?><x:workbook xmlns:x="${MAIN}" xmlns:r="${REL}"><x:sheets><x:sheet name="Contatos" sheetId="2" r:id="rId7"/><x:sheet name="Notas" sheetId="1" r:id="rId1"/></x:sheets></x:workbook>`;
const workbookRels = `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId7" Type="${REL}/worksheet" Target="/xl/worksheets/sheet2.xml"/><Relationship Id="rId9" Type="${REL}/sharedStrings" Target="strings.xml"/></Relationships>`;
const strings = `<?xml version="1.0"?><x:sst xmlns:x="${MAIN}" count="4" uniqueCount="4"><x:si><x:t>Nome</x:t></x:si><x:si><x:t>Telefone</x:t></x:si><x:si><x:t>E-mail</x:t></x:si><x:si><x:r><x:t>Jo</x:t></x:r><x:r><x:rPr><x:b/></x:rPr><x:t xml:space="preserve">ão &amp; Cia_x0021_</x:t></x:r><x:rPh sb="0" eb="1"><x:t>ジョ</x:t></x:rPh></x:si></x:sst>`;
const firstSheet = `<?xml version="1.0" encoding="UTF-8"?>
<x:worksheet xmlns:x="${MAIN}">
  <x:sheetData>
    <x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1" t="s"><x:v>1</x:v></x:c><x:c r="C1" t="s"><x:v>2</x:v></x:c></x:row>
    <x:row r="2"><x:c r="A2" t="s"><x:v>3</x:v></x:c><x:c r="B2"><x:v>5.5119123456E12</x:v></x:c><x:c r="C2" t="inlineStr"><x:is><x:t>joao@example.test</x:t></x:is></x:c></x:row>
    <x:row r="4"/>
    <x:row r="5"><x:c t="inlineStr"><x:is><x:t>Ren&#233;e <![CDATA[<Lima>]]></x:t></x:is></x:c><x:c t="str"><x:f>"+55 11 "&amp;"91234-0002"</x:f><x:v>+55 11 91234-0002</x:v></x:c></x:row>
    <x:row r="6"><x:c r="A6" t="inlineStr"><x:is><x:t>Sem Número</x:t></x:is></x:c><x:c r="C6" t="inlineStr"><x:is><x:t>sem@example.test</x:t></x:is></x:c></x:row>
    <x:row><x:c r="A7" t="inlineStr" s="3"><x:is><x:t>Bia</x:t></x:is></x:c><x:c r="B7" s="3"><x:v>5511912340003</x:v></x:c><x:c r="D7" t="b"><x:v>1</x:v></x:c></x:row>
  </x:sheetData>
</x:worksheet>`;
const laterSheet = `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Not a contact</t></is></c><c r="B1"><v>5511999999999</v></c></row></sheetData></worksheet>`;

/** A minimal workbook whose first sheet holds `sheetData`. */
const withSheet = (sheetData: string) =>
  zipOf([{ name: 'xl/workbook.xml', text: `<workbook xmlns="${MAIN}"/>` }, { name: 'xl/worksheets/sheet1.xml', text: `<worksheet xmlns="${MAIN}">${sheetData}</worksheet>` }]);

describe.each(DIALECTS)('xlsx files of other writers on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  async function upload(token: string, file: Buffer) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)]), 'contatos.xlsx');
    const res = await t.app.request('/contacts/import/file', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(res.status).toBe(200);
    return (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as ContactImportEvent);
  }

  it('reads the first sheet by the workbook relationships: shared, rich and inline strings, sparse cells, any part order', async () => {
    const { company, adminSession } = await seedTenant(t);
    // The sheet is stored before the strings it points at, one part uncompressed.
    const file = zipOf([
      { name: '[Content_Types].xml', text: '<Types/>' },
      { name: 'xl/worksheets/sheet1.xml', text: laterSheet },
      { name: 'xl/worksheets/sheet2.xml', text: firstSheet },
      { name: '_rels/.rels', text: rootRels, stored: true },
      { name: 'xl/workbook.xml', text: workbook },
      { name: 'xl/_rels/workbook.xml.rels', text: workbookRels },
      { name: 'xl/strings.xml', text: strings },
    ]);
    const events = await upload(adminSession.token, file);
    expect(events.at(-1)).toMatchObject({ type: 'done', rows: 4, imported: 3, rejected: 1 });
    expect(events.filter((e) => e.type === 'issue')).toEqual([
      { type: 'issue', row: 6, name: 'Sem Número', number: '', email: 'sem@example.test', kind: 'rejected', code: 'ERR_VALIDATION', reason: 'Number is missing' },
    ]);
    const contacts = await t.db.selectFrom('contacts').select(['name', 'number', 'email']).where('companyId', '=', company.id).orderBy('number').execute();
    expect(contacts).toEqual([
      { name: 'Renée <Lima>', number: '5511912340002', email: '' },
      { name: 'Bia', number: '5511912340003', email: '' },
      { name: 'João & Cia!', number: '5511912345600', email: 'joao@example.test' },
    ]);
  });

  it('reads a workbook without relationships or shared strings by the usual part names', async () => {
    const { company, adminSession } = await seedTenant(t);
    const sheet = `<worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Ana Souza</t></is></c><c r="B1"><v>5511912340010</v></c></row></sheetData></worksheet>`;
    const events = await upload(adminSession.token, zipOf([{ name: 'xl/workbook.xml', text: `<workbook xmlns="${MAIN}"><sheets><sheet name="A" sheetId="1"/></sheets></workbook>` }, { name: 'xl/worksheets/sheet1.xml', text: sheet }]));
    // No title row: the columns are name, number, email.
    expect(events.at(-1)).toMatchObject({ type: 'done', rows: 1, imported: 1 });
    expect(await t.db.selectFrom('contacts').select(['name', 'number']).where('companyId', '=', company.id).execute()).toEqual([{ name: 'Ana Souza', number: '5511912340010' }]);
  });

  it.each([
    ['a truncated archive', () => zipOf([{ name: 'xl/workbook.xml', text: workbook }]).subarray(0, 40), 'not a zip archive'],
    ['an archive without a workbook', () => zipOf([{ name: 'hello.txt', text: 'hello' }]), 'no workbook in the package'],
    ['a sheet cut in the middle of a tag', () => zipOf([{ name: 'xl/workbook.xml', text: `<workbook xmlns="${MAIN}"/>` }, { name: 'xl/worksheets/sheet1.xml', text: `<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Ana</t></is></c><c r="B1"` }]), 'ends in the middle of a tag'],
    ['a cell longer than Excel allows', () => withSheet(`<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>${'a'.repeat(40_000)}</t></is></c></row></sheetData>`), 'more than 32,767 characters'],
    ['a row beyond the last row of Excel', () => withSheet('<sheetData><row r="1048577"><c r="A1"><v>1</v></c></row></sheetData>'), 'beyond row 1,048,576'],
    ['a cell beyond the last column of Excel', () => withSheet('<sheetData><row r="1"><c r="XFE1"><v>1</v></c></row></sheetData>'), 'beyond column 16,384'],
    // A few KB that inflate to MBs of one text: refused before it is held.
    ['text that never ends', () => withSheet(`<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>${'a'.repeat(3_000_000)}`), 'longer than 1 M characters'],
  ])('reports %s as a failed import, in words', async (_, fileOf, reason) => {
    const { company, adminSession } = await seedTenant(t);
    const events = await upload(adminSession.token, fileOf());
    const failed = events.at(-1);
    expect(failed).toMatchObject({ type: 'failed', error: 'ERR_VALIDATION', message: expect.stringMatching(/^The file is not a readable \.xlsx spreadsheet \(.+\)\.$/), imported: 0 });
    expect((failed as { message: string }).message).toContain(reason);
    expect(await t.db.selectFrom('contacts').select('id').where('companyId', '=', company.id).execute()).toEqual([]);
  });
});

describe('the XML scanner', () => {
  const xml = `<?xml version="1.0"?><!-- a > comment --><x:row r="2" spans='1:3'><x:c r="A2" t="s"><x:v>12</x:v></x:c><c t="inlineStr" note="a>b"><is><t>Jo &amp; <![CDATA[<Ana>]]></t></is></c><c r="C2"/></x:row>`;
  const eventsOf = (chunks: string[]) => {
    const events: string[] = [];
    const scanner = createXmlScanner({
      open: (name, attrs, selfClosing) => events.push(`<${name}${attrs}${selfClosing ? '/' : ''}>`),
      close: (name) => events.push(`</${name}>`),
      text: (raw, cdata) => events.push(cdata ? `[${raw}]` : raw),
    });
    for (const chunk of chunks) scanner.write(chunk);
    scanner.end();
    return events.join('|');
  };

  it('gives the same tags and text wherever the chunks split the input', () => {
    const whole = eventsOf([xml]);
    expect(whole).toBe(`<row r="2" spans='1:3'>|<c r="A2" t="s">|<v>|12|</v>|</c>|<c t="inlineStr" note="a>b">|<is>|<t>|Jo &amp; |[<Ana>]|</t>|</is>|</c>|<c r="C2"/>|</row>`);
    for (let i = 1; i < xml.length; i++) expect(eventsOf([xml.slice(0, i), xml.slice(i)])).toBe(whole);
  });

  it('refuses input that ends inside a tag', () => {
    expect(() => eventsOf(['<row><c r="A1"'])).toThrow('the XML ends in the middle of a tag');
  });
});
