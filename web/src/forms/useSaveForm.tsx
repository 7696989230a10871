// The save cycle every create/edit dialog shares: validate with the shared schema, show field
// errors, send, toast, hand the saved record back; server-side field errors land on the fields.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { AppError } from '../api/client.ts';
import { Button } from '../ui/Button.tsx';
import { toast } from '../ui/toast/store.ts';
import { toastError } from '../ui/toast/toast-error.ts';
import { serverFieldErrors, validate, type FieldErrors } from './validate.ts';

export function useSaveForm<R>(onSaved: (saved: R) => void) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  /** Sends and reports, for a dialog that checks its input itself. */
  const run = async (send: () => Promise<R>) => {
    setBusy(true);
    try {
      const saved = await send();
      toast.success(t('common.saved'));
      onSaved(saved);
    } catch (err) {
      if (err instanceof AppError && err.issues) setErrors(serverFieldErrors(err.issues));
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const submit = async (schema: z.ZodType, body: unknown, send: () => Promise<R>) => {
    const parsed = validate(schema, body, t);
    setErrors(parsed.ok ? {} : parsed.errors);
    if (parsed.ok) await run(send);
  };

  return { errors, busy, submit, run };
}

/** Cancel and Save, the footer of every create/edit dialog; `label` names the submit when it is not a save (Transfer, Open). */
export function SaveCancelFooter({ busy, onCancel, label }: { busy: boolean; onCancel: () => void; label?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Button variant="secondary" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" busy={busy}>
        {label ?? t('common.save')}
      </Button>
    </>
  );
}
