// A campaign across a crash (DESIGN §12, §13), with the product as a real process: killed with
// SIGKILL while a 300-recipient campaign is being sent, then started again on the same data. No
// recipient gets two messages (the simulated network is durable and keeps its journal), every
// recipient ends sent, or failed as unconfirmed when its message was on the wire at the kill, and the
// rest is sent after the restart until the campaign is FINALIZADA.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPostgresDatabase, DIALECTS } from '../../../test/harness.ts';
import { demoAdmin } from '../../../test/demo-admin.ts';
import { startServerProcess, type ServerProcess } from '../../../test/process.ts';
import { waitFor } from '../../channels/testing.ts';
import { openDatabase } from '../../db/database.ts';

const RECIPIENTS = 300;
const numberOf = (i: number) => `5511966${String(i).padStart(6, '0')}`;

describe.each(DIALECTS)('campaign across a crash on %s', (dialect) => {
  it('SIGKILL mid-campaign: nobody twice, the rest after the restart, FINALIZADA', { timeout: 240_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-camp-crash-'));
    const pg = dialect === 'postgres' ? await createPostgresDatabase(process.env.TEST_POSTGRES_URL!) : undefined;
    const databaseUrl = pg?.url;
    let server: ServerProcess | undefined = await startServerProcess({ dataDir, databaseUrl });
    const { db } = openDatabase(databaseUrl ?? path.join(dataDir, 'zapdesk.db'));
    try {
      const { login, call } = demoAdmin();
      await login(server);
      const connectionId = ((await call(server, 'GET', '/whatsapp')) as { id: number }[])[0]!.id;
      const { companyId } = await db.selectFrom('whatsapps').select('companyId').where('id', '=', connectionId).executeTakeFirstOrThrow();
      // Slow sends, so the kill finds some on the wire and many still pending.
      await call(server, 'POST', `/simulator/connections/${connectionId}/faults`, { sendLatencyMs: 30 });
      await call(server, 'POST', '/campaign-settings', { settings: { messageInterval: 0, messageJitter: 0, longerIntervalAfter: 0, hourlyLimit: 0, dailyLimit: 0 } });
      const list = await db.insertInto('contactLists').values({ companyId, name: 'Crash' }).returning('id').executeTakeFirstOrThrow();
      await db
        .insertInto('contactListItems')
        .values(Array.from({ length: RECIPIENTS }, (_, i) => ({ companyId, contactListId: list.id, name: `Crash ${i}`, number: numberOf(i) })))
        .execute();
      const campaign = await call(server, 'POST', '/campaigns', { name: 'Crash', message1: 'Campanha para {nome}', whatsappId: connectionId, contactListId: list.id, scheduledAt: new Date().toISOString() });

      const journal = path.join(dataDir, 'simulator', 'outbox.jsonl');
      const onNetwork = () => {
        try {
          return readFileSync(journal, 'utf8').split('"body":"Campanha para ').length - 1;
        } catch {
          return 0;
        }
      };
      await waitFor(async () => onNetwork(), (n) => n >= 40, 60_000);
      await server.kill('SIGKILL');
      const beforeRestart = onNetwork();
      expect(beforeRestart).toBeLessThan(RECIPIENTS);

      server = await startServerProcess({ dataDir, databaseUrl });
      await login(server);
      const s = server;
      await waitFor(async () => (await call(s, 'GET', `/campaigns/${campaign.id}`)).status as string, (status) => status === 'FINALIZADA', 120_000);

      const entries = (await call(s, 'GET', `/simulator/outbox?connectionId=${connectionId}`)) as { body: string; to?: string }[];
      const times = new Map<string, number>();
      for (const e of entries.filter((x) => x.body.startsWith('Campanha para '))) times.set(e.body, (times.get(e.body) ?? 0) + 1);
      // Never twice.
      expect([...times.entries()].filter(([, n]) => n > 1)).toEqual([]);
      const rows = await db.selectFrom('campaignShippings').select(['number', 'status', 'reason', 'name']).where('campaignId', '=', campaign.id).execute();
      expect(rows).toHaveLength(RECIPIENTS);
      const sent = rows.filter((r) => r.status === 'sent');
      const failed = rows.filter((r) => r.status === 'failed');
      // Every recipient ended: sent exactly once, or unconfirmed (on the wire at the kill).
      expect(sent.length + failed.length).toBe(RECIPIENTS);
      for (const r of sent) expect(times.get(`Campanha para ${r.name}`), r.name).toBe(1);
      expect(failed.every((r) => r.reason === 'ERR_SEND_UNCONFIRMED')).toBe(true);
      // At most what a lane may have `sending`: twice its bulk concurrency (OUTBOX_BULK_CONCURRENCY 8).
      expect(failed.length).toBeLessThanOrEqual(16);
      expect(times.size).toBeGreaterThan(beforeRestart);
      const report = await call(s, 'GET', `/campaigns/${campaign.id}/report`);
      expect(report.totals).toMatchObject({ recipients: RECIPIENTS, sent: sent.length, failed: failed.length, pending: 0, queued: 0 });
    } finally {
      await db.destroy();
      await server?.kill('SIGTERM');
      await pg?.drop();
    }
  });
});
