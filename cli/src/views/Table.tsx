// A list on a TTY: bold headers, aligned columns. Only renders what present.ts computed.
import { Box, Text } from 'ink';
import { tableCells, type Column } from '../present.ts';

export type TableProps = { columns: Column[]; rows: unknown[]; empty?: string; footer?: string };

export function Table({ columns, rows, empty, footer }: TableProps) {
  if (rows.length === 0) return <Text dimColor>{empty ?? 'nothing found'}</Text>;
  const cells = tableCells(columns, rows);
  return (
    <Box flexDirection="column">
      <Box gap={2}>
        {cells.headers.map((h, i) => (
          <Box key={h} width={cells.widths[i]} flexShrink={0}>
            <Text bold color="cyan">
              {h.toUpperCase()}
            </Text>
          </Box>
        ))}
      </Box>
      {cells.rows.map((row, r) => (
        <Box key={r} gap={2}>
          {row.map((cell, i) => (
            <Box key={i} width={cells.widths[i]} flexShrink={0}>
              <Text wrap="truncate-end">{cell}</Text>
            </Box>
          ))}
        </Box>
      ))}
      {footer ? <Text dimColor>{footer}</Text> : null}
    </Box>
  );
}
