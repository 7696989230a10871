// Which subscription banner a company admin sees (spec/01 §2 "subscription and trial banner", §9
// warning below 5 days), kept pure so the rule is unit-tested apart from the page: while the company
// is in its sign-up trial (the paid period has not gone past the trial's end), the trial's days left;
// otherwise, when fewer than SUBSCRIPTION_WARNING_DAYS remain to the due date, the due date. Nothing
// once it is past (the next sign-in is refused) or comfortably ahead.
import { SUBSCRIPTION_WARNING_DAYS } from '@zapdesk/sync';
import { daysToDue } from '../forms/format.ts';

export type BannerCompany = { dueDate: string | null; trialExpiration: string | null };
export type Banner = { kind: 'trial'; days: number } | { kind: 'due'; days: number; dueDate: string } | null;

export function subscriptionBannerOf(company: BannerCompany, now: Date = new Date()): Banner {
  const trialDays = daysToDue(company.trialExpiration, now);
  const inTrial = trialDays !== null && trialDays >= 0 && company.dueDate !== null && company.trialExpiration !== null && company.dueDate <= company.trialExpiration;
  if (inTrial) return { kind: 'trial', days: trialDays };
  const dueDays = daysToDue(company.dueDate, now);
  if (company.dueDate !== null && dueDays !== null && dueDays >= 0 && dueDays < SUBSCRIPTION_WARNING_DAYS) return { kind: 'due', days: dueDays, dueDate: company.dueDate };
  return null;
}
