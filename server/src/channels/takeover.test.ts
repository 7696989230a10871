// The holder of a connection dies (SIGKILL) while three instances share one PostgreSQL (DESIGN §11,
// §12, §13): another instance takes the connection over, the campaign under way finishes with each
// recipient messaged at most once (sent once, or failed as unconfirmed when it was on the wire at the
// kill), the flow waiting on a timer sends its next step once, and a customer's message sent while
// nobody held the connection is held by the simulated network and stored once after the take-over.
// Leases shortened by env (LEASE_TTL_MS, LEASE_HEARTBEAT_MS) so the test takes seconds; the default
// arithmetic is in channels/README.md. PostgreSQL only.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../test/harness.ts';
import { demoAdmin } from '../../test/demo-admin.ts';
import { startServerProcess, type ServerProcess } from '../../test/process.ts';
import { prepareGuardedDatabase } from '../../test/template-db.ts';
import { openDatabase } from '../db/database.ts';
import { waitFor } from './testing.ts';

const pgUrl = process.env.TEST_POSTGRES_URL;
const ENV = {
  JWT_SECRET: 'cluster-jwt',
  JWT_REFRESH_SECRET: 'cluster-refresh',
  DATA_KEY: Buffer.alloc(32, 7).toString('base64url'),
  LEASE_TTL_MS: '3000',
  LEASE_HEARTBEAT_MS: '1000',
};
const RECIPIENTS = 60;
const WAIT = 'wait00000000000000000000000001';
const AFTER = 'after0000000000000000000000001';

