// New or edit internal chat (spec/02 §2.18, §5): a title and at least one other user, otherwise an
// alert; only the owner edits.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Chat } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../forms/useSaveForm.tsx';
import { useUser } from '../../session/SessionProvider.tsx';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/Field.tsx';

type Props = { chat: Chat | null; onClose: () => void; onSaved: (chat: Chat) => void };

export function ChatDialog({ chat, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const me = useUser();
  const users = (useSyncedList('user') ?? []).filter((u) => u.id !== me.id).sort((a, b) => a.name.localeCompare(b.name));
  const [title, setTitle] = useState(chat?.title ?? '');
  const [chosen, setChosen] = useState<Set<number>>(() => new Set(chat?.users.map((u) => u.userId).filter((id) => id !== me.id) ?? []));
  const [alert, setAlert] = useState<string | null>(null);
  const { busy, run } = useSaveForm<Chat>(onSaved);

  const toggle = (id: number) =>
    setChosen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const save = async () => {
    if (title.trim() === '' || chosen.size === 0) {
      setAlert(t('chats.needTitleAndUsers'));
      return;
    }
    setAlert(null);
    const body = { title: title.trim(), users: [...chosen].map((id) => ({ id })) };
    await run(() => (chat ? api.put<Chat>(`/chats/${chat.id}`, body) : api.post<Chat>('/chats', body)));
  };

  return (
    <Dialog open title={chat ? t('chats.edit') : t('chats.new')} onClose={onClose} onSubmit={() => void save()} footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}>
      <div className="flex flex-col gap-4">
        <TextField label={t('chats.chatTitle')} name="title" value={title} onChange={(e) => setTitle(e.target.value)} />
        <fieldset>
          <legend className="mb-2 text-[13px] font-medium">{t('chats.members')}</legend>
          <ul className="max-h-56 overflow-y-auto rounded-md border border-line">
            {users.map((u) => (
              <li key={u.id} className="border-b border-line last:border-0">
                <label className="flex cursor-pointer items-center gap-2.5 px-3 py-2 text-sm hover:bg-raised">
                  <input type="checkbox" checked={chosen.has(u.id)} onChange={() => toggle(u.id)} className="size-4 accent-(--color-brand)" />
                  <span className={`size-2 rounded-full ${u.online ? 'bg-emerald-500' : 'bg-line'}`} aria-hidden="true" />
                  {u.name}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        {alert && (
          <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
            {alert}
          </p>
        )}
      </div>
    </Dialog>
  );
}
