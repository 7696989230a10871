// The message input (spec/02 §2.5, §5, §9): multiline up to 5 rows, Enter sends (Shift+Enter breaks
// the line), emoji picker (lazy), several attachments or a pasted file, sign-message switch
// (stored as signOption, default on), quick answers on a leading "/", audio recording. Text goes
// through the sendMessage mutator, so the bubble shows at once; files go as multipart. A quick
// answer's attachment is shown with the files and sent by naming the quick message (the server
// has the file), through either path.
import { lazy, Suspense, useMemo, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message, Ticket } from '@zapdesk/sync';
import { api } from '../../../api/client.ts';
import { readStored, writeStored } from '../../../session/storage.ts';
import { useUser } from '../../../session/SessionProvider.tsx';
import { useReplicache } from '../../../sync/SyncProvider.tsx';
import { useSyncedList } from '../../../sync/use-synced.ts';
import { IconButton } from '../../../ui/Button.tsx';
import { Icon } from '../../../ui/Icon.tsx';
import { toastError } from '../../../ui/toast/toast-error.ts';
import type { RecorderState } from './audio.ts';
import { AudioRecorder } from './AudioRecorder.tsx';
import { QuotedPreview } from './MessageBubble.tsx';
import { fillQuickAnswer, matchQuickAnswers, newLocalId, quickLabel } from './compose.ts';

const EmojiPicker = lazy(() => import('./EmojiPicker.tsx'));

type Props = { ticket: Ticket; enabled: boolean; replyTo: Message | null; onCancelReply: () => void };

