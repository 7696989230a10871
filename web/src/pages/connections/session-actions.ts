// Which session actions a connection offers by status (spec/03 §2), and when the QR modal is done.
import type { Connection, ConnectionStatusValue } from '@zapdesk/sync';

export type SessionAction = 'tryAgain' | 'newQr' | 'qr' | 'disconnect' | 'connecting';

/**
 * The action buttons of one row; `connecting` is shown disabled. None while a delete of it is cut
 * short (`deleting`): the server refuses to start its session until the delete is finished.
 */
export function sessionActions(status: string, deleting = false): SessionAction[] {
  if (deleting) return [];
  switch (status as ConnectionStatusValue) {
    case 'DISCONNECTED':
      return ['tryAgain', 'newQr'];
    case 'qrcode':
      return ['qr'];
    case 'CONNECTED':
    case 'PAIRING':
    case 'TIMEOUT':
      return ['disconnect'];
    case 'OPENING':
      return ['connecting'];
    default:
      return [];
  }
}

/** The request each action sends: start (POST), forget the pairing for a new QR (PUT), log out (DELETE). */
export const ACTION_METHOD = { tryAgain: 'post', newQr: 'put', disconnect: 'delete' } as const;

export type StatusTone = 'brand' | 'warning' | 'danger' | 'neutral';

export function statusTone(status: string): StatusTone {
  if (status === 'CONNECTED') return 'brand';
  if (status === 'DISCONNECTED' || status === 'TIMEOUT') return 'danger';
  if (status === 'qrcode' || status === 'PAIRING') return 'warning';
  return 'neutral';
}

type QrState = Pick<Connection, 'status' | 'qrcode'> | undefined;

/**
 * The QR modal closes when the connection is gone, connected, or when a live update brings an empty
 * code after a code was shown (spec/03 §2). Opened on a session still starting, it waits for a code.
 */
export function qrModalDone(row: QrState, sawCode: boolean): boolean {
  if (!row) return true;
  if (row.status === 'CONNECTED') return true;
  return sawCode && !row.qrcode;
}

/** "dd/MM/yyyy HH:mm" in local time: the table's last-update column. */
export function formatDateTime(iso: string, language: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const locale = language === 'pt' ? 'pt-BR' : language === 'es' ? 'es-ES' : 'en-GB';
  return new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false }).format(d).replace(',', '');
}
