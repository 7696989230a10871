import { describe, expect, it } from 'vitest';
import { checkoutSchema, invoiceStatusOf, pixWebhookSchema } from './invoice.ts';

describe('invoiceStatusOf (spec/03 §4)', () => {
  const now = new Date('2027-03-10T15:00:00Z');
  it('is paid whatever the date, open through its due day, expired from the next day', () => {
    expect(invoiceStatusOf('paid', '2020-01-01T00:00:00.000Z', now)).toBe('paid');
    expect(invoiceStatusOf('open', '2027-03-10T00:00:00.000Z', now)).toBe('open');
    expect(invoiceStatusOf('open', '2027-03-11T00:00:00.000Z', now)).toBe('open');
    expect(invoiceStatusOf('open', '2027-03-09T23:59:59.999Z', now)).toBe('expired');
  });
});

describe('checkoutSchema (spec/03 §3, §5)', () => {
  const step1 = { invoiceId: 3, firstName: 'Ana', address2: '10', city: 'Recife', zipcode: '50000-000', country: 'BR' };
  it('needs the first step fields and the invoice; card fields pass through unchecked', () => {
    expect(checkoutSchema.parse({ ...step1, cardNumber: '4111', cvv: '123', plan: { id: 1 }, price: 49 })).toMatchObject({ invoiceId: 3, firstName: 'Ana' });
    const missing = checkoutSchema.safeParse({ invoiceId: 3 });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['address2', 'city', 'country', 'firstName', 'zipcode']);
    expect(checkoutSchema.safeParse({ ...step1, zipcode: '!!' }).success).toBe(false);
    expect(checkoutSchema.safeParse({ ...step1, zipcode: 'abc' }).success).toBe(false);
    expect(checkoutSchema.safeParse({ ...step1, zipcode: 'SW1A 1AA' }).success).toBe(true);
    expect(checkoutSchema.safeParse({ ...step1, invoiceId: 'x' }).success).toBe(false);
  });
});

describe('pixWebhookSchema', () => {
  it('takes the Pix API notice and refuses amounts that are not reais with up to 2 decimals', () => {
    expect(pixWebhookSchema.parse({ pix: [{ txid: 'ZD1', valor: '49.00', endToEndId: 'E1' }] }).pix[0]!.valor).toBe('49.00');
    expect(pixWebhookSchema.safeParse({ pix: [{ txid: 'ZD1', valor: '49,00' }] }).success).toBe(false);
    expect(pixWebhookSchema.safeParse({ pix: [] }).success).toBe(false);
  });
});
