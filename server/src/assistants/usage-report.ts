// GET /prompt/usage: what a company's AI spent (assistant_usage, written with each answer), per day
// and model for the latest `days` days, newest first, with the totals.
import type { PromptUsage } from '@zapdesk/sync';
import type { Database } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';

export async function findPromptUsage(db: Database, companyId: number, days: number, now = new Date()): Promise<PromptUsage> {
  const since = new Date(now.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const rows = await tenant(db, companyId)
    .selectFrom('assistantUsage')
    .select(['assistantUsage.day', 'assistantUsage.model', 'assistantUsage.requests', 'assistantUsage.promptTokens', 'assistantUsage.completionTokens'])
    .where('assistantUsage.day', '>=', since)
    .orderBy('assistantUsage.day', 'desc')
    .orderBy('assistantUsage.model')
    .execute();
  const usage = rows.map((r) => ({ day: r.day, model: r.model, requests: Number(r.requests), promptTokens: Number(r.promptTokens), completionTokens: Number(r.completionTokens) }));
  const totals = usage.reduce((t, r) => ({ requests: t.requests + r.requests, promptTokens: t.promptTokens + r.promptTokens, completionTokens: t.completionTokens + r.completionTokens }), { requests: 0, promptTokens: 0, completionTokens: 0 });
  return { usage, totals };
}
