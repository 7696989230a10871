// `tickets watch` on a TTY: a head line (counts, live or still syncing, how to quit) over the
// ticket table, cut to the terminal's height. Only renders; watch-screen.ts feeds it.
import { Box, Text } from 'ink';
import type { Column } from '../present.ts';
import { Table } from './Table.tsx';

export type TicketsWatchProps = {
  columns: Column[];
  tickets: { status: string }[];
  synced: boolean;
  /** Table rows that fit; the rest are counted under it. */
  maxRows: number;
  /** When the view last changed, HH:MM:SS. */
  at: string;
};

export function TicketsWatch({ columns, tickets, synced, maxRows, at }: TicketsWatchProps) {
  const open = tickets.filter((t) => t.status === 'open').length;
  const pending = tickets.filter((t) => t.status === 'pending').length;
  const shown = tickets.slice(0, Math.max(maxRows, 1));
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>Tickets</Text> {open} open · {pending} pending{' '}
        {synced ? <Text color="green">● live</Text> : <Text color="yellow">○ syncing…</Text>}
        <Text dimColor>
          {' '}
          · {at} · q to quit
        </Text>
      </Text>
      <Table columns={columns} rows={shown} empty="No open or pending tickets." />
      {tickets.length > shown.length ? <Text dimColor>… {tickets.length - shown.length} more</Text> : null}
    </Box>
  );
}
