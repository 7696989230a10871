// One connection's live state for `connections pair`: from the Replicache client with its SQLite
// store under the config folder (pokes over the WebSocket, so a new QR shows as soon as the server
// has it), the same data the web shows. A super-admin watching another company's connection is
// outside their Replicache view, so that case polls GET /whatsapp/{id}.
import type { Connection } from '@zapdesk/sync';
import type { Ctx } from '../context.ts';
import type { Api } from '../session.ts';
import { openLiveClient, subscribeSynced } from './client.ts';

/** What the pairing screen shows of a connection, the QR code and retries filled in ('' and 0). */
export type ConnectionState = Pick<Connection, 'id' | 'name' | 'status'> & Required<Pick<Connection, 'qrcode' | 'retries'>>;
export type Watch = { mode: 'replicache' | 'poll'; stop(): Promise<void> };

const toState = (c: Connection): ConnectionState => ({
  id: c.id,
  name: c.name,
  status: c.status,
  qrcode: c.qrcode ?? '',
  retries: c.retries ?? 0,
});

export async function watchConnection(
  ctx: Ctx,
  api: Api,
  target: { id: number; companyId: number; userId: number | undefined; ownCompany: boolean; poll?: boolean },
  onChange: (state: ConnectionState) => void,
): Promise<Watch> {
  if (target.ownCompany && target.userId && !target.poll) return watchReplicache(ctx, api, { ...target, userId: target.userId }, onChange);
  return watchPolling(api, target, onChange);
}

async function watchReplicache(ctx: Ctx, api: Api, target: { id: number; companyId: number; userId: number }, onChange: (s: ConnectionState) => void): Promise<Watch> {
  const { syncKey } = await import('@zapdesk/sync/keys');
  const client = await openLiveClient(ctx, api, { userId: target.userId, companyId: target.companyId });
  // Only the server's answer counts: the store's copy is what an earlier run saw.
  const unsubscribe = await subscribeSynced(
    client,
    (tx) => tx.get(syncKey('connection', target.id)) as Promise<Connection | undefined>,
    (c, synced) => {
      if (c && synced) onChange(toState(c));
    },
  ).catch(async (err: unknown) => {
    await client.close();
    throw err;
  });
  return {
    mode: 'replicache',
    async stop() {
      unsubscribe();
      await client.close();
    },
  };
}

function watchPolling(api: Api, target: { id: number; companyId: number }, onChange: (s: ConnectionState) => void): Watch {
  let stopped = false;
  let last = '';
  const loop = (async () => {
    while (!stopped) {
      const c = await api.get<Connection>(`/whatsapp/${target.id}`, { query: { companyId: target.companyId } }).catch(() => undefined);
      if (c && !stopped) {
        const key = `${c.status}|${c.qrcode ?? ''}`;
        if (key !== last) onChange(toState(c));
        last = key;
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
  })();
  return {
    mode: 'poll',
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
