// Announcements (spec/02 §2.9, §4): the active announcements from local state, highest priority
// first; the dot marks ones not seen yet and clears when the popover opens.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../forms/format.ts';
import { priorityDot, sortAnnouncements } from '../../pages/announcements/priority.ts';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Popover } from './Popover.tsx';
import './strings.ts';

export function AnnouncementsPopover() {
  const { t, i18n } = useTranslation();
  const rows = useSyncedList('announcement');
  const active = sortAnnouncements((rows ?? []).filter((a) => a.status));
  // What was there when the user last opened it (by id and version of the text).
  const [seen, setSeen] = useState<ReadonlySet<string>>(new Set());
  const stamp = (a: { id: number; updatedAt: string }) => `${a.id}@${a.updatedAt}`;
  const unseen = active.some((a) => !seen.has(stamp(a)));

  return (
    <Popover icon="megaphone" label={t('topbar.announcements')} badge={unseen} badgeLabel={t('topbar.newAnnouncements')} onOpen={() => setSeen(new Set(active.map(stamp)))} testId="announcements">
      {() =>
        active.length === 0 ? (
          <p className="px-4 py-6 text-center text-sm text-muted">{t('topbar.noAnnouncements')}</p>
        ) : (
          <ul className="divide-y divide-line">
            {active.map((a) => (
              <li key={a.id} className="px-4 py-3">
                <p className="flex items-center gap-2">
                  <span className={`size-2.5 shrink-0 rounded-full ${priorityDot(a.priority)}`} title={t(`topbar.priority.${a.priority}`, { defaultValue: '' })} aria-hidden="true" />
                  <span className="sr-only">{t(`topbar.priority.${a.priority}`, { defaultValue: '' })}</span>
                  <span className="min-w-0 flex-1 truncate text-sm font-semibold">{a.title}</span>
                  <span className="shrink-0 text-[11px] text-muted">{formatDate(a.createdAt, i18n.language)}</span>
                </p>
                <p className="mt-1 text-sm whitespace-pre-line text-muted">{a.text}</p>
                {a.mediaName && <p className="mt-1 truncate text-[11px] text-muted">📎 {a.mediaName}</p>}
              </li>
            ))}
          </ul>
        )
      }
    </Popover>
  );
}
