// A list on a TTY: bold headers, aligned columns, cut to the terminal's width (present.ts decides
// which columns show and how wide). Only renders what present.ts computed.
import { Box, Text } from 'ink';
import { COLUMN_GAP, fitWidths, tableCells, type Column } from '../present.ts';

export type TableProps = { columns: Column[]; rows: unknown[]; empty?: string; footer?: string; /** The terminal's columns; none: as wide as the cells. */ width?: number };

export function Table({ columns, rows, empty, footer, width }: TableProps) {
  if (rows.length === 0) return <Text dimColor>{empty ?? 'nothing found'}</Text>;
  const cells = tableCells(columns, rows);
  const widths = width ? fitWidths(columns, cells.widths, width) : cells.widths;
  const shown = widths.map((w, i) => (w > 0 ? i : -1)).filter((i) => i >= 0);
  return (
    <Box flexDirection="column">
      <Box gap={COLUMN_GAP}>
        {shown.map((i) => (
          <Box key={i} width={widths[i]} flexShrink={0}>
            <Text bold color="cyan" wrap="truncate-end">
              {cells.headers[i]!.toUpperCase()}
            </Text>
          </Box>
        ))}
      </Box>
      {cells.rows.map((row, r) => (
        <Box key={r} gap={COLUMN_GAP}>
          {shown.map((i) => (
            <Box key={i} width={widths[i]} flexShrink={0}>
              <Text wrap="truncate-end">{row[i]}</Text>
            </Box>
          ))}
        </Box>
      ))}
      {footer ? <Text dimColor wrap="truncate-end">{footer}</Text> : null}
    </Box>
  );
}
