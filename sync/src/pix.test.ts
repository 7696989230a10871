import { describe, expect, it } from 'vitest';
import { buildPixCode, centsToPixAmount, crc16, parsePixCode, pixKeyKind, pixText } from './pix.ts';

// The static example of the central bank's "Manual do BR Code" (random key, no amount, no txid).
const MANUAL_STATIC =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
// The manual's dynamic example (location URL, amount 123.45, txid RP12345678-2019).
const MANUAL_DYNAMIC =
  '00020101021226720014br.gov.bcb.pix2550bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd4415204000053039865406123.455802BR5913Fulano de Tal6008BRASILIA62190515RP12345678-2019630445C8';

describe('crc16', () => {
  it('is CRC-16/CCITT-FALSE: the check value of "123456789" is 29B1', () => {
    expect(crc16('123456789')).toBe('29B1');
  });

  it('gives the manual examples their CRC', () => {
    expect(crc16(MANUAL_STATIC.slice(0, -4))).toBe('1D3D');
    expect(crc16(MANUAL_DYNAMIC.slice(0, -4))).toBe('45C8');
  });
});

describe('buildPixCode', () => {
  it('builds the manual static example byte for byte', () => {
    expect(buildPixCode({ key: '123e4567-e12b-12d1-a456-426655440000', name: 'Fulano de Tal', city: 'BRASILIA' })).toBe(MANUAL_STATIC);
  });

  it('writes the amount with a dot and two decimals, fields in ID order with their lengths', () => {
    const code = buildPixCode({ key: 'pix@zapdesk.test', name: 'Zapdesk', city: 'Sao Paulo', amountCents: 123456, txid: 'ZD000042' });
    expect(code).toBe(
      '00020126380014br.gov.bcb.pix0116pix@zapdesk.test52040000530398654071234.565802BR5907Zapdesk6009Sao Paulo62120508ZD0000426304' + crc16(code.slice(0, -4)),
    );
    expect(code.slice(-4)).toMatch(/^[0-9A-F]{4}$/);
  });

  it('drops accents and cuts the name at 25 and the city at 15 characters', () => {
    const code = buildPixCode({ key: '+5511999998888', name: 'Associação Beneficente São João Batista', city: 'São José dos Campos do Norte', amountCents: 5 });
    const parsed = parsePixCode(code)!;
    expect(parsed.name).toBe('Associacao Beneficente Sa');
    expect(parsed.name.length).toBe(25);
    expect(parsed.city).toBe('Sao Jose dos Ca');
    expect(parsed.amountCents).toBe(5);
    expect(code).toContain('54040.05');
  });

  it('keeps the txid to letters and digits, 25 at most', () => {
    const parsed = parsePixCode(buildPixCode({ key: 'k', name: 'N', city: 'C', txid: 'inv-0042_abc/ÁÉ-1234567890123456789' }))!;
    expect(parsed.txid).toBe('inv0042abc123456789012345');
  });

  it('refuses what cannot be a Pix code', () => {
    expect(() => buildPixCode({ key: '', name: 'N', city: 'C' })).toThrow(RangeError);
    expect(() => buildPixCode({ key: 'k'.repeat(78), name: 'N', city: 'C' })).toThrow(RangeError);
    expect(() => buildPixCode({ key: 'k', name: 'N', city: 'C', amountCents: 0 })).toThrow(RangeError);
    expect(() => buildPixCode({ key: 'k', name: 'N', city: 'C', amountCents: 12.5 })).toThrow(RangeError);
    expect(() => buildPixCode({ key: 'k', name: '   ', city: 'C' })).toThrow(RangeError);
  });

  it('fits the description into the 99 characters of field 26', () => {
    const code = buildPixCode({ key: '123e4567-e12b-12d1-a456-426655440000', name: 'N', city: 'C', description: 'Fatura '.repeat(20) });
    const parsed = parsePixCode(code)!;
    expect(parsed.description!.length).toBeLessThanOrEqual(99 - 18 - 40 - 4);
    expect(parsed.description!.startsWith('Fatura Fatura')).toBe(true);
  });
});

describe('parsePixCode', () => {
  it('reads the manual examples', () => {
    expect(parsePixCode(MANUAL_STATIC)).toEqual({
      key: '123e4567-e12b-12d1-a456-426655440000', name: 'Fulano de Tal', city: 'BRASILIA', amountCents: undefined, txid: '***', description: undefined, pointOfInitiation: undefined, url: undefined,
    });
    expect(parsePixCode(MANUAL_DYNAMIC)).toMatchObject({ key: '', url: 'bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd441', amountCents: 12345, txid: 'RP12345678-2019', pointOfInitiation: '12' });
  });

  it('round-trips amounts, long names and accents', () => {
    for (const amountCents of [1, 99, 100, 4900, 123456, 99999999, 1234567890]) {
      const input = { key: 'financeiro@empresa.com.br', name: 'Éder Conceição & Filhos Comércio Ltda', city: 'Florianópolis', amountCents, txid: `ZD${amountCents}` };
      const parsed = parsePixCode(buildPixCode(input))!;
      expect(parsed).toMatchObject({ key: input.key, amountCents, txid: `ZD${amountCents}`, name: pixText(input.name, 25), city: 'Florianopolis' });
      expect(centsToPixAmount(amountCents)).toMatch(/^\d+\.\d{2}$/);
    }
  });

  it('refuses a code whose CRC or structure is wrong', () => {
    expect(parsePixCode(MANUAL_STATIC.slice(0, -4) + '0000')).toBeNull();
    expect(parsePixCode(MANUAL_STATIC.replace('Fulano', 'Fulana'))).toBeNull();
    const other = '00020126180014br.gov.bcb.xyz5204000053039865802BR5901N6001C62070503***6304';
    expect(parsePixCode(other + crc16(other))).toBeNull();
    const truncated = '000201269900';
    expect(parsePixCode(truncated + '6304' + crc16(truncated + '6304'))).toBeNull();
    expect(parsePixCode('')).toBeNull();
  });
});

describe('pixKeyKind', () => {
  it('knows the five kinds of key of the directory', () => {
    expect(pixKeyKind('123e4567-e12b-12d1-a456-426655440000')).toBe('evp');
    expect(pixKeyKind('+5511999998888')).toBe('phone');
    expect(pixKeyKind('+551133334444')).toBe('phone');
    expect(pixKeyKind('12345678909')).toBe('cpf');
    expect(pixKeyKind('11144477735')).toBe('cpf');
    expect(pixKeyKind('12345678000195')).toBe('cnpj');
    expect(pixKeyKind('11222333000181')).toBe('cnpj');
    expect(pixKeyKind('financeiro@empresa.com.br')).toBe('email');
  });

  it('refuses what a bank would not accept', () => {
    for (const key of ['', 'chave', 'a b@c.com', 'abc@', '@x.com', '+1 555 0100', '+5511999', '12345678900', '11111111111', '12345678000100', '00000000000000', `${'a'.repeat(70)}@empresa.com`, '123e4567-e12b-12d1-a456-42665544000g']) {
      expect(pixKeyKind(key), key).toBeNull();
    }
  });
});
