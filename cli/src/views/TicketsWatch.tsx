// `tickets watch` on a TTY: a head line (counts, live / syncing / connecting / server unreachable, how to quit)
// over the ticket table, cut to the terminal's height and width. Only renders; watch-screen.ts feeds it.
import { Box, Text } from 'ink';
import type { LiveState } from '../live/tickets.ts';
import type { Column } from '../present.ts';
import { Table } from './Table.tsx';

export type TicketsWatchProps = {
  columns: Column[];
  tickets: { status: string }[];
  state: LiveState;
  /** Table rows that fit; the rest are counted under it. */
  maxRows: number;
  /** The terminal's columns. */
  width?: number;
  /** When the view last changed, HH:MM:SS. */
  at: string;
  /** Since when the server has not answered, HH:MM:SS (state offline). */
  offlineSince?: string;
};

function StateMark({ state, offlineSince }: { state: LiveState; offlineSince?: string }) {
  if (state === 'live') return <Text color="green">● live</Text>;
  if (state === 'syncing') return <Text color="yellow">○ syncing…</Text>;
  if (state === 'connecting') return <Text color="yellow">○ connecting…</Text>;
  return <Text color="red">○ server unreachable{offlineSince ? ` since ${offlineSince}` : ''}, reconnecting…</Text>;
}

export function TicketsWatch({ columns, tickets, state, maxRows, width, at, offlineSince }: TicketsWatchProps) {
  const open = tickets.filter((t) => t.status === 'open').length;
  const pending = tickets.filter((t) => t.status === 'pending').length;
  const shown = tickets.slice(0, Math.max(maxRows, 1));
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>Tickets</Text> {open} open · {pending} pending <StateMark state={state} offlineSince={offlineSince} />
        <Text dimColor>
          {' '}
          · {at} · q to quit
        </Text>
      </Text>
      <Table columns={columns} rows={shown} width={width} empty="No open or pending tickets." />
      {tickets.length > shown.length ? <Text dimColor>… {tickets.length - shown.length} more</Text> : null}
    </Box>
  );
}
