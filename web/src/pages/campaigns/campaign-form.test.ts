import { describe, expect, it } from 'vitest';
import type { Campaign } from '@zapdesk/sync';
import { campaignBody, fieldAccess, formFromCampaign, insertToken, previewMessage, rowActions, settingsFromRows, variableTokens } from './campaign-form.ts';

const NOW = new Date('2026-03-10T12:00:00Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000).toISOString();

const campaign = (patch: Partial<Campaign>): Campaign =>
  ({
    id: 1, name: 'Promo', status: 'INATIVA', confirmation: false, scheduledAt: null, completedAt: null,
    message1: 'Oi {primeiro-nome}', message2: '', message3: '', message4: '', message5: '',
    confirmationMessage1: '', confirmationMessage2: '', confirmationMessage3: '', confirmationMessage4: '', confirmationMessage5: '',
    whatsappId: 3, whatsapp: { id: 3, name: 'Main' }, contactListId: 7, contactList: { id: 7, name: 'Leads' }, tagId: null, fileListId: null,
    mediaPath: null, mediaName: null, companyId: 1, editable: true, deleting: false, createdAt: at(0), updatedAt: at(0), version: 1,
    ...patch,
  }) as Campaign;

describe('fieldAccess', () => {
  it('follows spec/03 §4: inactive or programmed more than an hour ahead is editable, cancelled only its messages', () => {
    expect(fieldAccess(null, NOW)).toBe('all');
    expect(fieldAccess(campaign({ status: 'INATIVA' }), NOW)).toBe('all');
    expect(fieldAccess(campaign({ status: 'PROGRAMADA', scheduledAt: at(61) }), NOW)).toBe('all');
    expect(fieldAccess(campaign({ status: 'PROGRAMADA', scheduledAt: at(59) }), NOW)).toBe('none');
    expect(fieldAccess(campaign({ status: 'EM_ANDAMENTO' }), NOW)).toBe('none');
    expect(fieldAccess(campaign({ status: 'FINALIZADA' }), NOW)).toBe('none');
    expect(fieldAccess(campaign({ status: 'CANCELADA' }), NOW)).toBe('messages');
  });
});

describe('campaignBody', () => {
  it('sends ids as numbers, none as null, and the schedule as an ISO instant', () => {
    const form = { ...formFromCampaign(campaign({})), scheduledAt: '2026-03-11T09:30' };
    const body = campaignBody(form, 'all');
    expect(body).toMatchObject({ name: 'Promo', whatsappId: 3, contactListId: 7, tagListId: null, fileListId: null, confirmation: false, message1: 'Oi {primeiro-nome}' });
    expect(body.scheduledAt).toBe(new Date('2026-03-11T09:30').toISOString());
    expect(campaignBody({ ...form, scheduledAt: '' }, 'all').scheduledAt).toBeNull();
  });

  it('sends only the message fields of a cancelled campaign', () => {
    const body = campaignBody(formFromCampaign(campaign({ status: 'CANCELADA' })), 'messages');
    expect(Object.keys(body).sort()).toEqual([1, 2, 3, 4, 5].flatMap((n) => [`confirmationMessage${n}`, `message${n}`]).sort());
  });

  it('reads a campaign back into the form (tagId is the form field tagListId)', () => {
    expect(formFromCampaign(campaign({ tagId: 4 })).tagListId).toBe('4');
    expect(formFromCampaign(null)).toMatchObject({ name: '', whatsappId: '', scheduledAt: '', confirmation: false });
  });
});

describe('rowActions', () => {
  it('offers stop, restart and delete as the status machine allows', () => {
    expect(rowActions('INATIVA', true)).toEqual({ stop: false, restart: false, report: true, delete: true });
    expect(rowActions('PROGRAMADA', true)).toEqual({ stop: true, restart: false, report: true, delete: true });
    expect(rowActions('EM_ANDAMENTO', true)).toEqual({ stop: true, restart: false, report: true, delete: false });
    expect(rowActions('CANCELADA', true)).toEqual({ stop: false, restart: true, report: true, delete: true });
    expect(rowActions('FINALIZADA', false)).toEqual({ stop: false, restart: false, report: true, delete: false });
  });

  it('offers only the delete of a campaign whose delete was cut short (it finishes it)', () => {
    expect(rowActions('CANCELADA', true, true)).toEqual({ stop: false, restart: false, report: false, delete: true });
    expect(rowActions('FINALIZADA', false, true)).toEqual({ stop: false, restart: false, report: false, delete: false });
  });
});

describe('message editor', () => {
  it('offers the built-in variables then the custom ones, each once', () => {
    expect(variableTokens([{ key: 'cupom' }, { key: 'nome' }])).toEqual(['{nome}', '{primeiro-nome}', '{email}', '{numero}', '{saudacao}', '{cupom}']);
  });

  it('types a token over the selection and puts the caret after it', () => {
    expect(insertToken('Oi , tudo bem?', 3, 3, '{nome}')).toEqual({ text: 'Oi {nome}, tudo bem?', caret: 9 });
    expect(insertToken('Oi XX!', 3, 5, '{nome}')).toEqual({ text: 'Oi {nome}!', caret: 9 });
    expect(insertToken('', 10, 10, '{email}')).toEqual({ text: '{email}', caret: 7 });
  });

  it('previews with the shared renderer: names, greeting in the zone, custom variables', () => {
    const contact = { name: 'Maria Souza', number: '5511988887777', email: 'maria@example.com' };
    const text = '{saudacao}, {primeiro-nome}! {nome} <{email}> {numero} cupom {cupom} {desconhecida}';
    const out = previewMessage(text, contact, { timeZone: 'America/Sao_Paulo', variables: [{ key: 'cupom', value: 'BF10' }] }, NOW);
    // 12:00 UTC is 09:00 in São Paulo.
    expect(out).toBe('Bom dia, Maria! Maria Souza <maria@example.com> 5511988887777 cupom BF10 {desconhecida}');
  });
});

describe('settingsFromRows', () => {
  it('fills the defaults and ignores what does not parse', () => {
    const s = settingsFromRows([
      { key: 'messageInterval', value: '0' },
      { key: 'variables', value: '[{"key":"cupom","value":"BF10"}]' },
      { key: 'hourlyLimit', value: 'not json' },
      { key: 'unknown', value: '1' },
    ]);
    expect(s).toMatchObject({ messageInterval: 0, longerIntervalAfter: 20, greaterInterval: 60, hourlyLimit: 100, variables: [{ key: 'cupom', value: 'BF10' }] });
  });
});

describe('texts built from wire values', () => {
  it('words every campaign status, recipient state and total in every language', async () => {
    const { CAMPAIGN_STATUSES, SHIPPING_STATES } = await import('@zapdesk/sync');
    const { strings } = await import('./strings.ts');
    for (const lang of ['en', 'pt', 'es'] as const) {
      const s = strings[lang];
      expect(CAMPAIGN_STATUSES.filter((k) => !s.statuses[k])).toEqual([]);
      expect(SHIPPING_STATES.filter((k) => !s.states[k])).toEqual([]);
    }
  });
});

describe('report pages', () => {
  it('reads the pages of the rows in view, 100 rows a page', async () => {
    const { pagesFor } = await import('./campaign-form.ts');
    expect(pagesFor(0, 30)).toEqual([1]);
    expect(pagesFor(88, 130)).toEqual([1, 2]);
    expect(pagesFor(9_950, 9_999)).toEqual([100]);
    expect(pagesFor(0, -1)).toEqual([1]);
  });
});
