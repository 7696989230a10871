// Create or edit a file list (spec/03 §5: name at least 3 characters, message required) with its
// options: each a name and, optionally, a file. The list is saved first (its options get ids), then
// the chosen files go up with POST /files/uploadList/{id}, each with its option's id. A file the
// server would refuse (type, size: sync's classifyUpload) is said at once and nothing is saved, so
// a refused upload never leaves a list saved with an option and no file.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppError, classifyUpload, extensionOf, fileListCreateSchema, UPLOAD_RULES, type FileListRecord } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../forms/useSaveForm.tsx';
import { Button, IconButton } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextAreaField, TextField } from '../../ui/Field.tsx';

type Option = { id?: number; name: string; path: string; file: File | null };
type Props = { fileList: FileListRecord | null; onClose: () => void; onSaved: () => void };

export function FileListModal({ fileList, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState(fileList?.name ?? '');
  const [message, setMessage] = useState(fileList?.message ?? '');
  const [options, setOptions] = useState<Option[]>(fileList?.options.map((o) => ({ id: o.id, name: o.name, path: o.path, file: null })) ?? []);
  const { errors, busy, submit } = useSaveForm<FileListRecord>(onSaved);
  const change = (i: number, patch: Partial<Option>) => setOptions((all) => all.map((o, j) => (j === i ? { ...o, ...patch } : o)));
  const fileProblems = options.map((o) => (o.file ? fileProblem(o.file) : undefined));
  /** What the server would refuse in this file, in the user's words (undefined: it goes). */
  function fileProblem(file: File): string | undefined {
    try {
      classifyUpload({ fileName: file.name, mimeType: file.type, size: file.size });
      return undefined;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code !== 'ERR_PAYLOAD_TOO_LARGE') return t('files.fileType', { ext: extensionOf(file.name) || '?' });
      const rule = Object.values(UPLOAD_RULES).find((r) => (r.extensions as readonly string[]).includes(extensionOf(file.name)));
      return t('files.fileTooBig', { name: file.name, mb: (rule?.maxBytes ?? 0) / 1024 / 1024 });
    }
  }

  const save = async () => {
    if (fileProblems.some(Boolean)) return;
    const body = { name, message, options: options.map((o) => ({ ...(o.id ? { id: o.id } : {}), name: o.name })) };
    await submit(fileListCreateSchema, body, async () => {
      const saved = fileList ? await api.put<FileListRecord>(`/files/${fileList.id}`, body) : await api.post<FileListRecord>('/files', body);
      // The answer lists the options in the order sent (new ones last by id, as they were made).
      const form = new FormData();
      options.forEach((o, i) => {
        const id = o.id ?? saved.options[i]?.id;
        if (!o.file || !id) return;
        form.append('files', o.file, o.file.name);
        form.append('id', String(id));
      });
      if (!form.has('files')) return saved;
      form.append('typeArch', 'fileList');
      form.append('fileId', String(saved.id));
      return api.post<FileListRecord>(`/files/uploadList/${saved.id}`, form);
    });
  };

  return (
    <Dialog open size="md" title={fileList ? t('files.edit') : t('files.new')} onClose={onClose} onSubmit={() => void save()} footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}>
      <div className="flex flex-col gap-4">
        <TextField label={t('files.name')} name="name" value={name} error={errors.name} onChange={(e) => setName(e.target.value)} />
        <TextAreaField label={t('files.message')} name="message" value={message} error={errors.message} onChange={(e) => setMessage(e.target.value)} />
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-1 text-[13px] font-medium">{t('files.options')}</legend>
          {options.map((o, i) => (
            <div key={o.id ?? `new-${i}`} className="flex flex-col gap-2 rounded-md border border-line p-3">
              <div className="flex items-end gap-2">
                <TextField label={t('files.optionName', { n: i + 1 })} wrapperClassName="flex-1" value={o.name} error={errors[`options.${i}.name`]} onChange={(e) => change(i, { name: e.target.value })} />
                <IconButton icon="trash" tone="danger" label={t('files.removeOption', { n: i + 1 })} onClick={() => setOptions((all) => all.filter((_, j) => j !== i))} />
              </div>
              <label className="flex flex-col gap-1 text-[13px]">
                {t('files.optionFile', { n: i + 1 })}
                <input
                  type="file"
                  accept=".png,.jpg,.jpeg,.mp3,.ogg,.opus,.mp4,.pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.odt,.ods,.txt,.csv,.zip"
                  onChange={(e) => change(i, { file: e.target.files?.[0] ?? null })}
                  aria-invalid={fileProblems[i] ? true : undefined}
                  className="block w-full text-sm text-muted file:mr-3 file:h-8 file:rounded-md file:border file:border-line file:bg-surface file:px-3 file:text-ink"
                />
              </label>
              {fileProblems[i] && (
                <p role="alert" className="text-xs text-danger">
                  {fileProblems[i]}
                </p>
              )}
              {o.path && !o.file && <p className="text-xs text-muted">{t('files.current', { name: o.path })}</p>}
            </div>
          ))}
          <Button variant="secondary" icon="plus" onClick={() => setOptions((all) => [...all, { name: '', path: '', file: null }])}>
            {t('files.addOption')}
          </Button>
        </fieldset>
      </div>
    </Dialog>
  );
}
