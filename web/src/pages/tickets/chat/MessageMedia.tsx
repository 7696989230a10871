// A message's media (spec/02 §2.2): image, video, audio, a file to download, a location preview,
// a contact card, a missed call. Files come through the session's token (useMediaSrc).
import { useTranslation } from 'react-i18next';
import type { Message } from '@zapdesk/sync';
import { Icon } from '../../../ui/Icon.tsx';
import { useMediaSrc } from '../use-ticket-data.ts';
import { parseLocation, parseVcard } from './messages.ts';

const fileName = (url: string) => decodeURIComponent(url.split('/').pop() ?? '');

export function MessageMedia({ message }: { message: Message }) {
  const { t } = useTranslation();
  const type = message.mediaType;
  const src = useMediaSrc(type && ['image', 'video', 'audio', 'application'].includes(type) ? message.mediaUrl : null);

  if (type === 'locationMessage') {
    const loc = parseLocation(message.body);
    return (
      <a href={loc.link} target="_blank" rel="noreferrer" className="mb-1 block max-w-64 overflow-hidden rounded-md border border-line/60 bg-canvas/40">
        {loc.image && <img src={loc.image.startsWith('data:') ? loc.image : `data:image/png;base64,${loc.image}`} alt="" className="h-32 w-full object-cover" />}
        <span className="flex items-center gap-1.5 px-2 py-1.5 text-sm font-medium text-brand">
          <Icon name="pin" className="size-4" />
          {loc.description || t('tickets.chat.openLocation')}
        </span>
      </a>
    );
  }
  if (type === 'vcard' || type === 'contactMessage') {
    const card = parseVcard(message.body);
    return (
      <div className="mb-1 flex min-w-48 items-center gap-2 rounded-md border border-line/60 bg-canvas/40 p-2">
        <Icon name="user" className="size-8 text-muted" />
        <span className="min-w-0">
          <span className="block text-xs text-muted">{t('tickets.chat.contactCard')}</span>
          <span className="block font-medium">{card.name || message.body.slice(0, 40)}</span>
          {card.numbers.map((n) => (
            <a key={n} href={`tel:${n}`} className="block text-sm text-brand">
              {n}
            </a>
          ))}
        </span>
      </div>
    );
  }
  if (type === 'call_log') {
    return (
      <p className="flex items-center gap-1.5 text-sm text-danger">
        <Icon name="phone" className="size-4" />
        {t('tickets.chat.missedCall')}
      </p>
    );
  }
  if (!message.mediaUrl) return null;
  if (type === 'image') {
    return src ? (
      <a href={src} target="_blank" rel="noreferrer" className="mb-1 block">
        <img src={src} alt={message.body || t('tickets.chat.file')} className="max-h-72 max-w-full rounded-md object-contain" loading="lazy" />
      </a>
    ) : (
      <div className="mb-1 h-40 w-56 max-w-full animate-pulse rounded-md bg-line/60" aria-hidden="true" />
    );
  }
  if (type === 'video') return <video controls src={src} className="mb-1 max-h-72 max-w-full rounded-md" aria-label={t('tickets.chat.file')} />;
  if (type === 'audio') return <audio controls src={src} className="mb-1 w-60 max-w-full" aria-label={t('tickets.chat.audio')} />;
  const name = message.fileName || fileName(message.mediaUrl);
  return (
    <a
      href={src}
      download={name}
      aria-disabled={!src}
      className="mb-1 flex max-w-64 items-center gap-2 rounded-md border border-line/60 bg-canvas/40 px-2.5 py-2 text-sm hover:bg-canvas/70"
      aria-label={t('tickets.chat.download', { name })}
    >
      <Icon name="file" className="size-5 shrink-0 text-muted" />
      <span className="truncate">{name}</span>
      <Icon name="download" className="ml-auto size-4 shrink-0" />
    </a>
  );
}
