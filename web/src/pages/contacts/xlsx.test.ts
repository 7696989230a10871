import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { columnIndex, readSheetRecords } from './xlsx.ts';

// The workbooks are written by exceljs, as a spreadsheet program would write them.
async function workbook(fill: (wb: ExcelJS.Workbook) => void): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  fill(wb);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

describe('readSheetRecords', () => {
  it('keys the rows by the title row, with shared strings, numbers, rich text and holes', async () => {
    const data = await workbook((wb) => {
      const ws = wb.addWorksheet('Contatos');
      ws.addRow(['name', 'number', 'email']);
      ws.addRow(['Ana & Bia <sócias>', 5511999990001, 'ana@example.com']);
      ws.addRow([]);
      ws.getCell('A4').value = { richText: [{ text: 'Car' }, { text: 'los', font: { bold: true } }] };
      ws.getCell('B4').value = '5511999990002';
      // C4 left empty: the record still has the key.
    });
    expect(readSheetRecords(data)).toEqual([
      { name: 'Ana & Bia <sócias>', number: 5511999990001, email: 'ana@example.com' },
      { name: 'Carlos', number: '5511999990002', email: '' },
    ]);
  });

  it('reads the first sheet even when it is not sheet1.xml, and names untitled columns', async () => {
    const data = await workbook((wb) => {
      const first = wb.addWorksheet('First');
      first.addRow(['nome', '']);
      first.getCell('C1').value = 'telefone';
      first.addRow(['Dora', 'x', '5521988887777']);
      wb.addWorksheet('Second').addRow(['ignored']);
    });
    expect(readSheetRecords(data)).toEqual([{ nome: 'Dora', column2: 'x', telefone: '5521988887777' }]);
  });

  it('refuses a file that is not a zip', () => {
    expect(() => readSheetRecords(new TextEncoder().encode('name;number\nAna;5511999990001'))).toThrow('not-xlsx');
  });

  it('maps cell references to columns', () => {
    expect([columnIndex('A1'), columnIndex('Z9'), columnIndex('AA10'), columnIndex('AB3')]).toEqual([0, 25, 26, 27]);
  });
});
