// The chat's scroll area, virtualised (a 5,000-message conversation keeps a few dozen nodes): day
// separators, start/close marks and bubbles; it follows new messages while the reader is at the
// bottom and loads older pages when scrolled within 50 px of the top (spec/02 §9: "message page
// increments when scroll top is under 50"; the 600 px of §9 is the internal chat's), keeping the
// message the reader was looking at in place.
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { Message } from '@zapdesk/sync';
import { buildChatRows, type ChatRow } from './messages.ts';
import { MessageBubble } from './MessageBubble.tsx';

export const LOAD_OLDER_WITHIN_PX = 50;

type Props = {
  messages: Message[];
  hasOlder: boolean;
  loadingOlder: boolean;
  closed: boolean;
  contactName: string;
  onLoadOlder: () => void;
  onReply?: (m: Message) => void;
  onDelete?: (m: Message) => void;
  onResend?: (m: Message) => void;
};

function RowView({ row, contactName, onReply, onDelete, onResend }: { row: ChatRow } & Pick<Props, 'contactName' | 'onReply' | 'onDelete' | 'onResend'>) {
  const { t } = useTranslation();
  if (row.kind === 'day') {
    return (
      <div className="flex justify-center py-2" role="separator" aria-label={row.label}>
        <span className="rounded-md bg-surface/90 px-2.5 py-0.5 text-xs font-medium text-muted shadow-xs">{row.label}</span>
      </div>
    );
  }
  if (row.kind === 'mark') {
    return (
      <div className="flex items-center gap-3 px-6 py-2 text-xs text-muted" role="separator">
        <span className="h-px flex-1 bg-line" />
        {t(row.mark === 'started' ? 'tickets.chat.started' : 'tickets.chat.closed')}
        <span className="h-px flex-1 bg-line" />
      </div>
    );
  }
  return <MessageBubble message={row.message} first={row.first} contactName={contactName} onReply={onReply} onDelete={onDelete} onResend={onResend} />;
}

export function MessageList({ messages, hasOlder, loadingOlder, closed, contactName, onLoadOlder, onReply, onDelete, onResend }: Props) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => buildChatRows(messages, { hasOlder, closed }), [messages, hasOlder, closed]);
  const atBottom = useRef(true);
  const anchor = useRef<{ key: string; offset: number } | null>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'message' ? 56 : 32),
    getItemKey: (i) => rows[i]!.key,
    overscan: 8,
  });

  // Before older rows arrive, remember the first message in view and its distance from the top;
  // after, put it back at the same distance (the older rows grow the list above it).
  useLayoutEffect(() => {
    const a = anchor.current;
    if (a) {
      const index = rows.findIndex((r) => r.key === a.key);
      const at = index > 0 ? virtualizer.getOffsetForIndex(index, 'start') : undefined;
      anchor.current = null;
      if (at) {
        virtualizer.scrollToOffset(at[0] + a.offset);
        return;
      }
    }
    if (atBottom.current && rows.length) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
    // Only a change of the rows moves the view (the virtualizer is the same object throughout).
  }, [rows, virtualizer]);

  const loadOlderIfNearTop = (el: HTMLDivElement) => {
    if (el.scrollTop < LOAD_OLDER_WITHIN_PX && hasOlder && !loadingOlder && rows.length) {
      const top = el.scrollTop;
      const first = virtualizer.getVirtualItems().find((item) => item.end > top && rows[item.index]?.kind === 'message');
      if (first) anchor.current = { key: String(first.key), offset: top - first.start };
      onLoadOlder();
    }
  };
  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    loadOlderIfNearTop(el);
  };
  // A reader already at the top fires no more scroll events: when a page lands (or the first one
  // was still loading as they got there) and the view is still near the top, the next page loads,
  // as it does when a short conversation does not fill the pane yet.
  useEffect(() => {
    const el = scrollRef.current;
    if (el && !atBottom.current) loadOlderIfNearTop(el);
    // Re-checked only when loading ends or the rows change, not on every render.
  }, [loadingOlder, hasOlder, rows.length]);

  const items = virtualizer.getVirtualItems();
  return (
    <div ref={scrollRef} onScroll={onScroll} className="relative min-h-0 flex-1 overflow-y-auto bg-canvas" role="log" aria-label={t('tickets.chat.messages')} data-testid="chat-scroll">
      {loadingOlder && <p className="sticky top-0 z-10 py-1 text-center text-xs text-muted">{t('tickets.chat.loadingOlder')}</p>}
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        <div style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${items[0]?.start ?? 0}px)` }}>
          {items.map((item) => (
            <div key={item.key} data-index={item.index} ref={virtualizer.measureElement}>
              <RowView row={rows[item.index]!} contactName={contactName} onReply={onReply} onDelete={onDelete} onResend={onResend} />
            </div>
          ))}
        </div>
      </div>
      <div className="h-2" />
    </div>
  );
}
