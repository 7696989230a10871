// Whether each company has an active phrase campaign, kept for a moment: the inbound pipeline asks it
// for every batch of messages (inbound/store.ts). A write that creates, changes or deletes a phrase
// campaign forgets the company's answer once it commits (phraseCampaignsChanged), so the next message
// on this instance sees it; another instance (PostgreSQL, DESIGN §11) within PHRASE_HINT_TTL_MS, as
// the connections' context does (inbound/connection-context.ts). Per app: keyed by its config.
import type { Config } from '../config.ts';
import { prepare } from '../db/prepared.ts';
import type { Reader, Tx } from '../db/write.ts';

const PHRASE_HINT_TTL_MS = 2_000;

type PhraseHints = { answers: Map<number, { at: number; active: boolean }>; generation: Map<number, number> };
const phraseHints = new WeakMap<Config, PhraseHints>();

const selectActivePhraseCampaign = prepare((db, p: { companyId: number }) =>
  db.selectFrom('flowCampaigns').select('flowCampaigns.id').where('flowCampaigns.companyId', '=', p.companyId).where('flowCampaigns.status', '=', 1).limit(1),
);

/**
 * Whether a phrase campaign could start a flow for a message of this company: the inbound pipeline
 * opens no write for a message nothing would answer.
 */
export async function mayStartPhraseFlow(r: Pick<Reader, 'db' | 'config'>, companyId: number): Promise<boolean> {
  let hints = phraseHints.get(r.config);
  if (!hints) phraseHints.set(r.config, (hints = { answers: new Map(), generation: new Map() }));
  const now = Date.now();
  const kept = hints.answers.get(companyId);
  if (kept && now - kept.at < PHRASE_HINT_TTL_MS) return kept.active;
  const generation = hints.generation.get(companyId) ?? 0;
  const active = (await selectActivePhraseCampaign(r.db, { companyId })).rows.length > 0;
  // A change committed while this read ran may not be in it: then the answer is not kept.
  if ((hints.generation.get(companyId) ?? 0) === generation) hints.answers.set(companyId, { at: now, active });
  return active;
}

/** Registers, in a write that creates, changes or deletes a phrase campaign, that the company's kept answer goes at its commit. */
export function phraseCampaignsChanged(tx: Tx, companyId: number): void {
  tx.effects.afterCommit((app) => {
    const hints = phraseHints.get(app.config);
    if (!hints) return;
    hints.answers.delete(companyId);
    hints.generation.set(companyId, (hints.generation.get(companyId) ?? 0) + 1);
  });
}
