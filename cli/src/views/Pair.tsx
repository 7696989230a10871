// `connections pair`: the QR as the server last sent it, redrawn when a new one arrives, and the
// status under it. Only renders; pair.ts feeds it.
import { Box, Text } from 'ink';

export type PairProps = { name: string; id: number; status: string; qr: string | undefined; attempt: number; seconds: number };

const HINTS: Record<string, string> = {
  qrcode: 'WhatsApp on the phone → Settings → Linked devices → Link a device, then point the camera here.',
  PAIRING: 'Scanned: pairing…',
  OPENING: 'Opening the session…',
  CONNECTED: 'Connected.',
  TIMEOUT: 'Nobody scanned in time (TIMEOUT). Run the command again for a new QR.',
  DISCONNECTED: 'Disconnected.',
};

export function Pair({ name, id, status, qr, attempt, seconds }: PairProps) {
  const color = status === 'CONNECTED' ? 'green' : status === 'TIMEOUT' || status === 'DISCONNECTED' ? 'red' : 'yellow';
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{name}</Text> <Text dimColor>(connection {id})</Text> <Text color={color}>{status}</Text>
        {status === 'qrcode' && attempt > 0 ? <Text dimColor> · QR {attempt} · {seconds}s</Text> : null}
      </Text>
      {qr && status === 'qrcode' ? <Text>{qr}</Text> : null}
      <Text dimColor>{HINTS[status] ?? 'Waiting for the server…'}</Text>
    </Box>
  );
}
