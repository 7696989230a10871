// The campaign dialog (spec/03 §2): name, connection, contact list, tag list (none by default), file
// list, schedule, confirmation, the message variants and an optional attachment. What the status
// allows is editable (spec/03 §4): everything while inactive or programmed more than an hour ahead,
// the messages only once cancelled, nothing otherwise (the dialog then only shows).
//
// The attachment needs the campaign to exist and to be editable, so a save with an attachment change
// writes the campaign unscheduled first, uploads (or removes) the file, then sets the schedule: a
// start less than an hour ahead would otherwise lock the campaign before its file arrives.
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { campaignCreateSchema, campaignUpdateSchema, type Campaign } from '@zapdesk/sync';
import { api, AppError } from '../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../forms/useSaveForm.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { SelectField, Switch, TextField } from '../../ui/Field.tsx';
import { campaignBody, fieldAccess, formFromCampaign, type CampaignForm, type MessageField } from './campaign-form.ts';
import { MessageEditor } from './MessageEditor.tsx';
import { useCampaignOptions, useListSample, type Option } from './use-campaign-options.ts';

type Props = { campaign: Campaign | null; onClose: () => void; onSaved: () => void };

const NO_SETTINGS = { variables: [], timeZone: null };

export function CampaignModal({ campaign, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const options = useCampaignOptions();
  const [form, setForm] = useState<CampaignForm>(() => formFromCampaign(campaign));
  const previewContact = useListSample(form.contactListId);
  const [media, setMedia] = useState<File | null>(null);
  const [removeMedia, setRemoveMedia] = useState(false);
  const { errors, busy, submit } = useSaveForm<Campaign>(() => onSaved());
  // A new campaign saved once (its file or schedule then refused) is updated on the next try, not created twice.
  const created = useRef<number | null>(campaign?.id ?? null);
  const [access] = useState(() => fieldAccess(campaign, new Date()));
  const set = <K extends keyof CampaignForm>(key: K, value: CampaignForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const settingsLocked = access !== 'all';
  const none = (opts: Option[]) => [{ value: '', label: t('campaigns.none') }, ...opts];

  // A refusal without a field is the status machine's: the campaign moved on since the dialog opened.
  const [changed, setChanged] = useState(false);
  const send = async (body: Record<string, unknown>) => {
    const id = created.current;
    try {
      const saved = id ? await api.put<Campaign>(`/campaigns/${id}`, body) : await api.post<Campaign>('/campaigns', body);
      created.current = saved.id;
      return saved;
    } catch (err) {
      if (err instanceof AppError && err.code === 'ERR_VALIDATION' && !err.issues?.length) setChanged(true);
      throw err;
    }
  };

  const save = () => {
    const body = campaignBody(form, access);
    const mediaChange = access === 'all' && (media !== null || (removeMedia && campaign?.mediaPath));
    return submit(access === 'messages' ? campaignUpdateSchema : campaignCreateSchema, body, async () => {
      if (!mediaChange) return send(body);
      let saved = await send({ ...body, scheduledAt: null });
      if (media) {
        const file = new FormData();
        file.append('file', media, media.name);
        saved = await api.post<Campaign>(`/campaigns/${saved.id}/media-upload`, file);
      } else {
        saved = await api.delete<Campaign>(`/campaigns/${saved.id}/media-upload`);
      }
      return body.scheduledAt ? send({ scheduledAt: body.scheduledAt }) : saved;
    });
  };

  const title = !campaign ? t('campaigns.new') : access === 'none' ? t('campaigns.view') : t('campaigns.edit');
  const currentMedia = removeMedia ? null : (media?.name ?? campaign?.mediaName ?? null);
  const footer =
    access === 'none' ? (
      <Button variant="secondary" onClick={onClose}>
        {t('common.close')}
      </Button>
    ) : (
      <SaveCancelFooter busy={busy} onCancel={onClose} />
    );

  return (
    <Dialog open size="lg" title={title} onClose={onClose} onSubmit={access === 'none' ? () => {} : () => void save()} footer={footer}>
      <div className="flex flex-col gap-4">
        {changed && (
          <p role="alert" className="rounded-md border border-danger/30 bg-danger-soft px-3 py-2 text-sm text-danger">
            {t('campaigns.changed')}
          </p>
        )}
        {access !== 'all' && (
          <p role="note" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800/50 dark:bg-amber-950/40 dark:text-amber-200">
            {access === 'none' ? t('campaigns.readOnly') : t('campaigns.cancelledOnly')}
          </p>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={t('campaigns.name')} name="name" value={form.name} error={errors.name} disabled={settingsLocked} onChange={(e) => set('name', e.target.value)} wrapperClassName="sm:col-span-2" />
          <SelectField label={t('campaigns.connection')} name="whatsappId" value={form.whatsappId} error={errors.whatsappId} disabled={settingsLocked} options={none(options.connections)} onChange={(e) => set('whatsappId', e.target.value)} />
          <TextField label={t('campaigns.scheduledAt')} name="scheduledAt" type="datetime-local" value={form.scheduledAt} error={errors.scheduledAt} disabled={settingsLocked} onChange={(e) => set('scheduledAt', e.target.value)} />
          <SelectField label={t('campaigns.contactList')} name="contactListId" value={form.contactListId} error={errors.contactListId} disabled={settingsLocked} options={none(options.contactLists)} onChange={(e) => set('contactListId', e.target.value)} />
          <SelectField label={t('campaigns.tagList')} name="tagListId" value={form.tagListId} error={errors.tagListId ?? errors.tagId} disabled={settingsLocked} options={none(options.tags)} onChange={(e) => set('tagListId', e.target.value)} />
          <SelectField label={t('campaigns.fileList')} name="fileListId" value={form.fileListId} error={errors.fileListId} disabled={settingsLocked} options={none(options.fileLists)} onChange={(e) => set('fileListId', e.target.value)} />
          <div className="flex items-end">
            <div className="w-full">
              <Switch label={t('campaigns.confirmation')} checked={form.confirmation} disabled={settingsLocked} onChange={(v) => set('confirmation', v)} />
            </div>
          </div>
        </div>
        <MessageEditor
          values={form}
          onChange={(field: MessageField, value) => set(field, value)}
          confirmation={form.confirmation}
          disabled={access === 'none'}
          settings={options.settings ?? NO_SETTINGS}
          errors={errors}
          mediaName={currentMedia}
          previewContact={previewContact}
        />
        <div className="flex flex-col gap-1.5">
          <label className="flex flex-col gap-1.5 text-[13px] font-medium">
            {t('campaigns.media')}
            <input
              type="file"
              name="media"
              disabled={settingsLocked}
              accept=".png,.jpg,.jpeg,.mp3,.ogg,.opus,.mp4,.pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.odt,.ods,.txt,.csv,.zip"
              onChange={(e) => {
                setMedia(e.target.files?.[0] ?? null);
                setRemoveMedia(false);
              }}
              className="block w-full text-sm font-normal text-muted file:mr-3 file:h-8 file:rounded-md file:border file:border-line file:bg-surface file:px-3 file:text-ink disabled:opacity-60"
            />
          </label>
          <p className="text-xs text-muted">{t('campaigns.mediaHint')}</p>
          {campaign?.mediaName && !media && !removeMedia && (
            <div className="flex items-center justify-between gap-2 rounded-md border border-line px-3 py-1.5 text-sm">
              <span className="truncate">{t('campaigns.currentMedia', { name: campaign.mediaName })}</span>
              {!settingsLocked && (
                <Button variant="ghost" icon="trash" onClick={() => setRemoveMedia(true)}>
                  {t('campaigns.removeMedia')}
                </Button>
              )}
            </div>
          )}
          {removeMedia && <p className="text-xs text-muted">{t('campaigns.mediaRemoved')}</p>}
        </div>
      </div>
    </Dialog>
  );
}
