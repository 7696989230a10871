// The contact drawer's "Flow" section (issue 15): the ticket's flow run — its flow, the step it is
// at, how it ended — and the answers its question nodes collected, as name: value. Read through
// GET /tickets/{id}/flow and read again whenever the synced ticket's version moves (every step of a
// run bumps it), so a new answer shows while the drawer is open. A running flow can be stopped here.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Ticket, TicketFlow } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useResource } from '../../hooks/use-resource.ts';
import { Button } from '../../ui/Button.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';

export function FlowSection({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const flow = useResource(() => api.get<TicketFlow>(`/tickets/${ticket.id}/flow`), [ticket.id]);
  const { refresh } = flow;
  const [stopping, setStopping] = useState(false);
  // The first read is the resource's own; later versions of the ticket read again in the background.
  const [seen, setSeen] = useState(ticket.version);
  useEffect(() => {
    if (ticket.version === seen) return;
    setSeen(ticket.version);
    refresh();
  }, [ticket.version, seen, refresh]);

  const run = flow.data?.run;
  if (!run) return null;
  const answers = Object.entries(run.variables);

  const stop = async () => {
    setStopping(true);
    try {
      await api.post(`/tickets/${ticket.id}/flow/stop`);
      toast.success(t('tickets.contact.flow.stopped'));
      refresh();
    } catch (err) {
      toastError(err);
    } finally {
      setStopping(false);
    }
  };

  const state =
    run.status === 'running'
      ? run.awaiting
        ? t(`tickets.contact.flow.awaiting.${run.awaiting}`)
        : t('tickets.contact.flow.running')
      : t(`tickets.contact.flow.ended.${run.endReason ?? 'completed'}`, { defaultValue: t('tickets.contact.flow.ended.completed') });

  return (
    <section className="mt-6" aria-label={t('tickets.contact.flow.title')}>
      <h3 className="mb-2 text-sm font-semibold">{t('tickets.contact.flow.title')}</h3>
      <div className="rounded-md border border-line p-2 text-sm">
        <p className="font-medium break-words">{run.flowName}</p>
        <p className="text-xs text-muted" data-testid="flow-state">
          {state}
        </p>
        {run.nodeText && (
          <p className="mt-1 text-xs break-words text-muted">
            {t('tickets.contact.flow.step')}: {run.nodeText}
          </p>
        )}
        {run.status === 'running' && (
          <Button variant="secondary" icon="x" busy={stopping} onClick={() => void stop()} className="mt-2">
            {t('tickets.contact.flow.stop')}
          </Button>
        )}
      </div>
      <h4 className="mt-3 mb-1 text-xs font-semibold text-muted">{t('tickets.contact.flow.answers')}</h4>
      {answers.length === 0 ? (
        <p className="text-sm text-muted">{t('tickets.contact.flow.noAnswers')}</p>
      ) : (
        <dl className="flex flex-col gap-1.5 text-sm" aria-label={t('tickets.contact.flow.answers')}>
          {answers.map(([key, value]) => (
            <div key={key} className="rounded-md border border-line px-2 py-1.5">
              <dt className="text-xs text-muted">{key}</dt>
              <dd className="break-words">{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
