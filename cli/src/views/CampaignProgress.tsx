// `campaigns report --watch` on a TTY: a head line (campaign, status, live / polling / server
// unreachable, how to quit), a bar of the recipients handled, and the counts per state. Only
// renders; commands/campaigns/report-watch.ts feeds it.
import type { CampaignReport } from '@zapdesk/sync';
import { Box, Text } from 'ink';
import { handled, notStarted, percent } from '../commands/campaigns/format.ts';

export type WatchState = 'live' | 'polling' | 'offline';

export type CampaignProgressProps = {
  report: Pick<CampaignReport, 'campaign' | 'totals'>;
  state: WatchState;
  /** When the report was last read, HH:MM:SS. */
  at: string;
  /** Since when the server has not answered, HH:MM:SS (state offline). */
  offlineSince?: string;
  /** The last frame: the campaign ended (FINALIZADA or CANCELADA), or the person stopped watching. */
  ended?: 'campaign' | 'quit';
  /** The terminal's columns. */
  width: number;
};

const n = (v: number) => v.toLocaleString('en-US');

function StateMark({ state, offlineSince }: { state: WatchState; offlineSince?: string }) {
  if (state === 'live') return <Text color="green">● live</Text>;
  if (state === 'polling') return <Text color="yellow">○ polling every second</Text>;
  return <Text color="red">○ server unreachable{offlineSince ? ` since ${offlineSince}` : ''}, retrying…</Text>;
}

const STATUS_COLOR: Record<string, string> = { EM_ANDAMENTO: 'cyan', FINALIZADA: 'green', CANCELADA: 'yellow', PROGRAMADA: 'blue' };

export function CampaignProgress({ report: { campaign, totals: t }, state, at, offlineSince, ended, width }: CampaignProgressProps) {
  const done = ended === 'campaign';
  const share = t.recipients ? handled(t) / t.recipients : 0;
  const barWidth = Math.max(10, Math.min(40, width - 30));
  const filled = Math.round(share * barWidth);
  const skipped = t.skippedInvalid + t.skippedOptOut;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>
          Campaign {campaign.id} · {campaign.name}
        </Text>{' '}
        <Text color={STATUS_COLOR[campaign.status]}>{campaign.status}</Text>{' '}
        {ended ? <Text dimColor>· {at}{ended === 'quit' ? ' · stopped watching; the campaign goes on' : ''}</Text> : (
          <>
            <StateMark state={state} offlineSince={offlineSince} />
            <Text dimColor> · {at} · q to stop watching</Text>
          </>
        )}
      </Text>
      <Text wrap="truncate-end">
        <Text color={done ? STATUS_COLOR[campaign.status] : 'cyan'}>{'█'.repeat(filled)}</Text>
        <Text dimColor>{'░'.repeat(barWidth - filled)}</Text> {percent(share)} · {n(handled(t))} of {n(t.recipients)} handled
      </Text>
      <Text wrap="truncate-end">
        <Text color="green">{n(t.sent)} sent</Text> · {n(t.delivered)} delivered · {n(t.read)} read ·{' '}
        <Text color={t.failed ? 'red' : undefined}>{n(t.failed)} failed</Text>
      </Text>
      <Text wrap="truncate-end">
        {n(t.pending)} pending · {n(t.queued)} queued · {n(skipped)} skipped
        <Text dimColor>
          {' '}
          ({n(t.skippedInvalid)} invalid, {n(t.skippedOptOut)} opted out)
        </Text>
      </Text>
      {campaign.confirmation ? (
        <Text wrap="truncate-end">
          {n(t.awaitingConfirmation)} awaiting confirmation · {n(t.confirmed)} confirmed · {n(t.declined)} declined
        </Text>
      ) : null}
      <Text dimColor wrap="truncate-end">
        {percent(t.progress)} delivered of {n(t.valid)} valid numbers
      </Text>
      {!ended && notStarted(campaign) ? <Text color="yellow" wrap="truncate-end">{notStarted(campaign)}</Text> : null}
      {done && campaign.status === 'CANCELADA' ? <Text wrap="truncate-end">Paused: zapdesk campaigns restart {campaign.id} continues it</Text> : null}
    </Box>
  );
}
