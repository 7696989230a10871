// One entity on a TTY: labels dimmed and aligned, values as text.
import { Box, Text } from 'ink';
import { cellText } from '../present.ts';

export type RecordProps = { title?: string; fields: [string, unknown][] };

export function Record({ title, fields }: RecordProps) {
  const width = Math.max(...fields.map(([label]) => label.length));
  return (
    <Box flexDirection="column">
      {title ? <Text bold>{title}</Text> : null}
      {fields.map(([label, value]) => (
        <Box key={label} gap={2}>
          <Box width={width} flexShrink={0}>
            <Text dimColor>{label}</Text>
          </Box>
          <Text>{cellText(value)}</Text>
        </Box>
      ))}
    </Box>
  );
}
