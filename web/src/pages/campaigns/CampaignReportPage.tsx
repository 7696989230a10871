// /campaign/{campaignId}/report (spec/03 §2): the campaign's totals, its progress (delivered over
// valid WhatsApp contacts) and every recipient with its state and reason. The recipients' table is
// virtual: rows have one fixed height, only those in view (and a few around) are in the DOM, and
// spacer rows keep the scrollbar true to the whole list, so 10,000 recipients scroll as smoothly
// as 10 (@tanstack/react-virtual, as the ticket list). Everything refreshes on pokes
// (use-campaign-report.ts).
import { useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { translateError, type CampaignTotals, type ShippingState } from '@zapdesk/sync';
import { currentLanguage } from '../../i18n/index.ts';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { Badge, Td, Th } from '../../ui/Table.tsx';
import { formatDateTime } from '../connections/session-actions.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { useCampaignReport } from './use-campaign-report.ts';
import './strings.ts';

const ROW_HEIGHT = 44;
const OVERSCAN = 12;

const STATE_TONE: Record<ShippingState, 'neutral' | 'brand' | 'danger' | 'warning'> = {
  pending: 'neutral',
  confirmation: 'warning',
  confirmed: 'warning',
  declined: 'neutral',
  queued: 'neutral',
  sent: 'brand',
  delivered: 'brand',
  read: 'brand',
  failed: 'danger',
  skipped: 'neutral',
};

export function Component() {
  const { t, i18n } = useTranslation();
  const id = Number(useParams().campaignId);
  const report = useCampaignReport(id);
  const { campaign, totals } = report;

  return (
    <Page
      title={campaign ? t('campaigns.reportTitle', { name: campaign.name }) : t('campaigns.report')}
      actions={
        <Link to="/campaigns" className="inline-flex h-9 items-center rounded-md border border-line px-3 text-sm hover:bg-raised">
          {t('campaigns.back')}
        </Link>
      }
    >
      {campaign && totals && (
        <Card className="flex flex-col gap-4 p-4">
          <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted">
            <StatusBadge status={campaign.status} />
            {campaign.whatsapp && <span>{`${t('campaigns.connection')}: ${campaign.whatsapp.name}`}</span>}
            {campaign.contactList && <span>{`${t('campaigns.contactList')}: ${campaign.contactList.name}`}</span>}
          </div>
          {totals.recipients === 0 && (campaign.status === 'PROGRAMADA' || campaign.status === 'INATIVA') ? (
            // Nothing to count yet: the list's contacts become recipients when the campaign starts.
            <p className="text-sm">
              {campaign.status === 'PROGRAMADA' && campaign.scheduledAt ? t('campaigns.notStartedAt', { when: formatDateTime(campaign.scheduledAt, i18n.language) }) : t('campaigns.notStarted')}
            </p>
          ) : (
            <Progress totals={totals} />
          )}
          <Totals totals={totals} confirmation={campaign.confirmation} />
        </Card>
      )}
      <Recipients report={report} count={totals?.recipients ?? 0} />
    </Page>
  );
}

function Progress({ totals }: { totals: CampaignTotals }) {
  const { t } = useTranslation();
  const percent = Math.round(totals.progress * 100);
  const label = t('campaigns.progress', { delivered: totals.delivered, valid: totals.valid });
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span>{label}</span>
        <span className="font-semibold tabular-nums">{percent}%</span>
      </div>
      <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2.5 overflow-hidden rounded-full bg-raised">
        <div className="h-full rounded-full bg-brand transition-[width] duration-500" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

const TOTALS: (keyof CampaignTotals)[] = ['recipients', 'valid', 'pending', 'queued', 'sent', 'delivered', 'read', 'failed', 'skippedInvalid', 'skippedOptOut'];
const CONFIRMATION_TOTALS: (keyof CampaignTotals)[] = ['awaitingConfirmation', 'confirmed', 'declined'];

function Totals({ totals, confirmation }: { totals: CampaignTotals; confirmation: boolean }) {
  const { t } = useTranslation();
  const keys = confirmation ? [...TOTALS, ...CONFIRMATION_TOTALS] : TOTALS;
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-5">
      {keys.map((key) => (
        <div key={key} data-testid={`total-${key}`} className="rounded-md border border-line px-3 py-2">
          <dt className="text-xs text-muted">{t(`campaigns.totals.${key}`)}</dt>
          <dd className="text-lg font-semibold tabular-nums">{totals[key]}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The reason column: the known words translated, a catalogue code in the user's language, a reply as it came. */
function useReason() {
  const { t } = useTranslation();
  return (reason: string | null) => {
    if (!reason) return '';
    if (reason === 'invalid' || reason === 'opted-out' || reason === 'no-answer' || reason === 'declined') return t(`campaigns.reasons.${reason}`);
    if (reason.startsWith('ERR_')) return translateError(reason, currentLanguage());
    return reason;
  };
}

function Recipients({ report, count }: { report: ReturnType<typeof useCampaignReport>; count: number }) {
  const { t, i18n } = useTranslation();
  const reason = useReason();
  const scroller = useRef<HTMLDivElement>(null);
  const { setRange, rowAt } = report;
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: OVERSCAN });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? -1;
  useEffect(() => setRange(first, last), [first, last, setRange]);
  // Spacer rows above and below the rows drawn keep the table (and its scrollbar) its whole height.
  const above = items[0]?.start ?? 0;
  const below = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  return (
    <Card className="overflow-hidden">
      <div ref={scroller} className="max-h-[calc(100vh-27rem)] min-h-64 overflow-auto">
        <table aria-label={t('campaigns.recipients')} aria-rowcount={count + 1} className="w-full min-w-[44rem] border-collapse text-left text-[13.5px]">
          <thead className="sticky top-0 z-10">
            <tr aria-rowindex={1}>
              <Th>{t('campaigns.name')}</Th>
              <Th>{t('campaigns.number')}</Th>
              <Th>{t('campaigns.state')}</Th>
              <Th>{t('campaigns.reason')}</Th>
              <Th>{t('campaigns.variant')}</Th>
              <Th>{t('campaigns.sentAt')}</Th>
            </tr>
          </thead>
          <tbody>
            {above > 0 && <tr aria-hidden="true" style={{ height: above }} />}
            {items.map(({ index }) => {
              const row = rowAt(index);
              return row ? (
                <tr key={row.id} aria-rowindex={index + 2} style={{ height: ROW_HEIGHT }} className="hover:bg-raised/60">
                  <Td className="max-w-[14rem] truncate whitespace-nowrap font-medium">{row.name || '—'}</Td>
                  <Td className="whitespace-nowrap tabular-nums">{row.number}</Td>
                  <Td className="whitespace-nowrap">
                    <Badge tone={STATE_TONE[row.state]}>{t(`campaigns.states.${row.state}`)}</Badge>
                  </Td>
                  <Td className="max-w-[14rem] truncate whitespace-nowrap text-muted" title={row.reason ?? undefined}>
                    {reason(row.reason)}
                  </Td>
                  <Td className="max-w-[16rem] truncate whitespace-nowrap text-muted" title={row.message || undefined}>
                    {row.variant ? `#${row.variant} ${row.message}` : ''}
                  </Td>
                  <Td className="whitespace-nowrap tabular-nums">{row.deliveredAt ? formatDateTime(row.deliveredAt, i18n.language) : ''}</Td>
                </tr>
              ) : (
                <tr key={`loading-${index}`} aria-rowindex={index + 2} style={{ height: ROW_HEIGHT }}>
                  <Td colSpan={6} className="text-muted">
                    …
                  </Td>
                </tr>
              );
            })}
            {below > 0 && <tr aria-hidden="true" style={{ height: below }} />}
          </tbody>
        </table>
        {!report.loading && count === 0 && <EmptyState>{t('campaigns.noRecipients')}</EmptyState>}
        {report.loading && count === 0 && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
      </div>
    </Card>
  );
}
