// One optional attachment in a form: shows the current file's name, lets the user pick another or
// remove it; the change is applied after saving (media.ts).
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { IconButton } from '../../ui/Button.tsx';
import type { MediaChange } from './media.ts';
import './strings.ts';

type Props = { label: string; current: string | null; change: MediaChange; onChange: (change: MediaChange) => void; accept?: string; error?: string | undefined };

export function AttachmentField({ label, current, change, onChange, accept, error }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const shown = change.kind === 'replace' ? change.file.name : change.kind === 'remove' ? null : current;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-[13px] font-medium">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input
          id={id}
          type="file"
          accept={accept}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) onChange({ kind: 'replace', file });
          }}
          className="block min-w-0 flex-1 text-sm text-muted file:mr-3 file:h-9 file:rounded-md file:border file:border-line file:bg-surface file:px-3 file:text-ink"
        />
        {shown && <IconButton icon="trash" tone="danger" label={t('quick-messages.removeAttachment', { name: shown })} onClick={() => onChange(current ? { kind: 'remove' } : { kind: 'keep' })} />}
      </div>
      <p className="text-xs text-muted">{shown ? t('quick-messages.attached', { name: shown }) : t('quick-messages.noAttachment')}</p>
      {error && <p className="text-xs text-danger">{error}</p>}
    </div>
  );
}
