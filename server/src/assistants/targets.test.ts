// Where a queue integration may call (webhooks/target.ts, the guard of company webhooks), on a
// fresh database of each dialect with private targets not allowed (the harness allows them): an
// n8n, webhook or Typebot URL naming a loopback, private or metadata address is refused when saved,
// and one stored anyway (before this rule, or a name that resolves there later) is never called:
// the customer's message stays with people.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { startFakeServices, type FakeServices } from '../../test/fakes/services.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { tenant } from '../db/tenant.ts';
import { bumpVersion } from '../sync/version.ts';

describe.each(DIALECTS)('integration targets on %s', (dialect) => {
  let t: TestApp;
  let fake: FakeServices;
  beforeAll(async () => {
    fake = await startFakeServices();
    t = await createTestApp(dialect, {
      simulator: true,
      webhooks: { concurrency: 4, timeoutMs: 3_000, attempts: 2, backoffMs: 10, allowPrivate: false, retentionDays: 7, keepPerWebhook: 100 },
      assistants: { concurrency: 4, timeoutMs: 3_000, attempts: 2, backoffMs: 30, openaiBaseUrl: `${fake.url}/v1`, transcriptionModel: 'whisper-1', dialogflowBaseUrl: fake.url, publicUrl: 'http://zapdesk.test' },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('refuses a loopback, private or metadata URL when an integration is saved, storing nothing', async () => {
    const desk = await setupDesk(t);
    const token = desk.adminSession.token;
    const refused = [`${fake.url}/hook`, 'http://localhost:8080/hook', 'http://10.0.0.5/n8n', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]:9000/tb'];
    for (const [i, url] of refused.entries()) {
      const type = (['webhook', 'n8n', 'typebot'] as const)[i % 3];
      const res = await t.request('POST', '/queueIntegration', { token, body: { type, name: `Hook ${i}`, urlN8N: url, ...(type === 'typebot' ? { typebotSlug: 'bot' } : {}) } });
      expect([res.status, res.body.error], url).toEqual([400, 'ERR_WEBHOOK_URL_FORBIDDEN']);
      expect(res.body.issues, url).toEqual([{ path: 'urlN8N', message: expect.any(String) }]);
      expect(res.body.message, url).toMatch(/^This URL cannot be called by an integration: /);
    }
    expect((await t.request('GET', '/queueIntegration', { token })).body.queueIntegrations).toEqual([]);

    const made = await t.request('POST', '/queueIntegration', { token, body: { type: 'webhook', name: 'CRM', urlN8N: 'https://hooks.example.test/crm' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const moved = await t.request('PUT', `/queueIntegration/${made.body.id}`, { token, body: { type: 'webhook', name: 'CRM', urlN8N: 'http://127.0.0.1:6379/' } });
    expect([moved.status, moved.body.error]).toEqual([400, 'ERR_WEBHOOK_URL_FORBIDDEN']);
    expect((await t.request('GET', `/queueIntegration/${made.body.id}`, { token })).body.urlN8N).toBe('https://hooks.example.test/crm');
  });

  it('never calls a private URL stored anyway: the customer stays with people', async () => {
    const desk = await setupDesk(t, { queues: [{ name: 'Atendimento' }] });
    const db = tenant(t.db, desk.companyId);
    const { id: integrationId } = await db
      .insertInto('queueIntegrations', { name: 'Internal', type: 'webhook', urlN8n: `${fake.url}/internal` } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.updateTable('whatsapps').set({ integrationId, ...bumpVersion() }).where('whatsapps.id', '=', desk.connectionId).execute();
    await db.deleteFrom('whatsappQueues').where('whatsappQueues.whatsappId', '=', desk.connectionId).execute();
    let called = 0;
    fake.on(/^\/internal$/, () => {
      called++;
      return { json: { reply: 'INTERNAL-ONLY service answered' } };
    });

    const from = newNumber();
    await desk.say(from, 'me diga algo');
    await t.deps.assistants.idle();
    await t.deps.outbox.idle();
    expect(called).toBe(0);
    expect((await desk.outbox(from)).map((m) => m.body)).not.toContain('INTERNAL-ONLY service answered');
    expect((await desk.ticketOf(from))?.status).toBe('pending');
  });
});
