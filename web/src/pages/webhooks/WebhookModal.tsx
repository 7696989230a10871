// Create or edit a webhook (issue 18): name, URL, the events it receives (checkboxes) and on/off.
// The answer of a create (or of "new secret") carries the signing secret in full, once: the page
// shows it in a dialog of its own.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WEBHOOK_EVENTS, webhookCreateSchema, webhookUpdateSchema, type Webhook } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../forms/useSaveForm.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Switch, TextField } from '../../ui/Field.tsx';
import './strings.ts';

type Props = { webhook: Webhook | null; onClose: () => void; onSaved: (saved: Webhook) => void };

export function WebhookModal({ webhook, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState(webhook?.name ?? '');
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [events, setEvents] = useState<string[]>(webhook?.events ?? []);
  const [enabled, setEnabled] = useState(webhook?.enabled ?? true);
  const { errors, busy, submit } = useSaveForm<Webhook>(onSaved);
  const toggle = (e: string) => setEvents((list) => (list.includes(e) ? list.filter((x) => x !== e) : [...list, e]));

  const save = async () => {
    const body = { name, url, events, enabled };
    await submit(webhook ? webhookUpdateSchema : webhookCreateSchema, body, () => (webhook ? api.put<Webhook>(`/webhooks/${webhook.id}`, body) : api.post<Webhook>('/webhooks', body)));
  };

  return (
    <Dialog open size="lg" title={webhook ? t('webhooks.edit') : t('webhooks.new')} onClose={onClose} onSubmit={() => void save()} footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}>
      <div className="grid gap-4">
        <TextField label={t('webhooks.name')} name="name" autoFocus value={name} error={errors.name} onChange={(e) => setName(e.target.value)} />
        <TextField label={t('webhooks.url')} name="url" type="url" placeholder="https://" value={url} error={errors.url} onChange={(e) => setUrl(e.target.value)} />
        <fieldset>
          <legend className="mb-2 text-sm font-medium">{t('webhooks.events')}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {WEBHOOK_EVENTS.map((e) => (
              <label key={e} className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="events" value={e} checked={events.includes(e)} onChange={() => toggle(e)} />
                <code>{e}</code>
              </label>
            ))}
          </div>
          {errors.events && <p className="mt-1 text-sm text-danger">{t('webhooks.pickEvents')}</p>}
        </fieldset>
        <Switch label={t('webhooks.enabled')} checked={enabled} onChange={setEnabled} />
      </div>
    </Dialog>
  );
}
