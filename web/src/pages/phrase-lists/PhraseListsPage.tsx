// /phrase-lists (spec/03 §2 "Phrase campaigns"): the phrases that start a flow when a customer's
// message matches (sync's matchPhrase rules: whole message or contained words, case and accents
// ignored). A table of name, status (Ativo/Desativado, toggled in place), flow, connection and phrase,
// with edit and delete; a dialog creates or edits one (GET/POST/PUT/DELETE /flowcampaign).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { useResource } from '../../hooks/use-resource.ts';
import { useRefreshOnPoke } from '../../sync/use-refresh-on-poke.ts';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { Badge, Table, Td, Th } from '../../ui/Table.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { flowApi, phraseApi, type PhraseCampaign } from '../flowbuilders/flow-api.ts';
import { PhraseModal } from './PhraseModal.tsx';
import { bodyOf } from './phrase-form.ts';
import './strings.ts';

export function Component() {
  const { t } = useTranslation();
  const list = useResource(phraseApi.list, []);
  const flows = useResource(flowApi.list, []);
  // Another admin's changes (a phrase campaign, a flow's name) show without a reload.
  useRefreshOnPoke(() => {
    list.refresh();
    flows.refresh();
  });
  const connections = useSyncedList('connection') ?? [];
  const [editing, setEditing] = useState<PhraseCampaign | 'new' | null>(null);
  const deleting = useConfirmDelete<PhraseCampaign>(async (item) => {
    await phraseApi.remove(item.id);
    list.set((rows) => rows?.filter((r) => r.id !== item.id));
  }, t('phrase-lists.deleted'));

  const flowName = (id: number) => flows.data?.find((f) => f.id === id)?.name ?? `#${id}`;
  const connectionName = (id: number | null) => (id === null ? t('phrase-lists.anyConnection') : (connections.find((c) => c.id === id)?.name ?? `#${id}`));

  const toggle = async (c: PhraseCampaign) => {
    try {
      await phraseApi.update({ ...bodyOf(c), id: c.id, status: !c.status });
      list.set((rows) => rows?.map((r) => (r.id === c.id ? { ...r, status: !c.status } : r)));
      toast.success(t('phrase-lists.updated'));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Page
      title={t('phrase-lists.title')}
      subtitle={t('phrase-lists.subtitle')}
      actions={
        <Button icon="plus" onClick={() => setEditing('new')}>
          {t('phrase-lists.add')}
        </Button>
      }
    >
      <Card className="overflow-hidden">
        <Table label={t('phrase-lists.title')} fluid>
          <thead>
            <tr>
              <Th>{t('phrase-lists.name')}</Th>
              <Th>{t('phrase-lists.status')}</Th>
              <Th className="hidden md:table-cell">{t('phrase-lists.phrase')}</Th>
              <Th className="hidden md:table-cell">{t('phrase-lists.flow')}</Th>
              <Th className="hidden lg:table-cell">{t('phrase-lists.connection')}</Th>
              <Th className="text-right">{t('common.actions')}</Th>
            </tr>
          </thead>
          <tbody>
            {(list.data ?? []).map((c) => (
              <tr key={c.id} className="hover:bg-raised/60">
                <Td className="font-medium">{c.name}</Td>
                <Td>
                  <button type="button" role="switch" aria-checked={c.status} aria-label={t('phrase-lists.toggle', { name: c.name })} onClick={() => void toggle(c)} className="rounded-full">
                    <Badge tone={c.status ? 'brand' : 'neutral'}>{c.status ? t('phrase-lists.active') : t('phrase-lists.inactive')}</Badge>
                  </button>
                </Td>
                <Td className="hidden md:table-cell">
                  <span className="font-mono text-xs">{c.phrase}</span>
                  {c.matchMode === 'contains' && <span className="ml-2 text-xs text-muted">({t('phrase-lists.modes.contains')})</span>}
                </Td>
                <Td className="hidden text-muted md:table-cell">{flowName(c.flowId)}</Td>
                <Td className="hidden text-muted lg:table-cell">{connectionName(c.whatsappId)}</Td>
                <Td className="text-right whitespace-nowrap">
                  <IconButton icon="edit" label={`${t('common.edit')} ${c.name}`} onClick={() => setEditing(c)} />
                  <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${c.name}`} onClick={() => deleting.ask(c)} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
        {!list.loading && (list.data ?? []).length === 0 && <EmptyState>{t('phrase-lists.empty')}</EmptyState>}
        {list.loading && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
      </Card>
      {editing && (
        <PhraseModal
          campaign={editing === 'new' ? null : editing}
          flows={flows.data ?? []}
          connections={connections.map((c) => ({ id: c.id, name: c.name }))}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            list.refresh();
          }}
        />
      )}
      <ConfirmDialog {...deleting.dialog} title={t('phrase-lists.deleteTitle')} message={t('phrase-lists.deleteConfirm', { name: deleting.target?.name ?? '' })} />
    </Page>
  );
}
