// / (admins, spec/02 §2.11): counter cards, the date or period filter, the attendants table and two
// bar charts. Anyone else opening / is sent to their first page, without a refusal toast.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DashboardData, TicketsDayData, TicketsUsersData } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { HomeRedirect } from '../../app/guards.tsx';
import { useResource } from '../../hooks/use-resource.ts';
import { homePath } from '../../navigation/menu.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import { useSocketSettled } from '../../sync/SyncProvider.tsx';
import { useRefreshOnPoke } from '../../sync/use-refresh-on-poke.ts';
import { Button } from '../../ui/Button.tsx';
import { SelectField, TextField } from '../../ui/Field.tsx';
import { Card, Page } from '../../ui/Page.tsx';
import { Table, Td, Th } from '../../ui/Table.tsx';
import { toast } from '../../ui/toast/store.ts';
import { BarChart } from './BarChart.tsx';
import { chartRange, dashboardQuery, defaultFilter, filterIsBackwards, filterIsSet, formatMinutes, PERIOD_PRESETS, ratingStars, type DashboardFilter } from './dashboard-format.ts';
import './strings.ts';

const timezone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function Component() {
  const { user, flags, cshow } = useSession();
  if (!user || homePath(user, flags ?? null, cshow) !== '/') return <HomeRedirect />;
  return <Dashboard />;
}

/** The dashboard's reads are the heaviest of the app's: refreshed after pokes at most this often. */
const DASHBOARD_REFRESH_MS = 4000;

const CARDS = ['supportHappening', 'supportPending', 'supportFinished', 'newContacts', 'avgSupportTime', 'avgWaitTime'] as const;

