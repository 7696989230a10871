// The Ink views render what present.ts describes: frames compared as a person would see them.
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { column } from '../present.ts';
import { ImportProgress } from './ImportProgress.tsx';
import { Record } from './Record.tsx';
import { Table } from './Table.tsx';
import { CampaignProgress } from './CampaignProgress.tsx';
import { TicketsWatch } from './TicketsWatch.tsx';

type Row = { id: number; name: string; due: string | null; active: boolean };
const columns = [column<Row>('id', (r) => r.id), column<Row>('name', (r) => r.name), column<Row>('due', (r) => r.due), column<Row>('active', (r) => r.active)];

describe('Table', () => {
  it('aligns columns under upper-case headers, with dashes for nothing', () => {
    const { lastFrame } = render(
      <Table
        columns={columns}
        rows={[
          { id: 1, name: 'Acme', due: '2030-01-31T23:59:59.999Z', active: true },
          { id: 12, name: 'Demo Company', due: null, active: false },
        ]}
        footer="2 companies"
      />,
    );
    expect(lastFrame()).toBe(['ID  NAME          DUE         ACTIVE', '1   Acme          2030-01-31  yes', '12  Demo Company  -           no', '2 companies'].join('\n'));
  });

  it('says so when there is nothing', () => {
    const { lastFrame } = render(<Table columns={columns} rows={[]} empty="No companies found." />);
    expect(lastFrame()).toBe('No companies found.');
  });
});

describe('Table on a narrow terminal', () => {
  type T = { id: number; status: string; contact: string; queue: string; tags: string; message: string };
  const wide = [
    column<T>('id', (t) => t.id),
    column<T>('status', (t) => t.status),
    column<T>('contact', (t) => t.contact, { min: 12 }),
    column<T>('queue', (t) => t.queue, { drop: 2 }),
    column<T>('tags', (t) => t.tags, { drop: 1 }),
    column<T>('message', (t) => t.message, { min: 10 }),
  ];
  const rows: T[] = [{ id: 7, status: 'pending', contact: 'Maria Aparecida da Silva (5511987650001)', queue: 'Support', tags: 'vip, late', message: 'Hello, I would like to know the price of the blue one' }];

  it('keeps every line within the width: hides by rank, then narrows the widest with an ellipsis', () => {
    for (const width of [40, 60, 80, 120]) {
      const { lastFrame } = render(<Table columns={wide} rows={rows} width={width} />);
      for (const line of lastFrame()!.split('\n')) expect(line.length, `${width}: ${line}`).toBeLessThanOrEqual(width);
    }
    const at60 = render(<Table columns={wide} rows={rows} width={60} />).lastFrame()!.split('\n');
    expect(at60[0]).toMatch(/^ID +STATUS +CONTACT +MESSAGE$/);
    expect(at60[1]).toMatch(/^7 +pending +Maria Aparecida.*… +Hello, I would.*…$/);
    // Wide enough once the tags go: the rest as they are.
    const at120 = render(<Table columns={wide} rows={rows} width={120} />).lastFrame()!.split('\n');
    expect(at120[0]).toMatch(/^ID +STATUS +CONTACT +QUEUE +MESSAGE$/);
    expect(at120[1]).toMatch(/Maria Aparecida da Silva \(5511987650001\) +Support +Hello, I would like to know the price of the blue one$/);
    // Wider than every cell: nothing hidden.
    expect(render(<Table columns={wide} rows={rows} width={200} />).lastFrame()).toContain('vip, late');
  });
});

describe('Record', () => {
  it('lines labels up and shows lists and booleans as words', () => {
    const { lastFrame } = render(<Record title="Plan 3: Pro" fields={[['users', 10], ['kanban', false], ['features', ['campaigns', 'kanban']]]} />);
    expect(lastFrame()).toBe(['Plan 3: Pro', 'users     10', 'kanban    no', 'features  campaigns, kanban'].join('\n'));
  });
});

describe('ImportProgress', () => {
  it('draws a bar when the row count is known, with the counts and the rate', () => {
    const { lastFrame } = render(<ImportProgress file="leads.csv" rows={5000} imported={4970} skipped={0} rejected={30} total={10000} seconds={0.5} done={false} />);
    expect(lastFrame()).toBe(['Importing leads.csv  ' + '█'.repeat(15) + '░'.repeat(15) + ' 50%', '5,000 rows · 4,970 imported · 0 skipped · 30 rejected · 10,000 rows/s · 0.5s'].join('\n'));
  });

  it('has no bar for an xlsx (no count up front) and a full one when done', () => {
    const running = render(<ImportProgress file="book.xlsx" rows={1000} imported={0} skipped={1000} rejected={0} seconds={2} done={false} />);
    expect(running.lastFrame()).toBe(['Importing book.xlsx', '1,000 rows · 0 imported · 1,000 skipped · 0 rejected · 500 rows/s · 2.0s'].join('\n'));
    const done = render(<ImportProgress file="book.xlsx" rows={1000} imported={0} skipped={1000} rejected={0} seconds={2} done />);
    expect(done.lastFrame()!.split('\n')[0]).toBe(`Imported book.xlsx  ${'█'.repeat(30)} 100%`);
  });
});

