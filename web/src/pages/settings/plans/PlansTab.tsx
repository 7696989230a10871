// Plans (super-admin): list, create, edit, delete.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PLAN_FEATURES, type Plan, type PlanFlags } from '@zapdesk/sync';
import { api } from '../../../api/client.ts';
import { useConfirmDelete } from '../../../hooks/use-confirm-delete.ts';
import { formatMoney } from '../../../forms/format.ts';
import { useResource } from '../../../hooks/use-resource.ts';
import { Button, IconButton } from '../../../ui/Button.tsx';
import { ConfirmDialog } from '../../../ui/Dialog.tsx';
import { Card, EmptyState } from '../../../ui/Page.tsx';
import { Badge, Table, Td, Th } from '../../../ui/Table.tsx';
import { PlanModal } from './PlanModal.tsx';

const FLAGS = Object.values(PLAN_FEATURES) as (keyof PlanFlags)[];

export default function PlansTab() {
  const { t, i18n } = useTranslation();
  const plans = useResource(() => api.get<Plan[]>('/plans/all'), []);
  const [editing, setEditing] = useState<Plan | 'new' | null>(null);
  const deleting = useConfirmDelete<Plan>(async (item) => {
    await api.delete(`/plans/${item.id}`);
    plans.set((list) => list?.filter((p) => p.id !== item.id));
  });

  return (
    <div className="flex flex-col gap-3">
      <div className="flex justify-end">
        <Button icon="plus" onClick={() => setEditing('new')}>
          {t('plans.new')}
        </Button>
      </div>
      <Card className="overflow-hidden">
        <Table label={t('settings.tabs.plans')}>
          <thead>
            <tr>
              <Th>{t('plans.name')}</Th>
              <Th className="text-right">{t('plans.users')}</Th>
              <Th className="text-right">{t('plans.connections')}</Th>
              <Th className="text-right">{t('plans.queues')}</Th>
              <Th className="text-right">{t('plans.value')}</Th>
              <Th>{t('plans.features')}</Th>
              <Th className="text-right">{t('common.actions')}</Th>
            </tr>
          </thead>
          <tbody>
            {(plans.data ?? []).map((p) => (
              <tr key={p.id} className="hover:bg-raised/60">
                <Td>
                  <span className="font-medium">{p.name}</span>
                  {!p.isPublic && <span className="ml-2 text-xs text-muted">({t('plans.isPublic')}: {t('common.no')})</span>}
                </Td>
                <Td className="text-right tabular-nums">{p.users}</Td>
                <Td className="text-right tabular-nums">{p.connections}</Td>
                <Td className="text-right tabular-nums">{p.queues}</Td>
                <Td className="text-right tabular-nums">{formatMoney(p.value, i18n.language)}</Td>
                <Td>
                  <span className="flex flex-wrap gap-1">
                    {FLAGS.filter((f) => p[f]).map((f) => (
                      <Badge key={f}>{t(`plans.flags.${f}`)}</Badge>
                    ))}
                  </span>
                </Td>
                <Td className="text-right whitespace-nowrap">
                  <IconButton icon="edit" label={`${t('common.edit')} ${p.name}`} onClick={() => setEditing(p)} />
                  <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${p.name}`} onClick={() => deleting.ask(p)} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
        {plans.data?.length === 0 && <EmptyState>{t('plans.empty')}</EmptyState>}
      </Card>
      {editing && (
        <PlanModal
          plan={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            plans.set((list) => (list?.some((p) => p.id === saved.id) ? list.map((p) => (p.id === saved.id ? saved : p)) : [...(list ?? []), saved]));
            setEditing(null);
          }}
        />
      )}
      <ConfirmDialog {...deleting.dialog} title={t('plans.deleteTitle')} message={t('plans.deleteConfirm', { name: deleting.target?.name ?? '' })} />
    </div>
  );
}
