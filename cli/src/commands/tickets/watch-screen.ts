// What `tickets watch` shows: the Ink view redrawn in place on a TTY; elsewhere one line per
// change on stdout (`+` a ticket came into view, `~` it changed, `-` it left: closed, moved away or
// deleted), or with --json one JSON object per change, for scripts that follow the queue.
import type { Ticket } from '@zapdesk/sync';
import type { LiveState } from '../../live/tickets.ts';
import type { Ctx } from '../../context.ts';
import { writeLine } from '../../output.ts';
import { cellText } from '../../present.ts';
import { ticketColumns } from './show.ts';

export type WatchScreen = { update(tickets: Ticket[], state: LiveState): void; close(): void };

const clock = () => new Date().toTimeString().slice(0, 8);

/** One ticket as a line: the table's cells, labelled. */
export function ticketLine(t: Ticket): string {
  const cells = ticketColumns.map((c) => [c.header, cellText(c.value(t as never))] as const);
  const [id, status, ...rest] = cells;
  return `ticket ${id![1]}: ${status![1]}, ${rest.map(([h, v]) => `${h} ${v}`).join(', ')}`;
}

export async function createWatchScreen(ctx: Ctx, mode: 'live' | 'lines' | 'json'): Promise<WatchScreen> {
  if (mode !== 'live') {
    let shown = new Map<number, string>();
    let last: LiveState = 'syncing';
    const say = (event: 'added' | 'changed' | 'removed', t: Ticket | { id: number }, line: string) =>
      writeLine(ctx.io.stdout, mode === 'json' ? JSON.stringify({ event, ...(event === 'removed' ? { id: t.id } : { ticket: t }) }) : line);
    return {
      update(tickets, state) {
        // The local cache may be stale until the first pull: lines start from the server's truth.
        if (state === 'syncing') return;
        // The state goes to stderr, beside the data: a script reading stdout sees only changes.
        if (last === 'syncing') writeLine(ctx.io.stderr, `watching ${tickets.length} tickets; a line "q", Ctrl-C or SIGTERM stops`);
        else if (state === 'offline' && last !== 'offline') writeLine(ctx.io.stderr, `${clock()} the server does not answer: reconnecting; changes show once it is back`);
        else if (state === 'live' && last === 'offline') writeLine(ctx.io.stderr, `${clock()} the server answers again: live`);
        last = state;
        const next = new Map(tickets.map((t) => [t.id, ticketLine(t)]));
        for (const t of [...tickets].reverse()) {
          const line = next.get(t.id)!;
          const before = shown.get(t.id);
          if (before === undefined) say('added', t, `+ ${line}`);
          else if (before !== line) say('changed', t, `~ ${line}`);
        }
        for (const id of shown.keys()) if (!next.has(id)) say('removed', { id }, `- ticket ${id}`);
        shown = next;
      },
      close() {},
    };
  }

  // Ink and React load only for a person at a terminal: a script's run does not pay for them.
  const [{ render }, { createElement }] = await Promise.all([import('ink'), import('react')]);
  const { TicketsWatch } = await import('../../views/TicketsWatch.tsx');
  const stdout = ctx.io.stdout as NodeJS.WriteStream;
  let props = { columns: ticketColumns, tickets: [] as Ticket[], state: 'syncing' as LiveState, at: clock(), offlineSince: undefined as string | undefined };
  // The terminal's size at each draw: the table keeps to its width (a wrapped line would break the
  // redraw in place) and to its height (a head line, the titles, the rows and the "more" line).
  const draw = () => createElement(TicketsWatch, { ...props, maxRows: (stdout.rows || 24) - 4, width: stdout.columns || 80 });
  const instance = render(draw(), { stdout, patchConsole: false, exitOnCtrlC: false });
  const redraw = () => instance.rerender(draw());
  stdout.on('resize', redraw);
  return {
    update(tickets, state) {
      const offlineSince = state === 'offline' ? (props.offlineSince ?? clock()) : undefined;
      props = { ...props, tickets, state, at: clock(), offlineSince };
      redraw();
    },
    close() {
      stdout.off('resize', redraw);
      instance.unmount();
    },
  };
}
