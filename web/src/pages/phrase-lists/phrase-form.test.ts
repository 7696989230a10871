import { describe, expect, it } from 'vitest';
import { bodyOf, checkPhraseForm, formOf } from './phrase-form.ts';

describe('phrase campaign form (spec/03 §5)', () => {
  it('flags the empty name, flow and phrase', () => {
    expect(checkPhraseForm(formOf(null))).toEqual({ ok: false, errors: { name: 'flowbuilders.nameRequired', flowId: 'phrase-lists.flowRequired', phrase: 'phrase-lists.phraseRequired' } });
    expect(checkPhraseForm({ ...formOf(null), name: 'x', flowId: '3', phrase: 'oi' })).toEqual({ ok: false, errors: { name: 'flowbuilders.nameShort' } });
  });

  it('sends numbers, null for every connection, the match mode and the status', () => {
    expect(checkPhraseForm({ name: 'Oi da loja', flowId: '3', whatsappId: '', phrase: ' oi ', matchMode: 'exact', status: true })).toEqual({
      ok: true,
      body: { name: 'Oi da loja', flowId: 3, whatsappId: null, phrase: 'oi', matchMode: 'exact', status: true },
    });
    expect(checkPhraseForm({ name: 'Promo', flowId: '3', whatsappId: '2', phrase: 'promoção', matchMode: 'contains', status: false })).toMatchObject({ ok: true, body: { whatsappId: 2, matchMode: 'contains', status: false } });
  });

  it('round-trips a saved record (the list toggles status with this body)', () => {
    const saved = { id: 4, name: 'Oi', flowId: 3, whatsappId: 2, phrase: 'oi', status: true };
    expect(formOf(saved)).toEqual({ name: 'Oi', flowId: '3', whatsappId: '2', phrase: 'oi', matchMode: 'exact', status: true });
    expect(bodyOf(saved)).toEqual({ name: 'Oi', flowId: 3, whatsappId: 2, phrase: 'oi', matchMode: 'exact', status: true });
  });
});
