import { z } from 'zod';
import { idSchema } from '../domain/common.ts';
import { foldFlowText } from './text.ts';

// Phrase campaigns (spec/03 §2, §3, §5, §7: name, flowId, whatsappId, phrase, status) start a flow
// when a customer's message matches the phrase; and the flow's own name rules (spec/03 §5). The
// match is pure and shared, so the server's trigger, the campaign page's preview and the editor's
// test panel agree. README.md states the rules.

export const FLOW_PHRASE_MATCH_MODES = ['exact', 'contains'] as const;
export type FlowPhraseMatchMode = (typeof FLOW_PHRASE_MATCH_MODES)[number];

/** Leading and trailing punctuation, symbols and emoji do not count ("Oi!" is "oi"). */
const EDGES = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const core = (text: string) => foldFlowText(text).replace(EDGES, '');
const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);

/** Whether two phrases match the same messages ("Order!" and "order"): folded as matchPhrase folds them. */
export const samePhrase = (a: string, b: string): boolean => core(a) === core(b);

/**
 * Whether `message` triggers `phrase`. Both are folded first: case and accents ignored, whitespace
 * trimmed and collapsed, punctuation at the ends ignored. `exact`: the whole message is the phrase.
 * `contains`: the phrase appears in the message as whole words ("oi" is in "oi, tudo bem?" but not
 * in "boi"). An empty phrase matches nothing.
 */
export function matchPhrase(phrase: string, message: string, mode: FlowPhraseMatchMode): boolean {
  const p = core(phrase);
  if (p === '') return false;
  const m = core(message);
  if (mode === 'exact') return m === p;
  for (let at = m.indexOf(p); at !== -1; at = m.indexOf(p, at + 1)) {
    if (!isWordChar(m[at - 1]) && !isWordChar(m[at + p.length])) return true;
  }
  return false;
}

const nameSchema = z.string({ error: 'Digite um nome!' }).trim().min(1, { error: 'Digite um nome!', abort: true }).min(2, 'Muito curto!').max(50, 'Muito longo!');

/** Flow name (spec/03 §5): 2 to 50 characters. */
export const flowNameSchema = nameSchema;
export const flowCreateSchema = z.object({ name: flowNameSchema });
export const flowRenameSchema = z.object({ flowId: idSchema, name: flowNameSchema });
export const flowDuplicateSchema = z.object({ flowId: idSchema });

const phraseFields = {
  name: nameSchema,
  flowId: idSchema,
  /** "A connection should be chosen" (spec/03 §5): null means every connection of the company. */
  whatsappId: z.preprocess((v) => (v === '' || v === 0 ? null : v), idSchema.nullable()).optional(),
  phrase: z.string({ error: 'Required' }).trim().min(1, 'Required').max(500),
  /** Ours: how the phrase matches (spec/03 is silent; the default is the whole message). */
  matchMode: z.enum(FLOW_PHRASE_MATCH_MODES).optional(),
  status: z.boolean().optional(),
};
/** POST /flowcampaign. */
export const phraseCampaignCreateSchema = z.object(phraseFields);
export type PhraseCampaignCreateInput = z.infer<typeof phraseCampaignCreateSchema>;
/** PUT /flowcampaign (id in the body). */
export const phraseCampaignUpdateSchema = z.object({ ...phraseFields, id: idSchema });
export type PhraseCampaignUpdateInput = z.infer<typeof phraseCampaignUpdateSchema>;

export type PhraseCampaignRule = {
  id: number;
  flowId: number;
  whatsappId: number | null;
  phrase: string;
  matchMode?: FlowPhraseMatchMode;
  status: boolean;
};

/**
 * The campaign a message on connection `whatsappId` triggers, if any. Inactive campaigns never
 * match; a campaign bound to another connection does not either. Several matching: a whole-message
 * match beats a contained one, then the longer phrase, then the older campaign (lower id).
 */
export function selectPhraseCampaign<T extends PhraseCampaignRule>(campaigns: readonly T[], message: string, whatsappId: number): T | null {
  let best: T | null = null;
  let bestRank: [number, number, number] | null = null;
  for (const c of campaigns) {
    if (!c.status || (c.whatsappId !== null && c.whatsappId !== whatsappId)) continue;
    const mode = c.matchMode ?? 'exact';
    if (!matchPhrase(c.phrase, message, mode)) continue;
    const rank: [number, number, number] = [mode === 'exact' ? 1 : 0, core(c.phrase).length, -c.id];
    if (!bestRank || rank[0] > bestRank[0] || (rank[0] === bestRank[0] && (rank[1] > bestRank[1] || (rank[1] === bestRank[1] && rank[2] > bestRank[2])))) {
      best = c;
      bestRank = rank;
    }
  }
  return best;
}
