// One message: left (contact) or right (us) bubble with its quoted message, media, text (WhatsApp
// *bold*), time, ticks by ack (a clock while it waits in the outbox), edited and deleted marks, an
// options menu (reply; delete for our own messages), and for a send that failed for good its
// reason, worded from the error catalogue, with a resend action for those allowed to send.
import { memo, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { translateError, type Message, type QuotedMessage } from '@zapdesk/sync';
import { currentLanguage } from '../../../i18n/index.ts';
import { Icon } from '../../../ui/Icon.tsx';
import { Menu, type MenuEntry } from '../../../ui/Menu.tsx';
import { MessageMedia } from './MessageMedia.tsx';
import { sendMarkOf, timeLabel, type SendMark } from './messages.ts';

/** *bold* as WhatsApp writes it; the rest as typed. */
export function formatBody(body: string): ReactNode[] {
  return body.split(/(\*[^*\n]+\*)/g).map((part, i) => (part.length > 2 && part.startsWith('*') && part.endsWith('*') ? <strong key={i}>{part.slice(1, -1)}</strong> : part));
}

/** What goes where the ticks go: the clock, the ticks by ack, or the failure mark. */
function SendMarkIcon({ mark }: { mark: SendMark }) {
  const { t } = useTranslation();
  if (mark.kind === 'failed') {
    const label = t(mark.unconfirmed ? 'tickets.chat.failed.unconfirmedMark' : 'tickets.chat.failed.mark');
    return (
      <span role="img" aria-label={label} title={label} data-tick="failed" className="text-danger">
        <Icon name="alert" className="size-4" />
      </span>
    );
  }
  const tick = mark.kind === 'queued' ? 'clock' : mark.tick;
  const label = mark.kind === 'queued' ? t('tickets.chat.ticks.queued') : t(`tickets.chat.ticks.${tick}`);
  const icon = tick === 'clock' ? 'clock' : tick === 'sent' ? 'check' : 'checks';
  return (
    <span role="img" aria-label={label} title={label} data-tick={tick} className={tick === 'read' ? 'text-sky-500' : 'text-muted'}>
      <Icon name={icon} className="size-3.5" />
    </span>
  );
}

/** Why a send failed, and the resend action when the viewer may send in this ticket. */
function SendFailure({ mark, onResend }: { mark: Extract<SendMark, { kind: 'failed' }>; onResend?: () => void }) {
  const { t } = useTranslation();
  const reasonId = useId();
  return (
    <div className="mt-1 flex flex-wrap items-end justify-between gap-x-3 gap-y-1 border-t border-danger/30 pt-1" data-testid="send-failure" data-error={mark.code}>
      <p id={reasonId} className="min-w-0 flex-[1_1_12rem] text-xs text-danger">
        <strong className="font-semibold">{t(mark.unconfirmed ? 'tickets.chat.failed.unconfirmedMark' : 'tickets.chat.failed.mark')}.</strong>{' '}
        {translateError(mark.code, currentLanguage())}
      </p>
      {onResend && (
        <button
          type="button"
          onClick={onResend}
          aria-describedby={reasonId}
          className="ml-auto inline-flex shrink-0 items-center gap-1 rounded-md border border-danger/50 bg-surface/60 px-2 py-1 text-xs font-medium text-danger transition-colors hover:bg-danger-soft"
        >
          <Icon name="renew" className="size-3.5" />
          {t('tickets.chat.failed.resend')}
        </button>
      )}
    </div>
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

type Props = {
  message: Message;
  first: boolean;
  contactName: string;
  onReply?: (m: Message) => void;
  onDelete?: (m: Message) => void;
  /** Given to those allowed to send in the ticket: a failed message gets a resend button. */
  onResend?: (m: Message) => void;
};

export const MessageBubble = memo(function MessageBubble({ message: m, first, contactName, onReply, onDelete, onResend }: Props) {
  const { t } = useTranslation();
  const mark = sendMarkOf(m);
  const failed = mark?.kind === 'failed' && !m.isDeleted ? mark : null;
  const showsBody = m.body && !['locationMessage', 'vcard', 'contactMessage', 'call_log'].includes(m.mediaType ?? '');
  const entries: MenuEntry[] = [];
  if (onReply && !m.isDeleted && m.id > 0) entries.push({ key: 'reply', label: t('tickets.chat.reply'), onSelect: () => onReply(m) });
  if (onDelete && m.fromMe && !m.isDeleted && m.id > 0) entries.push({ key: 'delete', label: t('tickets.chat.deleteMessage'), onSelect: () => onDelete(m) });
  return (
    <div
      className={`group flex px-3 sm:px-6 ${m.fromMe ? 'justify-end' : 'justify-start'} ${first ? 'pt-2' : 'pt-0.5'}`}
      data-message-id={m.id}
      data-from-me={m.fromMe}
      data-send-status={m.sendStatus ?? undefined}
    >
      <div
        className={`relative max-w-[85%] min-w-24 rounded-lg px-2.5 pt-1.5 pb-1 shadow-xs sm:max-w-[70%] ${
          m.fromMe ? 'bg-emerald-100 text-ink dark:bg-emerald-900/60' : 'bg-surface text-ink dark:bg-slate-800'
        } ${first ? (m.fromMe ? 'rounded-tr-none' : 'rounded-tl-none') : ''} ${failed ? 'ring-1 ring-danger/50' : ''}`}
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
        {failed && <SendFailure mark={failed} onResend={onResend && (() => onResend(m))} />}
        <p className="mt-0.5 flex items-center justify-end gap-1 text-[11px] text-muted">
          {m.isEdited && !m.isDeleted && <span>{t('tickets.chat.edited')}</span>}
          <time dateTime={m.createdAt}>{timeLabel(m.createdAt)}</time>
          {mark && <SendMarkIcon mark={mark} />}
        </p>
      </div>
    </div>
  );
});
