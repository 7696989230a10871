// The delete cycle every list shares: ask for one row, confirm in a dialog, call the API, toast
// "deleted" (or the error), close. Pages spread `dialog` into ConfirmDialog and word its texts.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../ui/toast/store.ts';
import { toastError } from '../ui/toast/toast-error.ts';

export function useConfirmDelete<T>(remove: (row: T) => Promise<void>) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);

  const onConfirm = async () => {
    if (target === null) return;
    setBusy(true);
    try {
      await remove(target);
      toast.success(t('common.deleted'));
      setTarget(null);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return {
    /** The row waiting for confirmation, or null. */
    target,
    ask: (row: T) => setTarget(row),
    dialog: { open: target !== null, busy, onConfirm: () => void onConfirm(), onClose: () => setTarget(null) },
  };
}
