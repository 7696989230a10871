// `contacts import` on a TTY: a bar (when the row count is known up front, as for a csv), the
// counts so far and the rate. Only renders; import-screen.ts feeds it.
import { Box, Text } from 'ink';

export type ImportProgressProps = {
  file: string;
  rows: number;
  imported: number;
  skipped: number;
  rejected: number;
  /** Rows the file is expected to hold; unknown for an xlsx. */
  total?: number;
  seconds: number;
  done: boolean;
};

const BAR_WIDTH = 30;
const n = (v: number) => v.toLocaleString('en-US');

export function ImportProgress({ file, rows, imported, skipped, rejected, total, seconds, done }: ImportProgressProps) {
  const rate = seconds > 0 ? Math.round(rows / seconds) : 0;
  const share = done ? 1 : total ? Math.min(rows / total, 1) : undefined;
  const filled = share === undefined ? 0 : Math.round(share * BAR_WIDTH);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{done ? 'Imported' : 'Importing'}</Text> {file}
        {share === undefined ? null : (
          <Text>
            {'  '}
            <Text color={done ? 'green' : 'cyan'}>{'█'.repeat(filled)}</Text>
            <Text dimColor>{'░'.repeat(BAR_WIDTH - filled)}</Text> {Math.floor(share * 100)}%
          </Text>
        )}
      </Text>
      <Text>
        {n(rows)} rows · <Text color="green">{n(imported)} imported</Text> · {n(skipped)} skipped ·{' '}
        <Text color={rejected ? 'red' : undefined}>{n(rejected)} rejected</Text>
        <Text dimColor>
          {' '}
          · {n(rate)} rows/s · {seconds.toFixed(1)}s
        </Text>
      </Text>
    </Box>
  );
}
