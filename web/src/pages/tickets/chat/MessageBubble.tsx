// One message: left (contact) or right (us) bubble with its quoted message, media, text (WhatsApp
// *bold*), time, ticks by ack, edited and deleted marks, and an options menu (reply; delete for
// our own messages).
import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message, QuotedMessage } from '@zapdesk/sync';
import { Icon } from '../../../ui/Icon.tsx';
import { Menu, type MenuEntry } from '../../../ui/Menu.tsx';
import { MessageMedia } from './MessageMedia.tsx';
import { tickOf, timeLabel } from './messages.ts';

/** *bold* as WhatsApp writes it; the rest as typed. */
export function formatBody(body: string): ReactNode[] {
  return body.split(/(\*[^*\n]+\*)/g).map((part, i) => (part.length > 2 && part.startsWith('*') && part.endsWith('*') ? <strong key={i}>{part.slice(1, -1)}</strong> : part));
}

function Ticks({ ack }: { ack: number }) {
  const { t } = useTranslation();
  const tick = tickOf(ack);
  const label = t(`tickets.chat.ticks.${tick}`);
  const icon = tick === 'clock' ? 'clock' : tick === 'sent' ? 'check' : 'checks';
  return (
    <span role="img" aria-label={label} title={label} data-tick={tick} className={tick === 'read' ? 'text-sky-500' : 'text-muted'}>
      <Icon name={icon} className="size-3.5" />
    </span>
  );
}

export function QuotedPreview({ quoted, contactName }: { quoted: QuotedMessage | Message; contactName: string }) {
  const { t } = useTranslation();
  return (
    <div className={`mb-1 rounded border-l-4 bg-canvas/50 px-2 py-1 text-xs ${quoted.fromMe ? 'border-brand' : 'border-amber-500'}`}>
      <span className="block font-semibold">{quoted.fromMe ? t('tickets.chat.you') : contactName}</span>
      <span className="line-clamp-2 text-muted">{quoted.isDeleted ? t('tickets.chat.deleted') : quoted.body || (quoted.mediaType ? t('tickets.chat.file') : '')}</span>
    </div>
  );
}

type Props = { message: Message; first: boolean; contactName: string; onReply?: (m: Message) => void; onDelete?: (m: Message) => void };

export const MessageBubble = memo(function MessageBubble({ message: m, first, contactName, onReply, onDelete }: Props) {
  const { t } = useTranslation();
  const showsBody = m.body && !['locationMessage', 'vcard', 'contactMessage', 'call_log'].includes(m.mediaType ?? '');
  const entries: MenuEntry[] = [];
  if (onReply && !m.isDeleted && m.id > 0) entries.push({ key: 'reply', label: t('tickets.chat.reply'), onSelect: () => onReply(m) });
  if (onDelete && m.fromMe && !m.isDeleted && m.id > 0) entries.push({ key: 'delete', label: t('tickets.chat.deleteMessage'), onSelect: () => onDelete(m) });
  return (
    <div className={`group flex px-3 sm:px-6 ${m.fromMe ? 'justify-end' : 'justify-start'} ${first ? 'pt-2' : 'pt-0.5'}`} data-message-id={m.id} data-from-me={m.fromMe}>
      <div
        className={`relative max-w-[85%] min-w-24 rounded-lg px-2.5 pt-1.5 pb-1 shadow-xs sm:max-w-[70%] ${
          m.fromMe ? 'bg-emerald-100 text-ink dark:bg-emerald-900/60' : 'bg-surface text-ink dark:bg-slate-800'
        } ${first ? (m.fromMe ? 'rounded-tr-none' : 'rounded-tl-none') : ''}`}
      >
        {entries.length > 0 && (
          <div className="absolute top-0.5 right-0.5 opacity-0 group-focus-within:opacity-100 group-hover:opacity-100">
            <Menu
              label={t('tickets.chat.messageMenu')}
              entries={entries}
              trigger={<Icon name="chevronDown" className="size-4" />}
              triggerClassName="rounded bg-inherit p-0.5 text-muted hover:text-ink"
            />
          </div>
        )}
        {m.isDeleted ? (
          <p className="flex items-center gap-1.5 pr-6 text-sm text-muted italic">
            <Icon name="x" className="size-3.5" />
            {t('tickets.chat.deleted')}
          </p>
        ) : (
          <>
            {m.quotedMsg && <QuotedPreview quoted={m.quotedMsg} contactName={contactName} />}
            <MessageMedia message={m} />
            {showsBody && <p className="pr-6 text-sm break-words whitespace-pre-wrap">{formatBody(m.body)}</p>}
          </>
        )}
        <p className="mt-0.5 flex items-center justify-end gap-1 text-[11px] text-muted">
          {m.isEdited && !m.isDeleted && <span>{t('tickets.chat.edited')}</span>}
          <time dateTime={m.createdAt}>{timeLabel(m.createdAt)}</time>
          {m.fromMe && <Ticks ack={m.ack} />}
        </p>
      </div>
    </div>
  );
});
