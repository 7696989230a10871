// /kanban (spec/02 §2.17): lanes from the synced tickets and tags. A card moves by dragging it (pointer),
// by ArrowLeft/ArrowRight on the focused card, or through its Move menu; the board shows the move at
// once from local state and the server confirms it (DELETE then PUT /ticket-tags/…); a refusal puts
// the card back with the error toast.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Page } from '../../ui/Page.tsx';
import { toastError } from '../../ui/toast/toast-error.ts';
import { KanbanLane } from './KanbanLane.tsx';
import { buildLanes, movedTags, neighbourLane, sameTagIds, type Lane } from './lanes.ts';
import './strings.ts';

type Pending = { tags: Ticket['tags']; settledAt: number | null };
/** A confirmed move whose pull has not arrived after this long gives way to the synced state. */
const SETTLE_GRACE_MS = 5000;

export function Component() {
  const { t } = useTranslation();
  const tickets = useSyncedList('ticket');
  const tags = useSyncedList('tag');
  const [pending, setPending] = useState<Map<number, Pending>>(new Map());
  const [announce, setAnnounce] = useState('');
  const [focusId, setFocusId] = useState<number | null>(null);

  const patched = useMemo(() => (tickets ?? []).map((tk) => (pending.has(tk.id) ? { ...tk, tags: pending.get(tk.id)!.tags } : tk)), [tickets, pending]);
  const lanes = useMemo(() => buildLanes(patched, tags ?? []), [patched, tags]);

  // A move stops overriding the synced ticket once the server's state shows it (or after the grace).
  useEffect(() => {
    if (pending.size === 0 || !tickets) return;
    const now = Date.now();
    const done = [...pending].filter(([id, p]) => {
      if (p.settledAt === null) return false;
      const synced = tickets.find((tk) => tk.id === id);
      return !synced || sameTagIds(synced.tags, p.tags) || now - p.settledAt > SETTLE_GRACE_MS;
    });
    if (done.length === 0) return;
    setPending((m) => {
      const next = new Map(m);
      for (const [id] of done) next.delete(id);
      return next;
    });
  }, [tickets, pending]);

  const move = useCallback(
    async (ticket: Ticket, to: Lane) => {
      const from = lanes.find((l) => l.tickets.some((x) => x.id === ticket.id));
      if (!tags || from?.id === to.id) return;
      setPending((m) => new Map(m).set(ticket.id, { tags: movedTags(ticket.tags, tags, to.tagId), settledAt: null }));
      setAnnounce(t('kanban.moved', { number: ticket.id, lane: to.title ?? t('kanban.open') }));
      try {
        await api.delete(`/ticket-tags/${ticket.id}`);
        if (to.tagId !== null) await api.put(`/ticket-tags/${ticket.id}/${to.tagId}`);
        setPending((m) => {
          const p = m.get(ticket.id);
          return p ? new Map(m).set(ticket.id, { ...p, settledAt: Date.now() }) : m;
        });
      } catch (err) {
        setPending((m) => {
          const next = new Map(m);
          next.delete(ticket.id);
          return next;
        });
        toastError(err);
      }
    },
    [lanes, tags, t],
  );

  const moveBy = (ticket: Ticket, from: Lane, step: -1 | 1) => {
    const to = neighbourLane(lanes, from.id, step);
    if (!to) return;
    setFocusId(ticket.id);
    void move(ticket, to);
  };

  const onDrop = (ticketId: number, to: Lane) => {
    const ticket = patched.find((x) => x.id === ticketId);
    if (ticket) void move(ticket, to);
  };

  return (
    <Page title={t('kanban.title')} subtitle={t('kanban.help')}>
      <p id="kanban-keys" className="sr-only">
        {t('kanban.keys')}
      </p>
      <p className="sr-only" aria-live="polite">
        {announce}
      </p>
      {!tickets || !tags ? (
        <p className="py-4 text-center text-muted">{t('common.loading')}</p>
      ) : (
        <div className="-mx-3 flex snap-x gap-3 overflow-x-auto px-3 pb-3 sm:mx-0 sm:px-0" data-testid="kanban-board">
          {lanes.map((lane) => (
            <KanbanLane key={lane.id} lane={lane} lanes={lanes} focusId={focusId} onDrop={onDrop} onMove={(tk, to) => void move(tk, to)} onMoveBy={moveBy} />
          ))}
        </div>
      )}
    </Page>
  );
}