describe('TicketsWatch', () => {
  type T = { id: number; status: string; contact: string };
  const columns = [column<T>('id', (t) => t.id), column<T>('status', (t) => t.status), column<T>('contact', (t) => t.contact)];
  const tickets: T[] = [
    { id: 3, status: 'pending', contact: 'Ana' },
    { id: 2, status: 'open', contact: 'Joao' },
    { id: 1, status: 'pending', contact: 'Maria' },
  ];

  it('counts by status, says when it is live, and cuts the table to the rows that fit', () => {
    const { lastFrame, rerender } = render(<TicketsWatch columns={columns} tickets={tickets} state="syncing" maxRows={2} at="10:00:00" />);
    expect(lastFrame()).toBe(['Tickets 1 open · 2 pending ○ syncing… · 10:00:00 · q to quit', 'ID  STATUS   CONTACT', '3   pending  Ana', '2   open     Joao', '… 1 more'].join('\n'));
    rerender(<TicketsWatch columns={columns} tickets={tickets.slice(0, 1)} state="live" maxRows={2} at="10:00:05" />);
    expect(lastFrame()).toBe(['Tickets 0 open · 1 pending ● live · 10:00:05 · q to quit', 'ID  STATUS   CONTACT', '3   pending  Ana'].join('\n'));
  });

  it('says so when the server does not answer', () => {
    const { lastFrame } = render(<TicketsWatch columns={columns} tickets={tickets.slice(0, 1)} state="offline" offlineSince="10:00:03" maxRows={2} at="10:00:05" />);
    expect(lastFrame()!.split('\n')[0]).toBe('Tickets 0 open · 1 pending ○ server unreachable since 10:00:03, reconnecting… · 10:00:05 · q to quit');
  });

  it('says so when there is nothing to watch', () => {
    const { lastFrame } = render(<TicketsWatch columns={columns} tickets={[]} state="live" maxRows={10} at="10:00:00" />);
    expect(lastFrame()).toBe(['Tickets 0 open · 0 pending ● live · 10:00:00 · q to quit', 'No open or pending tickets.'].join('\n'));
  });
});

describe('CampaignProgress', () => {
  const totals = { recipients: 10, valid: 9, pending: 3, queued: 1, sent: 4, delivered: 2, read: 1, failed: 1, awaitingConfirmation: 0, confirmed: 0, declined: 0, skippedInvalid: 1, skippedOptOut: 0, progress: 2 / 9 };
  const campaign = { id: 3, name: 'Natal', status: 'EM_ANDAMENTO', confirmation: false } as Parameters<typeof CampaignProgress>[0]['report']['campaign'];

  it('draws the share handled as a bar, the counts per state and the spec progress', () => {
    const { lastFrame } = render(<CampaignProgress report={{ campaign, totals }} state="live" at="10:00:05" width={70} />);
    expect(lastFrame()!.split('\n')).toEqual([
      'Campaign 3 · Natal EM_ANDAMENTO ● live · 10:00:05 · q to stop watching',
      `${'█'.repeat(24)}${'░'.repeat(16)} 60% · 6 of 10 handled`,
      '4 sent · 2 delivered · 1 read · 1 failed',
      '3 pending · 1 queued · 1 skipped (1 invalid, 0 opted out)',
      '22% delivered of 9 valid numbers',
    ]);
  });

  it('ends with how to continue a paused campaign, or that the watching stopped', () => {
    const paused = render(<CampaignProgress report={{ campaign: { ...campaign, status: 'CANCELADA' }, totals }} state="live" at="10:00:09" width={70} ended="campaign" />).lastFrame()!.split('\n');
    expect([paused[0], paused.at(-1)]).toEqual(['Campaign 3 · Natal CANCELADA · 10:00:09', 'Paused: zapdesk campaigns restart 3 continues it']);
    const quit = render(<CampaignProgress report={{ campaign, totals }} state="polling" at="10:00:09" width={100} ended="quit" />).lastFrame()!.split('\n');
    expect(quit[0]).toBe('Campaign 3 · Natal EM_ANDAMENTO · 10:00:09 · stopped watching; the campaign goes on');
  });

  it('shows the confirmation counts for a confirmation campaign, and the outage', () => {
    const { lastFrame } = render(<CampaignProgress report={{ campaign: { ...campaign, confirmation: true }, totals: { ...totals, awaitingConfirmation: 2, confirmed: 1 } }} state="offline" offlineSince="10:00:03" at="10:00:05" width={120} />);
    expect(lastFrame()).toContain('○ server unreachable since 10:00:03, retrying…');
    expect(lastFrame()).toContain('2 awaiting confirmation · 1 confirmed · 0 declined');
  });
});
