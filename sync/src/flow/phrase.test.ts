import { describe, expect, it } from 'vitest';
import { flowNameSchema, matchPhrase, phraseCampaignCreateSchema, selectPhraseCampaign, type PhraseCampaignRule } from './phrase.ts';

describe('matchPhrase', () => {
  it('exact: the whole message is the phrase, ignoring case, accents, spacing and end punctuation', () => {
    expect(matchPhrase('Promoção de Natal', '  promocao   DE natal!! ', 'exact')).toBe(true);
    expect(matchPhrase('oi', 'Oi?', 'exact')).toBe(true);
    expect(matchPhrase('oi', '👋 oi', 'exact')).toBe(true);
    expect(matchPhrase('oi', 'oi, tudo bem?', 'exact')).toBe(false);
    expect(matchPhrase('promo natal', 'promo-natal', 'exact')).toBe(false); // inner punctuation counts
  });

  it('contains: the phrase appears as whole words', () => {
    expect(matchPhrase('oi', 'Oi, tudo bem?', 'contains')).toBe(true);
    expect(matchPhrase('Black Friday', 'quero a oferta da black   FRIDAY por favor', 'contains')).toBe(true);
    expect(matchPhrase('oi', 'o boi fugiu', 'contains')).toBe(false);
    expect(matchPhrase('oi', 'boi oi', 'contains')).toBe(true); // a later occurrence counts
    expect(matchPhrase('cafe', 'um CAFÉ, por favor', 'contains')).toBe(true);
    expect(matchPhrase('2a via', 'preciso da 2ª via', 'contains')).toBe(false); // ª is a letter of its own
  });

  it('never matches an empty or punctuation-only phrase', () => {
    for (const mode of ['exact', 'contains'] as const) {
      expect(matchPhrase('', '', mode)).toBe(false);
      expect(matchPhrase('  ', 'anything', mode)).toBe(false);
      expect(matchPhrase('!!', '!!', mode)).toBe(false);
    }
  });
});

describe('selectPhraseCampaign', () => {
  const c = (id: number, phrase: string, over: Partial<PhraseCampaignRule> = {}): PhraseCampaignRule => ({ id, flowId: id * 10, whatsappId: null, phrase, status: true, ...over });

  it('ignores inactive campaigns and campaigns of another connection', () => {
    expect(selectPhraseCampaign([c(1, 'oi', { status: false })], 'oi', 5)).toBeNull();
    expect(selectPhraseCampaign([c(1, 'oi', { whatsappId: 6 })], 'oi', 5)).toBeNull();
    expect(selectPhraseCampaign([c(1, 'oi', { whatsappId: 5 })], 'oi', 5)?.id).toBe(1);
    expect(selectPhraseCampaign([c(1, 'oi')], 'oi tudo bem', 5)).toBeNull(); // exact by default
  });

  it('prefers a whole-message match, then the longer phrase, then the older campaign', () => {
    const campaigns = [c(3, 'quero comprar', { matchMode: 'contains' }), c(2, 'comprar', { matchMode: 'contains' }), c(4, 'quero comprar agora'), c(1, 'comprar', { matchMode: 'contains' })];
    expect(selectPhraseCampaign(campaigns, 'Quero comprar agora', 5)?.id).toBe(4);
    expect(selectPhraseCampaign(campaigns, 'eu quero comprar hoje', 5)?.id).toBe(3);
    expect(selectPhraseCampaign(campaigns, 'vou comprar', 5)?.id).toBe(1);
  });
});

describe('flow and phrase campaign schemas', () => {
  it('checks the flow name with the spec\'s messages', () => {
    expect(flowNameSchema.safeParse('').error?.issues[0]?.message).toBe('Digite um nome!');
    expect(flowNameSchema.safeParse('a').error?.issues[0]?.message).toBe('Muito curto!');
    expect(flowNameSchema.safeParse('a'.repeat(51)).error?.issues[0]?.message).toBe('Muito longo!');
    expect(flowNameSchema.parse('  Boas-vindas ')).toBe('Boas-vindas');
  });

  it('needs name, flow and phrase for a phrase campaign', () => {
    const r = phraseCampaignCreateSchema.safeParse({ name: '', flowId: '', phrase: ' ' });
    expect(r.error?.issues.map((i) => i.path[0])).toEqual(['name', 'flowId', 'phrase']);
    expect(phraseCampaignCreateSchema.parse({ name: 'Natal', flowId: '3', whatsappId: '', phrase: ' natal ' })).toEqual({ name: 'Natal', flowId: 3, whatsappId: null, phrase: 'natal' });
  });
});
