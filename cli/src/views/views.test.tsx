// The Ink views render what present.ts describes: frames compared as a person would see them.
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { column } from '../present.ts';
import { Record } from './Record.tsx';
import { Table } from './Table.tsx';

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

describe('Record', () => {
  it('lines labels up and shows lists and booleans as words', () => {
    const { lastFrame } = render(<Record title="Plan 3: Pro" fields={[['users', 10], ['kanban', false], ['features', ['campaigns', 'kanban']]]} />);
    expect(lastFrame()).toBe(['Plan 3: Pro', 'users     10', 'kanban    no', 'features  campaigns, kanban'].join('\n'));
  });
});
