// Pix BR Code ("copia e cola"), the EMV Merchant-Presented-Mode payload of the central bank's
// "Manual do BR Code" (DESIGN §14): each field is ID (2 digits) + length (2 digits) + value, in ID
// order, and field 63 closes the payload with the CRC16-CCITT-FALSE of everything before it,
// "6304" included. Pure (no Node or browser module): the server builds the code, the web and the
// CLI may parse it, and the tests parse back every code the server produces.

export const PIX_GUI = 'br.gov.bcb.pix';
/** Field limits of the manual: name 25, city 15, txid 25 (alphanumeric), key 77. */
export const PIX_LIMITS = { name: 25, city: 15, txid: 25, key: 77, amount: 13 } as const;

export type PixCodeInput = {
  /** The receiving Pix key (e-mail, phone +55…, CPF/CNPJ digits or a random EVP key). */
  key: string;
  /** Merchant name; accents dropped, cut to 25 characters. */
  name: string;
  /** Merchant city; accents dropped, cut to 15 characters. */
  city: string;
  /** The amount in cents; left out, the payer types it. */
  amountCents?: number;
  /** Transaction id (field 62-05): letters and digits up to 25; "***" when none. */
  txid?: string;
  /** A note for the payer (field 26-02), cut so field 26 stays within 99 characters. */
  description?: string;
};

export type ParsedPixCode = {
  key: string;
  name: string;
  city: string;
  amountCents: number | undefined;
  txid: string;
  description: string | undefined;
  /** Field 01: "12" when the code may be paid once only. */
  pointOfInitiation: string | undefined;
  /** Field 26-25: the location URL of a dynamic code. */
  url: string | undefined;
};

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor), 4 upper-case hex digits. */
export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(payload)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * Banks read the name and city as plain ASCII: accents are dropped (São → Sao) and anything else
 * outside printable ASCII removed, so lengths in characters are lengths in bytes.
 */
export function pixText(text: string, max: number): string {
  const ascii = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return ascii.slice(0, max).trimEnd();
}

export type PixKeyKind = 'email' | 'phone' | 'cpf' | 'cnpj' | 'evp';

/** CPF/CNPJ check digits: each is 11 minus the weighted sum mod 11 (0 when that is 10 or 11). */
function checkDigitsOk(digits: string, weights: number[][]): boolean {
  if (/^(\d)\1+$/.test(digits)) return false;
  // The first weights cover the base and give the first check digit; the second, one longer, include it.
  return weights.every((w) => {
    const sum = w.reduce((acc, weight, j) => acc + weight * Number(digits[j]), 0);
    const digit = 11 - (sum % 11);
    return (digit >= 10 ? 0 : digit) === Number(digits[w.length]);
  });
}
const CPF_WEIGHTS = [[10, 9, 8, 7, 6, 5, 4, 3, 2], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]];
const CNPJ_WEIGHTS = [[5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]];

/**
 * Which kind of Pix key this is, as the central bank's directory (DICT) writes them: an e-mail (77
 * characters at most), a phone as +55 with area code, a CPF (11 digits) or CNPJ (14 digits) with
 * valid check digits, or a random key (EVP, a UUID); null for anything a bank would not accept.
 */
export function pixKeyKind(key: string): PixKeyKind | null {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key)) return 'evp';
  if (/^\+55[1-9]{2}\d{8,9}$/.test(key)) return 'phone';
  if (/^\d{11}$/.test(key)) return checkDigitsOk(key, CPF_WEIGHTS) ? 'cpf' : null;
  if (/^\d{14}$/.test(key)) return checkDigitsOk(key, CNPJ_WEIGHTS) ? 'cnpj' : null;
  if (key.length <= PIX_LIMITS.key && /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(key)) return 'email';
  return null;
}

/** A txid the manual accepts: letters and digits only, up to 25; "***" when nothing is left. */
export function pixTxid(txid: string | undefined): string {
  const clean = (txid ?? '').replace(/[^A-Za-z0-9]/g, '').slice(0, PIX_LIMITS.txid);
  return clean || '***';
}

/** Cents as the amount field writes it: "1234.56" (dot, 2 decimals). */
export function centsToPixAmount(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

const field = (id: string, value: string): string => {
  if (value.length > 99) throw new RangeError(`Pix field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
};

/** The BR Code of a static Pix charge, CRC included. Throws RangeError on a key, amount or field out of bounds. */
export function buildPixCode(input: PixCodeInput): string {
  const key = input.key.trim();
  if (!key || key.length > PIX_LIMITS.key) throw new RangeError('The Pix key must have 1 to 77 characters');
  const name = pixText(input.name, PIX_LIMITS.name);
  const city = pixText(input.city, PIX_LIMITS.city);
  if (!name || !city) throw new RangeError('The merchant name and city are required');
  const base = field('00', PIX_GUI) + field('01', key);
  // Field 26 holds at most 99 characters: the description gets what the key leaves.
  const room = 99 - base.length - 4;
  const description = input.description ? pixText(input.description, Math.max(0, room)) : '';
  const account = base + (description ? field('02', description) : '');
  let amount = '';
  if (input.amountCents !== undefined) {
    if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) throw new RangeError('The amount must be a positive number of cents');
    amount = centsToPixAmount(input.amountCents);
    if (amount.length > PIX_LIMITS.amount) throw new RangeError('The amount is too large for a Pix code');
  }
  const payload =
    field('00', '01') +
    field('26', account) +
    field('52', '0000') +
    field('53', '986') +
    (amount ? field('54', amount) : '') +
    field('58', 'BR') +
    field('59', name) +
    field('60', city) +
    field('62', field('05', pixTxid(input.txid))) +
    '6304';
  return payload + crc16(payload);
}

/** Splits a TLV string into its fields; null when a length runs past the end or is not a number. */
function readFields(text: string): Map<string, string> | null {
  const fields = new Map<string, string>();
  let i = 0;
  while (i < text.length) {
    const id = text.slice(i, i + 2);
    const len = text.slice(i + 2, i + 4);
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(len)) return null;
    const end = i + 4 + Number(len);
    if (end > text.length) return null;
    fields.set(id, text.slice(i + 4, end));
    i = end;
  }
  return fields;
}

/**
 * Reads a BR Code back; null when it is not a valid Pix code (bad structure, wrong CRC, another
 * GUI, a currency other than BRL, no key nor URL).
 */
export function parsePixCode(code: string): ParsedPixCode | null {
  const text = code.trim();
  if (text.length < 8 || text.slice(-8, -4) !== '6304') return null;
  if (crc16(text.slice(0, -4)) !== text.slice(-4).toUpperCase()) return null;
  const fields = readFields(text);
  if (!fields || fields.get('00') !== '01') return null;
  const account = readFields(fields.get('26') ?? '');
  if (!account || account.get('00')?.toLowerCase() !== PIX_GUI) return null;
  const key = account.get('01') ?? '';
  const url = account.get('25');
  if (!key && !url) return null;
  if (fields.get('53') !== '986' || fields.get('58') !== 'BR') return null;
  const amount = fields.get('54');
  if (amount !== undefined && !/^\d+(\.\d{1,2})?$/.test(amount)) return null;
  const extra = readFields(fields.get('62') ?? '');
  return {
    key,
    name: fields.get('59') ?? '',
    city: fields.get('60') ?? '',
    amountCents: amount === undefined ? undefined : Math.round(Number(amount) * 100),
    txid: extra?.get('05') ?? '***',
    description: account.get('02'),
    pointOfInitiation: fields.get('01'),
    url,
  };
}
