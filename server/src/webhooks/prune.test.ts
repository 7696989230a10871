// Pruning the delivery log with a fake clock: settled rows past the retention period go, live ones
// (queued, running) stay whatever their age, each webhook keeps at most its newest N, in slices;
// the log (GET /webhooks/{id}/deliveries) shows what is left. Another company's rows are judged by
// their own webhook only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { seedTenant } from '../../test/seed.ts';
import { tenant } from '../db/tenant.ts';
import { pruneWebhookDeliveries } from './prune.ts';

const DAY = 86_400_000;

describe.each(DIALECTS)('webhook delivery log pruning (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    // The worker would post the queued rows of this test: it is not part of it.
    await t.deps.webhooks.stop();
  });
  afterAll(async () => t?.close());

  async function hookWithRows(rows: { state: string; ageDays: number }[], now: Date) {
    const tn = await seedTenant(t);
    const token = tn.adminSession.token;
    const hook = await t.request('POST', '/webhooks', { token, body: { name: 'CRM', url: 'https://crm.example.com/hook', events: ['contact.created'] } });
    expect(hook.status).toBe(201);
    const db = tenant(t.db, tn.company.id);
    let n = 0;
    for (const r of rows) {
      const at = new Date(now.getTime() - r.ageDays * DAY).toISOString();
      n++;
      await db
        .insertInto('webhookDeliveries', { webhookId: hook.body.id, eventId: `e-${tn.company.id}-${n}`, event: 'contact.created', orderKey: `contact:${n}`, payload: '{}', state: r.state, attempts: 1, createdAt: at, updatedAt: at })
        .execute();
    }
    const left = async () => (await db.selectFrom('webhookDeliveries').select(['webhookDeliveries.eventId', 'webhookDeliveries.state']).orderBy('webhookDeliveries.id').execute()).map((r) => `${r.eventId.split('-').at(-1)}:${r.state}`);
    return { token, hook: hook.body as { id: number }, left, companyId: tn.company.id };
  }

  it('deletes settled rows past the retention period and keeps live and recent ones', async () => {
    const now = new Date('2026-12-20T12:00:00.000Z');
    const a = await hookWithRows(
      [
        { state: 'done', ageDays: 30 },
        { state: 'failed', ageDays: 10 },
        { state: 'queued', ageDays: 9 },
        { state: 'running', ageDays: 8 },
        { state: 'done', ageDays: 7.5 },
        { state: 'done', ageDays: 6.9 },
        { state: 'failed', ageDays: 1 },
        { state: 'done', ageDays: 0 },
      ],
      now,
    );
    const result = await pruneWebhookDeliveries(t.deps, { retentionDays: 7, keepPerWebhook: 1_000, batch: 2 }, now);
    expect(result).toEqual({ expired: 3, overCap: 0 });
    expect(await a.left()).toEqual(['3:queued', '4:running', '6:done', '7:failed', '8:done']);
    // The log shows the same rows, newest first.
    const log = await t.request('GET', `/webhooks/${a.hook.id}/deliveries?limit=50`, { token: a.token });
    expect(log.body.deliveries.map((d: { state: string }) => d.state)).toEqual(['done', 'failed', 'done', 'running', 'queued']);
    // A day later, the row that was 6.9 days old has expired too.
    await pruneWebhookDeliveries(t.deps, { retentionDays: 7, keepPerWebhook: 1_000, batch: 2 }, new Date(now.getTime() + DAY));
    expect(await a.left()).toEqual(['3:queued', '4:running', '7:failed', '8:done']);
  });

  it('keeps at most the newest N rows per webhook, never a live one, each webhook on its own', async () => {
    const now = new Date('2026-12-20T12:00:00.000Z');
    const busy = await hookWithRows([{ state: 'queued', ageDays: 1 }, ...Array.from({ length: 24 }, () => ({ state: 'done', ageDays: 1 }))], now);
    const quiet = await hookWithRows(Array.from({ length: 5 }, () => ({ state: 'done', ageDays: 1 })), now);
    const result = await pruneWebhookDeliveries(t.deps, { retentionDays: 7, keepPerWebhook: 10, batch: 3 }, now);
    expect(result.overCap).toBe(14);
    // Rows 16..25 are the newest 10; the queued row 1 stays although it is past the cap.
    expect(await busy.left()).toEqual(['1:queued', ...Array.from({ length: 10 }, (_, i) => `${16 + i}:done`)]);
    expect(await quiet.left()).toHaveLength(5);
    // Idempotent: a second pass finds nothing more.
    expect(await pruneWebhookDeliveries(t.deps, { retentionDays: 7, keepPerWebhook: 10, batch: 3 }, now)).toEqual({ expired: 0, overCap: 0 });
  });
});
