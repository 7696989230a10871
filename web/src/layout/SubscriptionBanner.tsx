// The trial and due-date banners (spec/01 §2 "subscription and trial banner", §4): for admins, while
// the company is in its sign-up trial, the days left and a sign-now link (/subscription); otherwise,
// when fewer than SUBSCRIPTION_WARNING_DAYS remain, the due date and a link to pay (/financeiro).
// Read from the synced company row, so a payment clears it without a reload.
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isCompanyAdmin, SUBSCRIPTION_WARNING_DAYS } from '@zapdesk/sync';
import { daysToDue, formatDate } from '../forms/format.ts';
import { useUser } from '../session/SessionProvider.tsx';
import { useSyncedList } from '../sync/use-synced.ts';

export function SubscriptionBanner() {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const company = useSyncedList('company')?.[0];
  if (!company || !isCompanyAdmin(user) || user.super) return null;
  const trialDays = daysToDue(company.trialExpiration);
  // Still in the trial while the paid period has not gone past its end.
  const inTrial = trialDays !== null && trialDays >= 0 && company.dueDate !== null && company.trialExpiration !== null && company.dueDate <= company.trialExpiration;
  const dueDays = daysToDue(company.dueDate);
  let text: string;
  let link: { to: string; label: string };
  if (inTrial) {
    text = t('layout.trialBanner', { count: trialDays });
    link = { to: '/subscription', label: t('layout.signNow') };
  } else if (dueDays !== null && dueDays >= 0 && dueDays < SUBSCRIPTION_WARNING_DAYS) {
    text = t('layout.dueBanner', { count: dueDays, date: formatDate(company.dueDate, i18n.language) });
    link = { to: '/financeiro', label: t('layout.payInvoice') };
  } else return null;
  return (
    <div role="status" data-testid="subscription-banner" className="flex flex-wrap items-center justify-center gap-3 border-b border-line bg-brand-soft px-4 py-2 text-sm">
      <span>{text}</span>
      <Link to={link.to} className="font-semibold text-brand underline">
        {link.label}
      </Link>
    </div>
  );
}
