// Tokens spent per company, day and model: one row each, counted up in the write of the answer.
import { sql } from 'kysely';
import { tenant } from '../db/tenant.ts';
import type { Tx } from '../db/write.ts';

export async function recordUsage(tx: Tx, companyId: number, usage: { model: string; promptTokens: number; completionTokens: number }): Promise<void> {
  const day = new Date().toISOString().slice(0, 10);
  await tenant(tx.db, companyId)
    .insertInto('assistantUsage', { day, model: usage.model, requests: 1, promptTokens: usage.promptTokens, completionTokens: usage.completionTokens })
    .onConflict((oc) =>
      oc.columns(['companyId', 'day', 'model']).doUpdateSet({
        requests: sql`assistant_usage.requests + 1`,
        promptTokens: sql`assistant_usage.prompt_tokens + ${usage.promptTokens}`,
        completionTokens: sql`assistant_usage.completion_tokens + ${usage.completionTokens}`,
        updatedAt: new Date().toISOString(),
      }),
    )
    .execute();
}
