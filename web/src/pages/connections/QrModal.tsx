// The pairing QR (spec/03 §2), drawn at 256 px from the synced connection row: every new code the
// server emits reaches the row by a poke and is redrawn; the modal closes by itself once connected.
import { toDataURL } from 'qrcode';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { toast } from '../../ui/toast/store.ts';
import { qrModalDone } from './session-actions.ts';
import './strings.ts';

export const QR_SIZE = 256;

export function QrModal({ connectionId, onClose }: { connectionId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const rows = useSyncedList('connection');
  const row = rows?.find((c) => c.id === connectionId);
  const [image, setImage] = useState<string | null>(null);
  const sawCode = useRef(false);
  const code = row?.qrcode ?? '';

  useEffect(() => {
    if (!code) return setImage(null);
    sawCode.current = true;
    let live = true;
    void toDataURL(code, { width: QR_SIZE, margin: 1, errorCorrectionLevel: 'L' }).then((url) => live && setImage(url));
    return () => {
      live = false;
    };
  }, [code]);

  const done = rows !== undefined && qrModalDone(row, sawCode.current);
  useEffect(() => {
    if (!done) return;
    if (row?.status === 'CONNECTED') toast.success(t('connections.connected', { name: row.name }));
    onClose();
  }, [done]); // once, when it becomes done

  const name = row?.name ?? '';
  return (
    <Dialog open title={t('connections.qrTitle', { name })} onClose={onClose}>
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        <p className="text-sm text-muted sm:flex-1">{t('connections.qrHelp')}</p>
        <div className="flex size-[256px] shrink-0 items-center justify-center rounded-md bg-white" data-testid="qr-box" aria-live="polite">
          {image ? (
            <img src={image} width={QR_SIZE} height={QR_SIZE} alt={t('connections.qrAlt', { name })} data-code={code} />
          ) : (
            <span className="text-sm text-slate-500">{t('connections.qrWaiting')}</span>
          )}
        </div>
      </div>
    </Dialog>
  );
}
