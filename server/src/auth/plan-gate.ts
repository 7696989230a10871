// The plan gate (spec/01 §3, §6; spec/03 §6): a feature the company's plan lacks is refused by the
// server, whatever the web shows. One check, three callers: the REST middleware `requirePlan`, the
// push (a server mutator that declares `plan`, sync/mutators.ts) and any service that needs it
// inside its write (pass the transaction, and the plan read is the write's own snapshot).
// The refusal is the catalogue's ERR_NO_PERMISSION (403): the catalogue has no plan-specific code.
// Campaigns are gated by the plan flag alone: the company setting campaignsEnabled (the web's cshow)
// is an admin's own switch, so it may show pages but cannot grant what the plan does not include.
import { AppError, planAllows, type PlanFeature } from '@zapdesk/sync';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.ts';
import type { Database } from '../db/database.ts';
import { prepare } from '../db/prepared.ts';
import { toPlanFlags } from '../modules/plans/dto.ts';

const FEATURE_NAMES: Record<PlanFeature, string> = {
  campaigns: 'campaigns',
  schedules: 'scheduled messages',
  internalChat: 'the internal chat',
  externalApi: 'the external API',
  kanban: 'the kanban',
  openAi: 'AI prompts',
  integrations: 'integrations',
};

// Gated routes run it on every request: compiled once (db/prepared.ts).
const findCompanyPlan = prepare((db, p: { companyId: number }) =>
  db.selectFrom('companies').innerJoin('plans', 'plans.id', 'companies.planId').selectAll('plans').where('companies.id', '=', p.companyId),
);

const isCompanyId = (id: number) => Number.isInteger(id) && id > 0;

/** Whether the company's current plan includes `feature` (a company without a plan has none). */
export async function companyPlanAllows(db: Database, companyId: number, feature: PlanFeature): Promise<boolean> {
  if (!isCompanyId(companyId)) return planAllows(undefined, feature);
  const [plan] = (await findCompanyPlan(db, { companyId })).rows;
  return planAllows(plan && toPlanFlags(plan), feature);
}

// Plans read by the hot paths (every customer message an assistant or a flow answers), per
// database and company, kept PLAN_CACHE_MS: a plan's change applies within that time there.
const PLAN_CACHE_MS = 2_000;
const planCache = new Map<string, { at: number; plan: Promise<Parameters<typeof planAllows>[0]> }>();

/**
 * companyPlanAllows for hot paths: the plan read at most once per PLAN_CACHE_MS per company (`db`
 * may be a write's transaction: a miss reads through it).
 */
export async function companyPlanAllowsSoon(r: { db: Database; config: { databaseUrl: string } }, companyId: number, feature: PlanFeature): Promise<boolean> {
  const { db } = r;
  const key = `${r.config.databaseUrl}#${companyId}`;
  const cache = planCache;
  if (cache.size > 10_000) cache.clear();
  const now = Date.now();
  let hit = cache.get(key);
  if (!isCompanyId(companyId)) return planAllows(undefined, feature);
  if (!hit || now - hit.at >= PLAN_CACHE_MS) {
    const plan = findCompanyPlan(db, { companyId }).then(({ rows: [row] }) => row && toPlanFlags(row));
    hit = { at: now, plan };
    cache.set(key, hit);
    plan.catch(() => cache.delete(key));
  }
  return planAllows(await hit.plan, feature);
}

/** The refusal every transport answers for a feature the plan lacks. */
export function planRefusal(feature: PlanFeature): AppError {
  return new AppError('ERR_NO_PERMISSION', `The company's plan does not include ${FEATURE_NAMES[feature]}.`, { details: { feature } });
}

/** Throws the plan refusal unless the company's plan includes `feature`. */
export async function assertPlanAllows(db: Database, companyId: number, feature: PlanFeature): Promise<void> {
  if (!(await companyPlanAllows(db, companyId, feature))) throw planRefusal(feature);
}

/** REST: a route of a feature the company's plan lacks answers 403 ERR_NO_PERMISSION. Put it after requireAuth. */
export function requirePlan(deps: { db: Database }, feature: PlanFeature): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await assertPlanAllows(deps.db, c.get('actor').companyId, feature);
    await next();
  };
}
