// /prompts (spec/03 §2 "Prompts"; plan flag useOpenAi, admins): the company's AI prompts in a table
// (name, queue, max tokens, actions), an add/edit dialog and a delete confirmation. REST that reads
// itself again on pokes (usePrompts). The route guard sends a company without the feature to its
// home with the spec's toast. The table also says where each prompt answers (the queues and
// connections whose Prompt it is, from the synced lists): a prompt's own queue is where it hands a
// conversation over, and a new prompt answers nobody until a queue or a connection chooses it.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Prompt, PromptUsage } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { Table, Td, Th } from '../../ui/Table.tsx';
import { PromptModal } from './PromptModal.tsx';
import { usePrompts } from './use-prompts.ts';
import { useResource } from '../../hooks/use-resource.ts';
import { useRefreshOnPoke } from '../../sync/use-refresh-on-poke.ts';
import { useLinkedPlaces } from '../queue-integration/AutomationPickers.tsx';
import './strings.ts';

export function Component() {
  const { t } = useTranslation();
  const { prompts, loading, reload } = usePrompts();
  const placesOf = useLinkedPlaces('promptId');
  const [editing, setEditing] = useState<Prompt | 'new' | null>(null);
  const deleting = useConfirmDelete<Prompt>(async (p) => {
    await api.delete(`/prompt/${p.id}`);
    reload();
  });

  return (
    <Page
      title={t('prompts.title')}
      actions={
        <Button icon="plus" onClick={() => setEditing('new')}>
          {t('prompts.add')}
        </Button>
      }
    >
      <Card className="overflow-hidden">
        <Table label={t('prompts.title')} fluid>
          <thead>
            <tr>
              <Th>{t('prompts.name')}</Th>
              <Th className="hidden sm:table-cell">{t('prompts.queue')}</Th>
              <Th>{t('prompts.answersIn')}</Th>
              <Th className="hidden md:table-cell">{t('prompts.maxTokens')}</Th>
              <Th className="text-right">{t('common.actions')}</Th>
            </tr>
          </thead>
          <tbody>
            {prompts.map((p) => (
              <tr key={p.id} className="hover:bg-raised/60">
                <Td className="font-medium">{p.name}</Td>
                <Td className="hidden sm:table-cell">{p.queue?.name ?? '—'}</Td>
                <Td>{placesOf(p.id).join(', ') || <span className="text-muted">{t('prompts.notInUse')}</span>}</Td>
                <Td className="hidden md:table-cell">{p.maxTokens}</Td>
                <Td className="text-right whitespace-nowrap">
                  <IconButton icon="edit" label={`${t('common.edit')} ${p.name}`} onClick={() => setEditing(p)} />
                  <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${p.name}`} onClick={() => deleting.ask(p)} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
        {!loading && prompts.length === 0 && <EmptyState>{t('prompts.empty')}</EmptyState>}
        {loading && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
      </Card>
      <UsageLine />
      {editing && (
        <PromptModal
          prompt={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
      <ConfirmDialog {...deleting.dialog} title={t('prompts.deleteTitle')} message={t('prompts.deleteConfirm', { name: deleting.target?.name ?? '' })} />
    </Page>
  );
}

/** What the company's AI spent lately (GET /prompt/usage), read again after pokes. */
function UsageLine() {
  const { t, i18n } = useTranslation();
  const usage = useResource(async () => (await api.get<PromptUsage>('/prompt/usage?days=30')).totals, []);
  useRefreshOnPoke(usage.refresh);
  if (!usage.data) return null;
  const n = (v: number) => v.toLocaleString(i18n.language);
  return (
    <p data-testid="ai-usage" className="mt-3 text-sm text-muted">
      {t('prompts.usage', { requests: n(usage.data.requests), promptTokens: n(usage.data.promptTokens), completionTokens: n(usage.data.completionTokens) })}
    </p>
  );
}
