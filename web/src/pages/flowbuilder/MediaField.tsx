// A media file for a node or a content card: checked against spec/03 §5's caps and types, then sent
// at once to POST /flowbuilder/img | audio | content; the node keeps the stored name the server gives.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { flowApi } from '../flowbuilders/flow-api.ts';
import { acceptOf, checkUpload, uploadPathOf, type MediaKind } from './node-forms.ts';

/** spec/03 §5: images are compressed to quality 0.7 before they go up; a JPEG only (PNG has no quality), and only when smaller. */
async function compressImage(file: File): Promise<File> {
  if (file.type !== 'image/jpeg' || typeof createImageBitmap !== 'function') return file;
  try {
    const bitmap = await createImageBitmap(file);
    const canvas = document.createElement('canvas');
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.7));
    return blob && blob.size < file.size ? new File([blob], file.name, { type: 'image/jpeg' }) : file;
  } catch {
    return file;
  }
}

type Props = {
  kind: MediaKind;
  inContent?: boolean;
  /** The stored name, and the name the file had on the user's disk. */
  value: string;
  original?: string | undefined;
  error?: string | undefined;
  label: string;
  onUploaded: (stored: string, original: string) => void;
};

export function MediaField({ kind, inContent = false, value, original, error, label, onUploaded }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    const refused = checkUpload(kind, file, inContent);
    if (refused) {
      setProblem(t(`flowbuilder.rules.${refused.key}`, { mb: refused.mb, types: refused.types }));
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      const stored = await flowApi.upload(uploadPathOf(kind, inContent), kind === 'img' ? await compressImage(file) : file);
      onUploaded(stored, file.name);
      if (kind === 'img') toast.success(t('flowbuilder.imageAdded'));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const message = problem ?? error;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-[13px] font-medium">
        {label}
      </label>
      <input
        id={id}
        type="file"
        accept={acceptOf(kind)}
        disabled={busy}
        aria-invalid={message ? true : undefined}
        onChange={(e) => void pick(e.target.files?.[0])}
        className="block w-full text-sm text-muted file:mr-3 file:h-8 file:rounded-md file:border file:border-line file:bg-surface file:px-3 file:text-ink"
      />
      {busy && <p className="text-xs text-muted">{t('flowbuilder.uploading')}</p>}
      {value && !busy && <p className="truncate text-xs text-muted">{t('flowbuilder.currentFile', { name: original || value })}</p>}
      {message && <p className="text-xs text-danger">{message}</p>}
    </div>
  );
}