function Dashboard() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<DashboardFilter>(() => defaultFilter(new Date()));
  const [applied, setApplied] = useState(draft);
  const key = JSON.stringify(applied);
  // The attendants' presence: read once the sync socket has had its try, so right after sign-in the
  // server has already marked this user online (or, if the socket failed, says offline).
  const socketSettled = useSocketSettled();
  const data = useResource(() => socketSettled.then(() => api.get<DashboardData>('/dashboard', { query: dashboardQuery(applied, timezone()) })), [key]);
  const range = chartRange(applied, new Date());
  const chartQuery = { ...range, timezone: timezone() };
  const users = useResource(() => api.get<TicketsUsersData>('/dashboard/ticketsUsers', { query: chartQuery }).catch(chartFailed(t('dashboard.userChartError'))), [key]);
  const days = useResource(() => api.get<TicketsDayData>('/dashboard/ticketsDay', { query: chartQuery }).catch(chartFailed(t('dashboard.dateChartError'))), [key]);
  // Live while open: counters and charts are read again after changes, at most every few seconds.
  useRefreshOnPoke(() => {
    data.refresh();
    users.refresh();
    days.refresh();
  }, DASHBOARD_REFRESH_MS);

  const apply = () => {
    if (!filterIsSet(draft)) return toast.error(t('dashboard.selectFilterError'));
    if (filterIsBackwards(draft)) return toast.error(t('dashboard.backwardsError'));
    setApplied(draft);
  };

  const counters = data.data?.counters;
  const cardValue = (card: (typeof CARDS)[number]) => {
    if (!counters) return '…';
    return card === 'avgSupportTime' || card === 'avgWaitTime' ? formatMinutes(counters[card]) : String(counters[card]);
  };
  const dayRows = days.data?.data ?? [];
  const perHour = dayRows.some((r) => 'horario' in r);

  return (
    <Page title={t('dashboard.title')}>
      <Card className="p-3 sm:p-4">
        <form
          noValidate
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            apply();
          }}
        >
          <SelectField
            label={t('dashboard.filterBy')}
            wrapperClassName="w-full sm:w-36"
            value={draft.mode}
            onChange={(e) => setDraft(e.target.value === 'period' ? { mode: 'period', days: null } : defaultFilter(new Date()))}
            options={[
              { value: 'date', label: t('dashboard.byDate') },
              { value: 'period', label: t('dashboard.byPeriod') },
            ]}
          />
          {draft.mode === 'date' ? (
            <>
              <TextField label={t('dashboard.from')} type="date" wrapperClassName="flex-1 sm:w-44 sm:flex-none" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
              <TextField label={t('dashboard.to')} type="date" wrapperClassName="flex-1 sm:w-44 sm:flex-none" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
            </>
          ) : (
            <SelectField
              label={t('dashboard.period')}
              wrapperClassName="w-full sm:w-52"
              value={draft.days === null ? '' : String(draft.days)}
              onChange={(e) => setDraft({ mode: 'period', days: e.target.value === '' ? null : Number(e.target.value) })}
              options={[{ value: '', label: t('dashboard.choosePeriod') }, ...PERIOD_PRESETS.map((d) => ({ value: String(d), label: d === 0 ? t('dashboard.today') : t('dashboard.lastDays', { count: d }) }))]}
            />
          )}
          <Button type="submit" icon="search" busy={data.loading}>
            {t('dashboard.apply')}
          </Button>
        </form>
      </Card>

      <ul className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6" aria-label={t('dashboard.title')}>
        {CARDS.map((card) => (
          <li key={card} className="rounded-lg border border-line bg-surface p-3 shadow-xs sm:p-4" data-testid={`card-${card}`}>
            <p className="text-xs font-medium text-muted">{t(`dashboard.cards.${card}`)}</p>
            <p className="mt-1 text-2xl font-semibold tabular-nums">{cardValue(card)}</p>
          </li>
        ))}
      </ul>

      <Card className="overflow-hidden">
        <h2 className="border-b border-line px-4 py-3 font-semibold">{t('dashboard.attendants')}</h2>
        <Table label={t('dashboard.attendants')} fluid>
          <thead>
            <tr>
              <Th>{t('dashboard.name')}</Th>
              <Th>{t('dashboard.ratingTitle')}</Th>
              <Th className="hidden sm:table-cell">{t('dashboard.avgSupportTime')}</Th>
              <Th className="hidden md:table-cell">{t('dashboard.finished')}</Th>
              <Th className="hidden sm:table-cell">{t('dashboard.status')}</Th>
            </tr>
          </thead>
          <tbody>
            {(data.data?.attendants ?? []).map((a) => {
              const stars = ratingStars(a.rating);
              return (
                <tr key={a.id}>
                  <Td>
                    <span className="flex items-center gap-2">
                      <span className={`size-2 shrink-0 rounded-full sm:hidden ${a.online ? 'bg-emerald-500' : 'bg-line'}`} aria-hidden="true" />
                      <span className="font-medium">{a.name}</span>
                    </span>
                  </Td>
                  <Td>
                    <span className="inline-flex items-center gap-1.5" title={stars.labelKey ? t(stars.labelKey) : t('dashboard.rating.none')}>
                      <span aria-hidden="true" className="tracking-tight text-amber-500">
                        {'★'.repeat(stars.filled)}
                        <span className="text-line">{'★'.repeat(3 - stars.filled)}</span>
                      </span>
                      <span className="sr-only">{t('dashboard.rating.stars', { count: stars.filled })}</span>
                      <span className="hidden text-xs text-muted lg:inline">{stars.labelKey ? t(stars.labelKey) : t('dashboard.rating.none')}</span>
                    </span>
                  </Td>
                  <Td className="hidden tabular-nums sm:table-cell">{formatMinutes(a.avgSupportTime)}</Td>
                  <Td className="hidden tabular-nums md:table-cell">{a.tickets}</Td>
                  <Td className="hidden sm:table-cell">
                    <span className="inline-flex items-center gap-1.5">
                      <span className={`size-2 rounded-full ${a.online ? 'bg-emerald-500' : 'bg-line'}`} aria-hidden="true" />
                      {a.online ? t('dashboard.online') : t('dashboard.offline')}
                    </span>
                  </Td>
                </tr>
              );
            })}
          </tbody>
        </Table>
        {data.data && data.data.attendants.length === 0 && <p className="px-4 py-8 text-center text-muted">{t('dashboard.noAttendants')}</p>}
      </Card>

      <div className="grid gap-4 lg:grid-cols-2">
        <Card className="p-4">
          <BarChart
            title={t('dashboard.chartUsers')}
            summary={t('dashboard.chartTotal', { count: users.data?.count ?? 0 })}
            empty={t('dashboard.chartEmpty')}
            bars={(users.data?.data ?? []).map((r) => ({ label: r.nome, value: r.quantidade }))}
          />
        </Card>
        <Card className="p-4">
          <BarChart
            title={perHour ? t('dashboard.chartHours') : t('dashboard.chartDays')}
            summary={t('dashboard.chartTotal', { count: days.data?.count ?? 0 })}
            empty={t('dashboard.chartEmpty')}
            color="#0ea5e9"
            bars={dayRows.map((r) => ('horario' in r ? { label: `${r.horario}h`, value: r.total } : { label: r.data.slice(0, 5), value: r.total }))}
          />
        </Card>
      </div>
    </Page>
  );
}

/** A chart's failure is worded by chart (userChartError, dateChartError) and leaves it empty. */
function chartFailed(message: string) {
  return () => {
    toast.error(message);
    return { data: [], count: 0 };
  };
}