export function MessageInput({ ticket, enabled, replyTo, onCancelReply }: Props) {
  const { t, i18n } = useTranslation();
  const me = useUser();
  const rep = useReplicache();
  const quickMessages = useSyncedList('quickMessage');
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [quickFile, setQuickFile] = useState<{ id: number; name: string } | null>(null);
  const [sign, setSign] = useState(() => readStored('signOption') !== 'false');
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [recorder, setRecorder] = useState<RecorderState>('idle');
  const [uploading, setUploading] = useState(false);
  const [quickIndex, setQuickIndex] = useState(0);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  const quick = useMemo(() => matchQuickAnswers(text, quickMessages ?? [], me.id), [text, quickMessages, me.id]);

  const toggleSign = () => {
    writeStored('signOption', String(!sign));
    setSign(!sign);
  };

  /** Sends files with the text as their caption; false when it failed (the toast says why). */
  const upload = async (list: File[], body: string, quickMessageId?: number): Promise<boolean> => {
    const form = new FormData();
    for (const f of list) form.append('medias', f, f.name);
    form.append('body', body);
    form.append('signMessage', String(sign));
    if (quickMessageId) form.append('quickMessageId', String(quickMessageId));
    if (replyTo) form.append('quotedMsg', String(replyTo.id));
    setUploading(true);
    try {
      await api.post(`/messages/${ticket.id}`, form);
      onCancelReply();
      return true;
    } catch (err) {
      toastError(err);
      return false;
    } finally {
      setUploading(false);
    }
  };
  /** A refused send's files and text go back in the composer (unless new ones are there), to fix and send again. */
  const giveBack = (list: File[], body: string, quick: typeof quickFile) => {
    setFiles((now) => (now.length ? now : list));
    setText((now) => (now ? now : body));
    setQuickFile((now) => now ?? quick);
  };

  const sendVoiceNote = async (file: File) => {
    if (!(await upload([file], ''))) giveBack([file], '', null);
  };

  const send = async () => {
    if (!enabled) return;
    const body = text;
    const quickMessageId = quickFile?.id ?? null;
    if (files.length) {
      const [list, quick] = [files, quickFile];
      setFiles([]);
      setQuickFile(null);
      setText('');
      if (!(await upload(list, body, quickMessageId ?? undefined))) giveBack(list, body, quick);
      return;
    }
    // An empty or blank message is not sent (spec/02 §5), unless it carries a quick answer's file.
    if ((!body.trim() && !quickMessageId) || !rep) return;
    setText('');
    setQuickFile(null);
    onCancelReply();
    await rep.mutate.sendMessage({
      ticketId: ticket.id,
      localId: newLocalId(),
      body,
      quotedMsgId: replyTo && replyTo.id > 0 ? replyTo.id : null,
      quickMessageId,
      signMessage: sign,
      userId: me.id,
      sentAt: new Date().toISOString(),
    });
  };

  const pickQuick = (index: number) => {
    const q = quick[index];
    if (!q) return;
    setText(fillQuickAnswer(q.message, ticket, i18n.language));
    setQuickFile(q.mediaPath ? { id: q.id, name: q.mediaName ?? q.shortcode } : null);
    inputRef.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (quick.length) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setQuickIndex((i) => (i + (e.key === 'ArrowDown' ? 1 : -1) + quick.length) % quick.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        pickQuick(Math.min(quickIndex, quick.length - 1));
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  const onPaste = (e: ClipboardEvent) => {
    const pasted = [...e.clipboardData.files];
    if (!pasted.length || !enabled) return;
    e.preventDefault();
    setFiles((prev) => [...prev, ...pasted]);
  };

  const insertEmoji = (emoji: string) => {
    const el = inputRef.current;
    const at = el?.selectionStart ?? text.length;
    setText(text.slice(0, at) + emoji + text.slice(el?.selectionEnd ?? at));
    setEmojiOpen(false);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + emoji.length, at + emoji.length);
    });
  };

  const rows = Math.min(5, Math.max(1, text.split('\n').length));
  const busy = uploading || recorder === 'sending';
  const quickId = `quick-${ticket.id}`;
  return (
    <div className="relative border-t border-line bg-surface px-2 py-2 sm:px-3">
      {replyTo && (
        <div className="mb-2 flex items-start gap-2">
          <div className="min-w-0 flex-1">
            <span className="text-xs text-muted">{t('tickets.chat.replying')}</span>
            <QuotedPreview quoted={replyTo} contactName={ticket.contact.name} />
          </div>
          <IconButton icon="x" label={t('tickets.chat.cancelReply')} onClick={onCancelReply} />
        </div>
      )}
      {(files.length > 0 || quickFile) && (
        <ul aria-label={t('tickets.chat.attachments')} className="mb-2 flex flex-wrap gap-1.5">
          {quickFile && (
            <li className="flex items-center gap-1 rounded-full border border-brand/40 bg-brand-soft py-0.5 pr-0.5 pl-2 text-xs" title={t('tickets.chat.quickAttachment')}>
              <Icon name="paperclip" className="size-3.5 shrink-0 text-brand" />
              <span className="max-w-40 truncate">{quickFile.name}</span>
              <button type="button" aria-label={t('tickets.chat.removeFile', { name: quickFile.name })} onClick={() => setQuickFile(null)} className="rounded-full p-1 hover:bg-line">
                ✕
              </button>
            </li>
          )}
          {files.map((f, i) => (
            <li key={`${f.name}-${i}`} className="flex items-center gap-1 rounded-full border border-line bg-raised py-0.5 pr-0.5 pl-2.5 text-xs">
              <span className="max-w-40 truncate">{f.name}</span>
              <button type="button" aria-label={t('tickets.chat.removeFile', { name: f.name })} onClick={() => setFiles(files.filter((_, j) => j !== i))} className="rounded-full p-1 hover:bg-line">
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      {quick.length > 0 && (
        <ul id={quickId} role="listbox" aria-label={t('tickets.chat.quickAnswers')} className="absolute right-2 bottom-full left-2 mb-1 max-h-56 overflow-y-auto rounded-lg border border-line bg-surface py-1 shadow-lg">
          {quick.map((q, i) => (
            <li
              key={q.id}
              role="option"
              aria-selected={i === quickIndex}
              onMouseDown={(e) => {
                e.preventDefault();
                pickQuick(i);
              }}
              className={`cursor-pointer px-3 py-1.5 text-sm ${i === quickIndex ? 'bg-raised' : ''}`}
            >
              <span className="font-medium">/{q.shortcode}</span> <span className="text-muted">{quickLabel(q.message)}</span>
              {q.mediaPath && (
                <span className="ml-1 inline-flex align-middle text-muted" role="img" aria-label={t('tickets.chat.quickAttachment')}>
                  <Icon name="paperclip" className="size-3.5" />
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {emojiOpen && (
        <div className="absolute bottom-full left-2 z-20 mb-1">
          <Suspense fallback={null}>
            <EmojiPicker onPick={insertEmoji} onClose={() => setEmojiOpen(false)} />
          </Suspense>
        </div>
      )}
      <div className="flex items-end gap-1">
        {recorder === 'idle' && (
          <>
            <IconButton icon="smile" label={t('tickets.chat.emoji')} aria-expanded={emojiOpen} onClick={() => setEmojiOpen((o) => !o)} disabled={!enabled} />
            <IconButton icon="paperclip" label={t('tickets.chat.attach')} onClick={() => fileRef.current?.click()} disabled={!enabled} />
            <input
              ref={fileRef}
              type="file"
              multiple
              hidden
              onChange={(e) => {
                setFiles((prev) => [...prev, ...(e.target.files ? [...e.target.files] : [])]);
                e.target.value = '';
              }}
            />
            <label className="flex h-9 items-center gap-1 px-1 text-xs text-muted" title={t('tickets.chat.sign')}>
              <input type="checkbox" role="switch" checked={sign} onChange={toggleSign} disabled={!enabled} className="accent-brand" />
              <span className="sr-only sm:not-sr-only">{t('tickets.chat.sign')}</span>
            </label>
            <textarea
              ref={inputRef}
              rows={rows}
              value={text}
              disabled={!enabled || busy}
              onChange={(e) => {
                setText(e.target.value);
                setQuickIndex(0);
              }}
              onKeyDown={onKeyDown}
              onPaste={onPaste}
              placeholder={enabled ? t('tickets.chat.placeholderShort') : t('tickets.chat.closedPlaceholder')}
              aria-label={enabled ? t('tickets.chat.placeholder') : t('tickets.chat.closedPlaceholder')}
              aria-controls={quick.length ? quickId : undefined}
              aria-autocomplete="list"
              className="max-h-32 min-h-9 flex-1 resize-none rounded-md border border-line bg-canvas px-3 py-2 text-sm focus:border-brand focus:ring-2 focus:ring-brand/25 focus:outline-none disabled:opacity-60"
            />
          </>
        )}
        {text.trim() || files.length || quickFile ? (
          <IconButton icon="send" label={t('tickets.chat.send')} onClick={() => void send()} disabled={!enabled || busy} className="text-brand" />
        ) : (
          <AudioRecorder disabled={!enabled} onRecorded={sendVoiceNote} onStateChange={setRecorder} />
        )}
      </div>
    </div>
  );
}
