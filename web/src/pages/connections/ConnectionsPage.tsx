// /connections (admins, spec/03 §2): the company's WhatsApp connections from local state, their
// session actions by status, add/edit, delete, and the live QR modal.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { can, type Connection } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useUser } from '../../session/SessionProvider.tsx';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { Splash } from '../../ui/Splash.tsx';
import { Badge, Table, Td, Th } from '../../ui/Table.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { ConnectionModal } from './ConnectionModal.tsx';
import { QrModal } from './QrModal.tsx';
import { ACTION_METHOD, formatDateTime, sessionActions, statusTone, type SessionAction } from './session-actions.ts';
import './strings.ts';

type Confirming = { kind: 'delete' | 'disconnect'; connection: Connection };

export function Component() {
  const { t, i18n } = useTranslation();
  const me = useUser();
  const rows = useSyncedList('connection');
  const [editing, setEditing] = useState<Connection | 'new' | null>(null);
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const mayAct = can(me, 'connections-page:actionButtons');
  const mayAdd = can(me, 'connections-page:addConnection');
  const mayEdit = can(me, 'connections-page:editOrDeleteConnection');

  const run = async (key: string, request: () => Promise<unknown>, done?: () => void) => {
    setBusy(key);
    try {
      await request();
      done?.();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(null);
    }
  };

  const act = (c: Connection, action: SessionAction) => {
    if (action === 'qr') return setQrFor(c.id);
    if (action === 'disconnect') return setConfirming({ kind: 'disconnect', connection: c });
    if (action === 'connecting') return;
    const method = ACTION_METHOD[action];
    void run(`${c.id}:${action}`, () => api[method](`/whatsappsession/${c.id}`), action === 'newQr' ? () => setQrFor(c.id) : undefined);
  };

  const confirm = () => {
    if (!confirming) return;
    const { kind, connection: c } = confirming;
    const request = kind === 'delete' ? () => api.delete(`/whatsapp/${c.id}`) : () => api.delete(`/whatsappsession/${c.id}`);
    void run('confirm', request, () => {
      if (kind === 'delete') toast.success(t('common.deleted'));
      setConfirming(null);
    });
  };

  if (!rows) return <Splash inline />;
  const sorted = [...rows].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);

  return (
    <Page
      title={t('connections.title')}
      subtitle={t('connections.subtitle')}
      actions={
        mayAdd && (
          <Button icon="plus" onClick={() => setEditing('new')}>
            {t('connections.add')}
          </Button>
        )
      }
    >
      <Card className="overflow-hidden">
        <Table label={t('connections.title')} fluid>
          <thead>
            <tr>
              <Th>{t('connections.name')}</Th>
              <Th className="hidden sm:table-cell">{t('connections.status')}</Th>
              {mayAct && <Th>{t('connections.session')}</Th>}
              <Th className="hidden lg:table-cell">{t('connections.lastUpdate')}</Th>
              <Th className="hidden md:table-cell">{t('connections.default')}</Th>
              {mayEdit && <Th className="text-right">{t('common.actions')}</Th>}
            </tr>
          </thead>
          <tbody>
            {sorted.map((c) => (
              <tr key={c.id} className="hover:bg-raised/60" data-testid={`connection-${c.id}`}>
                <Td>
                  <span className="block font-medium">{c.name}</span>
                  <span className="block text-xs text-muted">{c.number ?? t(`connections.providers.${c.provider}`, { defaultValue: c.provider })}</span>
                  {/* On phones the status folds into the name. */}
                  <span className="mt-1 block sm:hidden">
                    <StatusBadge connection={c} />
                  </span>
                </Td>
                <Td className="hidden sm:table-cell">
                  <StatusBadge connection={c} />
                </Td>
                {mayAct && (
                  <Td>
                    <span className="flex flex-wrap gap-1.5">
                      {sessionActions(c.status, c.deleting).map((action) => (
                        <Button
                          key={action}
                          variant={action === 'disconnect' ? 'secondary' : action === 'qr' ? 'primary' : 'secondary'}
                          className="h-8 px-2.5 text-[13px]"
                          disabled={action === 'connecting'}
                          busy={busy === `${c.id}:${action}` || action === 'connecting'}
                          aria-label={`${t(`connections.actions.${action}`)}: ${c.name}`}
                          onClick={() => act(c, action)}
                        >
                          {t(`connections.actions.${action}`)}
                        </Button>
                      ))}
                    </span>
                  </Td>
                )}
                <Td className="hidden whitespace-nowrap text-muted lg:table-cell">{formatDateTime(c.updatedAt, i18n.language)}</Td>
                <Td className="hidden md:table-cell">{c.isDefault ? <Badge tone="brand">{t('connections.default')}</Badge> : <span className="text-muted">—</span>}</Td>
                {mayEdit && (
                  <Td className="text-right whitespace-nowrap">
                    {!c.deleting && <IconButton icon="edit" label={`${t('common.edit')} ${c.name}`} onClick={() => setEditing(c)} />}
                    <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${c.name}`} onClick={() => setConfirming({ kind: 'delete', connection: c })} />
                  </Td>
                )}
              </tr>
            ))}
          </tbody>
        </Table>
        {sorted.length === 0 && <EmptyState>{t('connections.empty')}</EmptyState>}
      </Card>
      {editing && (
        <ConnectionModal
          connection={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
          }}
        />
      )}
      {qrFor !== null && <QrModal connectionId={qrFor} onClose={() => setQrFor(null)} />}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming?.kind === 'disconnect' ? t('connections.disconnectTitle') : t('connections.deleteTitle')}
        message={t(confirming?.kind === 'disconnect' ? 'connections.disconnectConfirm' : 'connections.deleteConfirm', { name: confirming?.connection.name ?? '' })}
        confirmLabel={confirming?.kind === 'disconnect' ? t('connections.actions.disconnect') : undefined}
        busy={busy === 'confirm'}
        onConfirm={confirm}
        onClose={() => setConfirming(null)}
      />
    </Page>
  );
}

/** The session's status, or that a delete of the connection was cut short (deleting it again finishes it). */
function StatusBadge({ connection: c }: { connection: Connection }) {
  const { t } = useTranslation();
  if (c.deleting) return <Badge tone="danger">{t('connections.beingDeleted')}</Badge>;
  return <Badge tone={statusTone(c.status)}>{t(`connections.statuses.${c.status}`, { defaultValue: c.status })}</Badge>;
}
