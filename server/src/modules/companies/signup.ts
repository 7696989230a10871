// Public sign-up (spec/01 §5): a company on a public plan, with a trial, and its first admin.
import { AppError, SIGNUP_TRIAL_DAYS, type Company, type SignupInput } from '@zapdesk/sync';
import type { Tx } from '../../db/write.ts';
import { findPlanRow } from '../plans/queries.ts';
import { addFirstAdmin, readCompany } from './service.ts';
import { insertCompanyRow, insertDefaultSettings, isEmailInUse } from './queries.ts';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Creates the company, its default settings and its admin in the route's one write: a refusal at
 * any step leaves nothing behind. The trial ends on the due date, SIGNUP_TRIAL_DAYS from now. A new
 * company has nobody to poke.
 */
export async function signUp(tx: Tx, input: SignupInput, passwordHash: string, now = new Date()): Promise<Company> {
  const { db } = tx;
  const plan = await findPlanRow(db, input.planId);
  // A private plan is offered by the super-admin only; to a stranger it does not exist.
  if (!plan || plan.isPublic !== 1) throw new AppError('ERR_NO_PLAN_FOUND');
  // Checked first so a taken email costs no writes; addFirstAdmin checks again under the unique index.
  if (await isEmailInUse(db, input.email)) throw new AppError('ERR_EMAIL_IN_USE');
  const dueDate = new Date(now.getTime() + SIGNUP_TRIAL_DAYS * DAY_MS).toISOString();
  const id = await insertCompanyRow(db, {
    name: input.name,
    email: input.email,
    phone: input.phone ?? null,
    planId: plan.id,
    status: 1,
    recurrence: 'MENSAL',
    dueDate,
    trialExpiration: dueDate,
  });
  await insertDefaultSettings(db, id, true);
  await addFirstAdmin(db, id, { name: input.name, email: input.email, passwordHash });
  return readCompany(db, id);
}
