// How realtime messages reach the other server instances. One process (SQLite): nowhere to go.
// PostgreSQL: NOTIFY on a channel every instance LISTENs to, over one dedicated connection that
// reconnects with backoff. NOTIFY payloads are small JSON (a poke names a company, not data).
// A connection runs one query at a time: messages published while a NOTIFY is under way wait and
// go together in the next statement (an announcement pokes every company at once).
import pg from 'pg';
import type { DomainEvent } from '../events/types.ts';
import type { Logger } from '../log.ts';

export type BusMessage =
  | { origin: string; kind: 'poke'; companyId: number; userIds?: number[] }
  | { origin: string; kind: 'pokeAll' }
  | { origin: string; kind: 'outbox'; connectionId: number }
  | { origin: string; kind: 'auth'; sessionIds: string[]; reason: string }
  | { origin: string; kind: 'presence'; companyId: number; userId: number; since: string }
  | { origin: string; kind: 'event'; companyId: number; channel: string; data: unknown }
  | { origin: string; kind: 'entities'; events: DomainEvent[] }
  // Calls between instances (channels/remote.ts): one part of a call or of its answer, base64 JSON.
  | { origin: string; kind: 'call' | 'reply'; target: string; id: string; part: number; parts: number; data: string };

export type Bus = {
  publish(m: BusMessage): Promise<void>;
  subscribe(handler: (m: BusMessage) => void): () => void;
  close(): Promise<void>;
};

export function createLocalBus(): Bus {
  return { publish: async () => {}, subscribe: () => () => {}, close: async () => {} };
}

/**
 * The channel is per database schema, so instances sharing a database but not a schema (tests run
 * that way) never hear each other.
 */
export async function createPgBus(url: string, log: Logger): Promise<Bus> {
  const handlers = new Set<(m: BusMessage) => void>();
  let client: pg.Client | undefined;
  let channel = 'zapdesk_sync';
  let closed = false;
  let retryMs = 250;

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: url });
    c.on('error', (err) => {
      log.warn('realtime bus connection lost', { error: String(err) });
      if (client === c) client = undefined;
      void c.end().catch(() => {});
      scheduleReconnect();
    });
    c.on('notification', (n) => {
      if (n.channel !== channel || !n.payload) return;
      let m: BusMessage;
      try {
        m = JSON.parse(n.payload) as BusMessage;
      } catch {
        return;
      }
      for (const h of handlers) h(m);
    });
    await c.connect();
    const schema = (await c.query<{ s: string }>('select current_schema() as s')).rows[0]?.s ?? 'public';
    channel = schema === 'public' ? 'zapdesk_sync' : `zapdesk_sync_${schema}`.slice(0, 63);
    await c.query(`LISTEN "${channel}"`);
    client = c;
    retryMs = 250;
  }

  function scheduleReconnect() {
    if (closed) return;
    const wait = retryMs;
    retryMs = Math.min(retryMs * 2, 10_000);
    setTimeout(() => {
      if (!closed && !client) connect().catch(scheduleReconnect);
    }, wait).unref();
  }

  type Waiting = { payload: string; resolve: () => void; reject: (err: unknown) => void };
  let waiting: Waiting[] = [];
  let sending = false;

  async function send() {
    sending = true;
    while (waiting.length) {
      const batch = waiting;
      waiting = [];
      try {
        if (!client) throw new Error('realtime bus is reconnecting');
        await client.query('SELECT pg_notify($1, m) FROM unnest($2::text[]) WITH ORDINALITY AS t(m, n) ORDER BY n', [channel, batch.map((w) => w.payload)]);
        for (const w of batch) w.resolve();
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    sending = false;
  }

  await connect();
  return {
    publish(m) {
      if (!client) return Promise.reject(new Error('realtime bus is reconnecting'));
      return new Promise<void>((resolve, reject) => {
        waiting.push({ payload: JSON.stringify(m), resolve, reject });
        if (!sending) void send();
      });
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async close() {
      closed = true;
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