/** Every message the simulated phones of these instances sent, from their journals. */
function sentBodies(dataDirs: string[]): string[] {
  const bodies: string[] = [];
  for (const dir of dataDirs) {
    let text: string;
    try {
      text = readFileSync(path.join(dir, 'simulator', 'outbox.jsonl'), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const event = JSON.parse(line) as { t: string; entry?: { body: string } };
      if (event.t === 'sent' && event.entry) bodies.push(event.entry.body);
    }
  }
  return bodies;
}

describe.skipIf(!pgUrl)('take-over when the holder of a connection dies', () => {
  it('SIGKILL of the holder mid-campaign and mid-flow-wait: taken over, each recipient once, the next step once, a held message stored once', { timeout: 180_000 }, async () => {
    const pg = await createPostgresDatabase(pgUrl!);
    await prepareGuardedDatabase(pg.url);
    const { db } = openDatabase(pg.url);
    const dataDirs = [0, 1, 2].map(() => mkdtempSync(path.join(tmpdir(), 'zapdesk-takeover-')));
    const servers = await Promise.all(dataDirs.map((dataDir) => startServerProcess({ dataDir, databaseUrl: pg.url, guard: false, env: ENV })));
    try {
      // The instance that seeded the demo runs its connection; the others survive it.
      const holder = servers.find((s) => s.output().includes('First start: created'))!;
      const [a, b] = servers.filter((s) => s !== holder) as [ServerProcess, ServerProcess];
      const { login, call } = demoAdmin();
      await login(a);
      const connectionId = ((await call(a, 'GET', '/whatsapp')) as { id: number }[])[0]!.id;
      const { companyId, leaseOwner } = await db.selectFrom('whatsapps').select(['companyId', 'leaseOwner']).where('id', '=', connectionId).executeTakeFirstOrThrow();

      // A flow that waits 6 s before its message, started by a customer's phrase (below).
      const flow = await call(a, 'POST', '/flowbuilder', { name: 'Espera' });
      const edge = (source: string, target: string) => ({ source, target, sourceHandle: null, type: 'buttonedge' });
      await call(b, 'POST', '/flowbuilder/flow', {
        idFlow: flow.id,
        nodes: [
          { id: '1', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Inicio do fluxo' } },
          { id: WAIT, type: 'interval', position: { x: 1, y: 0 }, data: { sec: 6 } },
          { id: AFTER, type: 'message', position: { x: 2, y: 0 }, data: { label: 'Depois da espera' } },
        ],
        connections: [edge('1', WAIT), edge(WAIT, AFTER)],
      });
      await call(a, 'POST', '/flowcampaign', { name: 'Espera', flowId: flow.id, whatsappId: connectionId, phrase: 'espera' });

      // A campaign to 60 recipients over slow sends (the faults reach the phone wherever it runs).
      await call(a, 'POST', `/simulator/connections/${connectionId}/faults`, { sendLatencyMs: 250 });
      await call(b, 'POST', '/campaign-settings', { settings: { messageInterval: 0, messageJitter: 0, longerIntervalAfter: 0, hourlyLimit: 0, dailyLimit: 0 } });
      const list = await db.insertInto('contactLists').values({ companyId, name: 'Take-over' }).returning('id').executeTakeFirstOrThrow();
      await db
        .insertInto('contactListItems')
        .values(Array.from({ length: RECIPIENTS }, (_, i) => ({ companyId, contactListId: list.id, name: `Pessoa ${i}`, number: `5511966${String(i).padStart(6, '0')}` })))
        .execute();
      const campaign = await call(a, 'POST', '/campaigns', { name: 'Take-over', message1: 'Campanha para {nome}', whatsappId: connectionId, contactListId: list.id, scheduledAt: new Date().toISOString() });
      const campaignSent = () => sentBodies(dataDirs).filter((body) => body.startsWith('Campanha para ')).length;
      await waitFor(async () => campaignSent(), (n) => n >= 10, 60_000);
      // The flow starts now, so the kill comes during its wait.
      await call(b, 'POST', '/simulator/messages', { connectionId, from: '5511977770001', body: 'Espera' });
      await waitFor(async () => db.selectFrom('flowRuns').select('nodeId').executeTakeFirst(), (run) => run?.nodeId === WAIT, 10_000);

      await holder.kill('SIGKILL');
      const killedAt = Date.now();
      const sentAtKill = campaignSent();
      expect(sentAtKill).toBeLessThan(RECIPIENTS);
      expect(sentBodies(dataDirs)).not.toContain('Depois da espera');
      // The customer writes while nobody holds the connection: the network holds the message.
      const held = b.request('POST', '/simulator/messages', { token: await login(b), body: { connectionId, from: '5511977770002', body: 'sent during the take-over' } });

      const moved = await waitFor(
        async () => db.selectFrom('whatsapps').select(['leaseOwner', 'status']).where('id', '=', connectionId).executeTakeFirstOrThrow(),
        (row) => row.leaseOwner !== null && row.leaseOwner !== leaseOwner && row.status === 'CONNECTED',
        60_000,
      );
      const tookMs = Date.now() - killedAt;
      console.log(`take-over after SIGKILL: ${tookMs} ms (LEASE_TTL_MS=${ENV.LEASE_TTL_MS}, LEASE_HEARTBEAT_MS=${ENV.LEASE_HEARTBEAT_MS})`);
      expect(moved.status).toBe('CONNECTED');
      expect(tookMs).toBeLessThan(30_000);

      expect((await held).status).toBe(200);
      expect(await db.selectFrom('messages').select('id').where('body', '=', 'sent during the take-over').execute()).toHaveLength(1);

      await waitFor(async () => (await call(a, 'GET', `/campaigns/${campaign.id}`)).status as string, (status) => status === 'FINALIZADA', 90_000);
      const times = new Map<string, number>();
      for (const body of sentBodies(dataDirs).filter((x) => x.startsWith('Campanha para '))) times.set(body, (times.get(body) ?? 0) + 1);
      expect([...times.entries()].filter(([, n]) => n > 1)).toEqual([]);
      const rows = await db.selectFrom('campaignShippings').select(['status', 'reason', 'name']).where('campaignId', '=', campaign.id).execute();
      expect(rows).toHaveLength(RECIPIENTS);
      const unconfirmed = rows.filter((r) => r.status !== 'sent').length;
      console.log(`campaign: ${sentAtKill} on the network at the kill; in the end ${rows.length - unconfirmed} sent once each, ${unconfirmed} unconfirmed`);
      for (const r of rows) {
        if (r.status === 'sent') expect(times.get(`Campanha para ${r.name}`), r.name).toBe(1);
        else expect(r, r.name).toMatchObject({ status: 'failed', reason: 'ERR_SEND_UNCONFIRMED' });
      }

      // The flow's next step: once, from whichever instance fired its timer, through the new holder.
      await waitFor(async () => sentBodies(dataDirs).filter((x) => x === 'Depois da espera').length, (n) => n >= 1, 30_000);
      expect(sentBodies(dataDirs).filter((x) => x === 'Depois da espera')).toHaveLength(1);
      expect(await db.selectFrom('flowRuns').select(['status', 'endReason']).executeTakeFirstOrThrow()).toMatchObject({ status: 'finished', endReason: 'completed' });
      // Nothing left in flight or queued.
      await waitFor(async () => db.selectFrom('outbox').select('id').execute(), (left) => left.length === 0, 20_000);
    } finally {
      await Promise.all(servers.map((s) => s.kill('SIGTERM')));
      await db.destroy();
      await pg.drop();
    }
  });
});
