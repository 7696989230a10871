// The outbox across a crash (DESIGN §12), with the product as a real process: killed with SIGKILL
// in the middle of a burst of 500 sends to slow connections, then started again on the same data.
// WhatsApp has no idempotency key, so the rule is at most once: no message reaches the (simulated,
// durable) network twice, none the server accepted is lost (each ends sent, or failed as
// unconfirmed when it was on the wire at the kill), and what was still queued leaves after the restart.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPostgresDatabase, DIALECTS } from '../../test/harness.ts';
import { PROCESS_PASSWORD, startServerProcess, type ServerProcess } from '../../test/process.ts';
import { waitFor } from '../channels/testing.ts';
import { openDatabase } from '../db/database.ts';

const CONNECTIONS = 3;
const TICKETS_PER_CONNECTION = 8;
const SENDS = 500;
const LATENCY_MS = 150;

type Entry = { id: string; body: string; timestamp: string };

describe.each(DIALECTS)('outbox across a crash on %s', (dialect) => {
  it('SIGKILL in the middle of 500 sends: nothing twice, nothing lost, the queued rest leaves after the restart', { timeout: 240_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-crash-'));
    const pg = dialect === 'postgres' ? await createPostgresDatabase(process.env.TEST_POSTGRES_URL!) : undefined;
    const databaseUrl = pg?.url;
    let server: ServerProcess | undefined = await startServerProcess({ dataDir, databaseUrl });
    try {
      const login = await server.request('POST', '/auth/login', { body: { email: 'admin@demo.zapdesk.local', password: PROCESS_PASSWORD } });
      expect(login.status).toBe(200);
      const token = login.body.token as string;
      const s = server;
      const call = async (method: string, route: string, body?: unknown) => {
        const res = await s.request(method, route, { token, body });
        expect(res.status, `${method} ${route}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
        return res.body;
      };

      // Three slow connections (the demo's, paired at first start, and two more), a few open tickets on each.
      const connections: number[] = ((await call('GET', '/whatsapp')) as { id: number }[]).map((c) => c.id).slice(0, 1);
      while (connections.length < CONNECTIONS) {
        const created = await call('POST', '/whatsapp', { name: `Slow line ${connections.length}`, provider: 'simulator' });
        await call('POST', `/whatsappsession/${created.id}`);
        await call('POST', `/simulator/connections/${created.id}/scan`);
        connections.push(created.id);
      }
      const tickets: number[] = [];
      for (const [c, connectionId] of connections.entries()) {
        await call('POST', `/simulator/connections/${connectionId}/faults`, { sendLatencyMs: LATENCY_MS });
        for (let i = 0; i < TICKETS_PER_CONNECTION; i++) {
          const contact = await call('POST', '/contacts', { name: `Crash ${c}-${i}`, number: `5511955${c}${String(i).padStart(5, '0')}` });
          tickets.push((await call('POST', '/tickets', { contactId: contact.id, status: 'open', whatsappId: connectionId })).id);
        }
      }

      // The burst: 500 replies, 16 requests at a time; the kill comes once 60 have reached the network
      // while at least 60 more wait in the queue (the connections take 80 a second together).
      const journal = path.join(dataDir, 'simulator', 'outbox.jsonl');
      const onNetwork = () => {
        try {
          return readFileSync(journal, 'utf8').split('"body":"burst ').length - 1;
        } catch {
          return 0;
        }
      };
      const accepted = new Map<number, string>();
      let next = 0;
      let killed = false;
      const worker = async () => {
        while (!killed && next < SENDS) {
          const i = next++;
          const body = `burst ${String(i).padStart(3, '0')}`;
          try {
            const res = await s.request('POST', `/messages/${tickets[i % tickets.length]}`, { token, body: { body } });
            if (res.status === 201) accepted.set(res.body.id as number, body);
          } catch {
            // The server died under this request: it may or may not have been stored.
          }
        }
      };
      const workers = Array.from({ length: 16 }, worker);
      await waitFor(async () => ({ sent: onNetwork(), taken: accepted.size }), ({ sent, taken }) => sent >= 60 && taken - sent >= 60, 60_000);
      await server.kill('SIGKILL');
      killed = true;
      await Promise.all(workers);
      const sentBeforeKill = onNetwork();
      expect(accepted.size).toBeGreaterThan(sentBeforeKill);

      const restartedAt = new Date().toISOString();
      server = await startServerProcess({ dataDir, databaseUrl });
      const { db } = openDatabase(databaseUrl ?? path.join(dataDir, 'zapdesk.db'));
      try {
        const burst = () => db.selectFrom('messages').select(['messages.id', 'messages.body', 'messages.wid', 'messages.sendStatus', 'messages.sendError']).where('messages.body', 'like', 'burst %').execute();
        const rows = await waitFor(burst, (all) => all.every((m) => m.sendStatus === 'sent' || m.sendStatus === 'failed'), 60_000);
        expect(await db.selectFrom('outbox').select('outbox.id').execute()).toEqual([]);

        // What the network received, read back from the restarted server's simulator.
        const again = await server.request('POST', '/auth/login', { body: { email: 'admin@demo.zapdesk.local', password: PROCESS_PASSWORD } });
        const network: Entry[] = [];
        for (const id of connections) {
          const res = await server.request('GET', `/simulator/outbox?connectionId=${id}`, { token: again.body.token });
          network.push(...(res.body as Entry[]).filter((e) => e.body.startsWith('burst ')));
        }
        const times = new Map<string, number>();
        for (const e of network) times.set(e.body, (times.get(e.body) ?? 0) + 1);
        // Never twice.
        expect([...times.values()].filter((n) => n > 1)).toEqual([]);

        // Nothing the server accepted is lost.
        const byId = new Map(rows.map((r) => [r.id, r]));
        for (const [id, body] of accepted) expect(byId.get(id)?.body, `message ${id}`).toBe(body);
        // Sent: on the network exactly once, under the id we recorded. Failed: only unconfirmed, only
        // what was on the wire or awaiting its record at the kill (at most twice the concurrency of
        // each of the three connections).
        const entryOf = new Map(network.map((e) => [e.body, e]));
        const sent = rows.filter((r) => r.sendStatus === 'sent');
        const unconfirmed = rows.filter((r) => r.sendStatus === 'failed');
        for (const r of sent) expect(entryOf.get(r.body)?.id, r.body).toBe(r.wid);
        expect(unconfirmed.every((r) => r.sendError === 'ERR_SEND_UNCONFIRMED')).toBe(true);
        expect(unconfirmed.length).toBeLessThanOrEqual(CONNECTIONS * 4 * 2);
        // The queued rest went out after the restart.
        const afterRestart = sent.filter((r) => entryOf.get(r.body)!.timestamp > restartedAt);
        expect(afterRestart.length).toBeGreaterThan(0);
        expect(sent.length + unconfirmed.length).toBe(rows.length);
      } finally {
        await db.destroy();
      }
    } finally {
      await server?.kill('SIGTERM');
      await pg?.drop();
    }
  });
});
