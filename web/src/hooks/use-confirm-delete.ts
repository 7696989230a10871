// The delete cycle every list shares: ask with a ConfirmDialog, send, toast "Deleted" (or the
// page's own words, e.g. spec/03's 'Frase deletada'), close; a failure goes through the shared error
// handler and keeps the dialog open.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../ui/toast/store.ts';
import { toastError } from '../ui/toast/toast-error.ts';

export function useConfirmDelete<T>(send: (item: T) => Promise<unknown>, deletedMessage?: string) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    if (target === null) return;
    setBusy(true);
    try {
      await send(target);
      toast.success(deletedMessage ?? t('common.deleted'));
      setTarget(null);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return {
    /** The item waiting for confirmation, or null. */
    target,
    ask: setTarget,
    /** Spread on ConfirmDialog together with its title and message. */
    dialog: { open: target !== null, busy, onConfirm: () => void confirm(), onClose: () => setTarget(null) },
  };
}
