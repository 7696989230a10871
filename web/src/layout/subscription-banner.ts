// Which subscription banner a company admin sees (spec/01 §2 "subscription and trial banner", §9
// warning below 5 days), kept pure so the rule is unit-tested apart from the page: while the company
// is in its sign-up trial (the paid period has not gone past the trial's end), the trial's days left;
// otherwise, when fewer than SUBSCRIPTION_WARNING_DAYS remain to the due date, the due date. Nothing
// once it is past (the next sign-in is refused) or comfortably ahead.
import { SUBSCRIPTION_WARNING_DAYS } from '@zapdesk/sync';
import { daysToDue } from '../forms/format.ts';

export type BannerCompany = { dueDate: string | null; trialExpiration: string | null };
export type Banner = { kind: 'trial'; days: number } | { kind: 'due'; days: number; dueDate: string } | null;

/**
 * The sign-up trial as the company lives it: `active` with the days left while the paid period has
 * not gone past the trial's end, `over` once that end has passed unpaid, null for a company that
 * paid past its trial (or never had one): a paying customer is not told about a trial.
 */
export function trialOf(company: BannerCompany, now: Date = new Date()): { state: 'active'; days: number } | { state: 'over' } | null {
  const days = daysToDue(company.trialExpiration, now);
  if (days === null || company.trialExpiration === null) return null;
  if (company.dueDate !== null && company.dueDate > company.trialExpiration) return null;
  return days >= 0 ? { state: 'active', days } : { state: 'over' };
}

export function subscriptionBannerOf(company: BannerCompany, now: Date = new Date()): Banner {
  const trial = trialOf(company, now);
  if (trial?.state === 'active') return { kind: 'trial', days: trial.days };
  const dueDays = daysToDue(company.dueDate, now);
  if (company.dueDate !== null && dueDays !== null && dueDays >= 0 && dueDays < SUBSCRIPTION_WARNING_DAYS) return { kind: 'due', days: dueDays, dueDate: company.dueDate };
  return null;
}
