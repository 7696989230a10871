// Contact import from a spreadsheet (spec/02 §2.12-13, §5): only .xlsx; the first sheet is read in
// the browser and its rows go to POST /contacts/upload; the answer lists the new contacts and the
// rows that did not land (errorBag) with the contact's name and the reason.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateError, type ContactUploadResult } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { readSheetRecords } from './xlsx.ts';

type Props = { onClose: () => void; onImported: () => void };

export function ImportDialog({ onClose, onImported }: Props) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const [result, setResult] = useState<ContactUploadResult | null>(null);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setFileError(null);
    if (!/\.xlsx$/i.test(file.name)) {
      setFileError(t('contacts.import.onlyXlsx'));
      return;
    }
    setBusy(true);
    try {
      let rows;
      try {
        rows = readSheetRecords(new Uint8Array(await file.arrayBuffer()));
      } catch {
        setFileError(t('contacts.import.unreadable'));
        return;
      }
      if (rows.length === 0) {
        setFileError(t('contacts.import.empty'));
        return;
      }
      const answer = await api.post<ContactUploadResult>('/contacts/upload', rows);
      setResult(answer);
      toast.success(t('contacts.import.done'));
      onImported();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open size="lg" title={t('contacts.import.title')} onClose={onClose} footer={<Button onClick={onClose}>{t('common.close')}</Button>}>
      {!result ? (
        <div className="flex flex-col gap-3">
          <p className="text-muted">{t('contacts.import.help')}</p>
          <label className="flex flex-col gap-1.5 text-[13px] font-medium">
            {t('contacts.import.file')}
            <input
              type="file"
              accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              disabled={busy}
              aria-invalid={fileError ? true : undefined}
              onChange={(e) => void onFile(e.target.files?.[0])}
              className="block w-full text-sm text-muted file:mr-3 file:h-9 file:rounded-md file:border file:border-line file:bg-surface file:px-3 file:text-ink"
            />
          </label>
          {busy && <p role="status">{t('contacts.import.working')}</p>}
          {fileError && (
            <p role="alert" className="text-sm text-danger">
              {fileError}
            </p>
          )}
        </div>
      ) : (
        <ImportResult result={result} />
      )}
    </Dialog>
  );
}

function ImportResult({ result }: { result: ContactUploadResult }) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-5 sm:grid-cols-2" data-testid="import-result">
      <section aria-labelledby="import-new">
        <h3 id="import-new" className="mb-2 font-semibold">
          {t('contacts.import.newContacts', { count: result.newContacts.length })}
        </h3>
        <ul className="max-h-72 overflow-y-auto rounded-md border border-line text-sm">
          {result.newContacts.map((c) => (
            <li key={c.contactId} className="border-b border-line px-3 py-1.5 last:border-0">
              {c.contactName}
            </li>
          ))}
          {result.newContacts.length === 0 && <li className="px-3 py-1.5 text-muted">—</li>}
        </ul>
      </section>
      <section aria-labelledby="import-errors">
        <h3 id="import-errors" className="mb-2 font-semibold">
          {t('contacts.import.errors', { count: result.errorBag.length })}
        </h3>
        <ul className="max-h-72 overflow-y-auto rounded-md border border-line text-sm">
          {result.errorBag.map((e) => (
            <li key={e.row} className="border-b border-line px-3 py-1.5 last:border-0" title={e.error.message}>
              <span className="font-medium">{e.contactName || t('contacts.import.row', { row: e.row })}</span>
              <span className="block text-xs text-danger">{translateError(e.error.code, currentLanguage())}</span>
            </li>
          ))}
          {result.errorBag.length === 0 && <li className="px-3 py-1.5 text-muted">—</li>}
        </ul>
      </section>
    </div>
  );
}
