// The trial and due-date banners (spec/01 §2 "subscription and trial banner", §4): for admins, while
// the company is in its sign-up trial, the days left and a sign-now link (/subscription); otherwise,
// when fewer than SUBSCRIPTION_WARNING_DAYS remain, the due date and a link to pay (/financeiro).
// Read from the synced company row, so a payment clears it without a reload; the rule itself is
// subscription-banner.ts.
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isCompanyAdmin } from '@zapdesk/sync';
import { formatDate } from '../forms/format.ts';
import { useUser } from '../session/SessionProvider.tsx';
import { useSyncedList } from '../sync/use-synced.ts';
import { subscriptionBannerOf } from './subscription-banner.ts';

export function SubscriptionBanner() {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const company = useSyncedList('company')?.[0];
  if (!company || !isCompanyAdmin(user) || user.super) return null;
  const banner = subscriptionBannerOf(company);
  if (!banner) return null;
  const { text, link } =
    banner.kind === 'trial'
      ? { text: t('layout.trialBanner', { count: banner.days }), link: { to: '/subscription', label: t('layout.signNow') } }
      : { text: t('layout.dueBanner', { count: banner.days, date: formatDate(banner.dueDate, i18n.language) }), link: { to: '/financeiro', label: t('layout.payInvoice') } };
  return (
    <div role="status" data-testid="subscription-banner" className="flex flex-wrap items-center justify-center gap-3 border-b border-line bg-brand-soft px-4 py-2 text-sm">
      <span>{text}</span>
      <Link to={link.to} className="font-semibold text-brand underline">
        {link.label}
      </Link>
    </div>
  );
}
