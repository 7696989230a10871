// Tokens spent per company, day and model: one row each, counted up in the write of the answer.
import { sql } from 'kysely';
import { prepare } from '../db/prepared.ts';
import type { Tx } from '../db/write.ts';

export async function recordUsage(tx: Tx, companyId: number, usage: { model: string; promptTokens: number; completionTokens: number }): Promise<void> {
  const now = new Date().toISOString();
  await countUsage(tx.db, { companyId, day: now.slice(0, 10), ...usage, now });
}

// Each answer counts here: compiled once (../db/prepared.ts).
const countUsage = prepare((db, p: { companyId: number; day: string; model: string; promptTokens: number; completionTokens: number; now: string }) =>
  db
    .insertInto('assistantUsage')
    .values({ companyId: p.companyId, day: p.day, model: p.model, requests: 1, promptTokens: p.promptTokens, completionTokens: p.completionTokens })
    .onConflict((oc) =>
      oc.columns(['companyId', 'day', 'model']).doUpdateSet({
        requests: sql`assistant_usage.requests + 1`,
        promptTokens: sql`assistant_usage.prompt_tokens + ${p.promptTokens}`,
        completionTokens: sql`assistant_usage.completion_tokens + ${p.completionTokens}`,
        updatedAt: p.now,
      }),
    ),
);
