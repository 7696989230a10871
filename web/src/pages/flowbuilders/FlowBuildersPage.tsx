// /flowbuilders (spec/03 §2 "Flow list"): 'Fluxos de conversa', searchable; a row opens the editor;
// its menu renames, edits the flow, duplicates (POST /flowbuilder/duplicate) or deletes after a
// confirmation. The add and rename dialog asks for a name checked with sync's flowNameSchema (2 to
// 50, spec/03 §5). A company has few flows: the list is read whole and searched here.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { foldFlowText } from '@zapdesk/sync';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { useResource } from '../../hooks/use-resource.ts';
import { useRefreshOnPoke } from '../../sync/use-refresh-on-poke.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog, Dialog } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/Field.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Menu } from '../../ui/Menu.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { Table, Td, Th } from '../../ui/Table.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { flowApi, flowNameProblem, type FlowRecord } from './flow-api.ts';
import './strings.ts';

export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const flows = useResource(flowApi.list, []);
  // Another admin's new, renamed or deleted flow shows without a reload (the server pokes the company).
  useRefreshOnPoke(flows.refresh);
  const [naming, setNaming] = useState<FlowRecord | 'new' | null>(null);
  const [busy, setBusy] = useState(false);
  const deleting = useConfirmDelete<FlowRecord>(async (flow) => {
    await flowApi.remove(flow.id);
    flows.refresh();
  }, t('flowbuilders.deleted'));

  const shown = useMemo(() => {
    const q = foldFlowText(search);
    return (flows.data ?? []).filter((f) => !q || foldFlowText(f.name).includes(q)).sort((a, b) => a.name.localeCompare(b.name));
  }, [flows.data, search]);

  const act = async (send: () => Promise<unknown>, message: string) => {
    setBusy(true);
    try {
      await send();
      toast.success(message);
      flows.refresh();
      return true;
    } catch (err) {
      toastError(err);
      return false;
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page
      title={t('flowbuilders.title')}
      actions={
        <>
          <SearchInput label={t('flowbuilders.search')} value={search} onChange={setSearch} />
          <Button icon="plus" onClick={() => setNaming('new')}>
            {t('flowbuilders.add')}
          </Button>
        </>
      }
    >
      <Card className="overflow-hidden">
        <Table label={t('flowbuilders.title')} fluid>
          <thead>
            <tr>
              <Th>{t('flowbuilders.name')}</Th>
              <Th className="hidden sm:table-cell">{t('flowbuilders.status')}</Th>
              <Th className="text-right">{t('common.actions')}</Th>
            </tr>
          </thead>
          <tbody>
            {shown.map((f) => (
              <tr key={f.id} className="cursor-pointer hover:bg-raised/60" onClick={() => void navigate(`/flowbuilder/${f.id}`)}>
                <Td className="font-medium">
                  <span className="flex items-center gap-2">
                    <Icon name="flows" className="size-4 text-muted" />
                    {f.name}
                  </span>
                </Td>
                <Td className="hidden text-muted sm:table-cell">{f.active === false ? t('flowbuilders.inactive') : t('flowbuilders.active')}</Td>
                <Td className="text-right" onClick={(e) => e.stopPropagation()}>
                  <div className="inline-flex">
                    <Menu
                      label={t('flowbuilders.actionsOf', { name: f.name })}
                      trigger={<Icon name="more" className="size-[18px]" />}
                      triggerClassName="inline-flex size-9 items-center justify-center rounded-md text-muted hover:bg-raised hover:text-ink"
                      entries={[
                        { key: 'rename', label: t('flowbuilders.rename'), icon: <Icon name="edit" className="size-4" />, onSelect: () => setNaming(f) },
                        { key: 'edit', label: t('flowbuilders.editFlow'), icon: <Icon name="flows" className="size-4" />, onSelect: () => void navigate(`/flowbuilder/${f.id}`) },
                        { key: 'duplicate', label: t('flowbuilders.duplicate'), icon: <Icon name="copy" className="size-4" />, onSelect: () => void act(() => flowApi.duplicate(f.id), t('flowbuilders.duplicated')) },
                        { key: 'delete', label: t('flowbuilders.delete'), icon: <Icon name="trash" className="size-4" />, onSelect: () => deleting.ask(f) },
                      ]}
                    />
                  </div>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
        {!flows.loading && shown.length === 0 && <EmptyState>{search ? t('flowbuilders.noMatch') : t('flowbuilders.empty')}</EmptyState>}
        {flows.loading && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
      </Card>
      {naming && (
        <FlowNameDialog
          flow={naming === 'new' ? null : naming}
          busy={busy}
          onClose={() => setNaming(null)}
          onSave={async (name) => {
            const ok = naming === 'new' ? await act(() => flowApi.create(name), t('flowbuilders.created')) : await act(() => flowApi.rename(naming.id, name), t('flowbuilders.renamed'));
            if (ok) setNaming(null);
          }}
        />
      )}
      <ConfirmDialog {...deleting.dialog} title={t('flowbuilders.deleteTitle')} message={t('flowbuilders.deleteConfirm', { name: deleting.target?.name ?? '' })} />
    </Page>
  );
}

function FlowNameDialog({ flow, busy, onClose, onSave }: { flow: FlowRecord | null; busy: boolean; onClose: () => void; onSave: (name: string) => Promise<void> }) {
  const { t } = useTranslation();
  const [name, setName] = useState(flow?.name ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = () => {
    const p = flowNameProblem(name);
    setProblem(p);
    if (!p) void onSave(name.trim());
  };
  return (
    <Dialog
      open
      size="sm"
      title={flow ? t('flowbuilders.renameTitle') : t('flowbuilders.addTitle')}
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" busy={busy}>
            {flow ? t('common.save') : t('flowbuilders.create')}
          </Button>
        </>
      }
    >
      <TextField label={t('flowbuilders.name')} name="name" value={name} error={problem ? t(`flowbuilders.${problem}`) : undefined} onChange={(e) => setName(e.target.value)} />
    </Dialog>
  );
}
