// The Ink view of anything a command shows.
import { Text } from 'ink';
import type { Shown } from '../present.ts';
import { Record } from './Record.tsx';
import { Table } from './Table.tsx';

export function ShownView({ shown, width }: { shown: Shown; width?: number }) {
  if (shown.kind === 'table') return <Table columns={shown.columns} rows={shown.rows} empty={shown.empty} footer={shown.footer} width={width} />;
  if (shown.kind === 'record') return <Record title={shown.title} fields={shown.fields} />;
  return <Text>{shown.text}</Text>;
}

/** For callers that load this module lazily and should not need JSX themselves. */
export const shownElement = (shown: Shown, width?: number) => <ShownView shown={shown} width={width} />;
