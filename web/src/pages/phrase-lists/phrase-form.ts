// The phrase campaign dialog's form, pure: from a record to fields and back to the body of POST or
// PUT /flowcampaign, checked with sync's schemas (spec/03 §5: name, flow and phrase required; a
// connection should be chosen, none meaning every connection of the company).
import { phraseCampaignCreateSchema, type FlowPhraseMatchMode, type PhraseCampaignCreateInput } from '@zapdesk/sync';
import { flowNameProblem, type PhraseCampaign } from '../flowbuilders/flow-wire.ts';

export type PhraseForm = { name: string; flowId: string; whatsappId: string; phrase: string; matchMode: FlowPhraseMatchMode; status: boolean };
/** Field → a `phrase-lists.*` key (the name's come from the flow list's rules, `flowbuilders.*`). */
export type PhraseErrors = Partial<Record<keyof PhraseForm, string>>;

export function formOf(c: PhraseCampaign | null): PhraseForm {
  return {
    name: c?.name ?? '',
    flowId: c ? String(c.flowId) : '',
    whatsappId: c?.whatsappId ? String(c.whatsappId) : '',
    phrase: c?.phrase ?? '',
    matchMode: c?.matchMode ?? 'exact',
    status: c?.status ?? true,
  };
}

/** A saved record as the body of a PUT (its status toggled by the caller). */
export function bodyOf(c: PhraseCampaign): PhraseCampaignCreateInput {
  return { name: c.name, flowId: c.flowId, whatsappId: c.whatsappId, phrase: c.phrase, matchMode: c.matchMode ?? 'exact', status: c.status };
}

export function checkPhraseForm(form: PhraseForm): { ok: true; body: PhraseCampaignCreateInput } | { ok: false; errors: PhraseErrors } {
  const raw = {
    name: form.name,
    flowId: form.flowId === '' ? undefined : Number(form.flowId),
    whatsappId: form.whatsappId === '' ? null : Number(form.whatsappId),
    phrase: form.phrase,
    matchMode: form.matchMode,
    status: form.status,
  };
  const errors: PhraseErrors = {};
  const nameProblem = flowNameProblem(form.name);
  if (nameProblem) errors.name = `flowbuilders.${nameProblem}`;
  if (raw.flowId === undefined) errors.flowId = 'phrase-lists.flowRequired';
  if (form.phrase.trim() === '') errors.phrase = 'phrase-lists.phraseRequired';
  const parsed = phraseCampaignCreateSchema.safeParse(raw);
  if (!parsed.success) for (const issue of parsed.error.issues) errors[issue.path[0] as keyof PhraseForm] ??= issue.path[0] === 'phrase' ? 'phrase-lists.phraseTooLong' : 'phrase-lists.invalid';
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, body: parsed.success ? parsed.data : (raw as PhraseCampaignCreateInput) };
}
