// Queue integrations over HTTP against the real app (spec/03 §7 "Queue integrations"; issue 16): the
// contract of every call per type, the rules of spec/03 §5 as catalogue errors, the plan flag and the
// admin gate, another company's ids answered as not found, and the secrets (Dialogflow's JSON, the
// signing secret of n8n and webhook calls): sealed in the database, answered masked, a generated
// signing secret shown in full once, nothing of them in the sync pull.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { syncClient } from '../../../test/read-model.ts';
import { seedQueue, seedTenant, seedTicket } from '../../../test/seed.ts';
import { sliceBesideAnotherWrite } from '../../../test/slices.ts';
import { inSlices } from '../../db/slices.ts';
import { tenant } from '../../db/tenant.ts';
import { bumpVersion } from '../../sync/version.ts';
import { releaseIntegrationSlice } from './service.ts';

const SERVICE_ACCOUNT = JSON.stringify({
  type: 'service_account',
  project_id: 'bakery-agent-123',
  client_email: 'bot@bakery-agent-123.iam.gserviceaccount.com',
  private_key: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC-secret-part\n-----END PRIVATE KEY-----\n',
});

describe.each(DIALECTS)('queue integrations on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  }, 180_000);
  afterAll(async () => t.close());

  const raw = (id: number) => t.db.selectFrom('queueIntegrations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('creates each type with its fields and defaults, pages and searches them, edits and deletes them', async () => {
    const { company, adminSession } = await seedTenant(t, { useIntegrations: 1, useCampaigns: 1 });
    const token = adminSession.token;
    const pokes = vi.spyOn(t.deps.realtime, 'pokeCompany');
    const typebot = await t.request('POST', '/queueIntegration', {
      token,
      body: { type: 'typebot', name: 'Sales bot', projectName: 'ignored', urlN8N: 'https://typebot.example.com', typebotSlug: 'sales', typebotKeywordFinish: 'bye', language: 'en', jsonContent: '' },
    });
    expect(typebot.status).toBe(201);
    expect(typebot.body).toMatchObject({
      type: 'typebot',
      name: 'Sales bot',
      projectName: 'Sales bot',
      urlN8N: 'https://typebot.example.com',
      typebotSlug: 'sales',
      typebotDelayMessage: 1000,
      typebotExpires: 1,
      typebotKeywordFinish: 'bye',
      typebotKeywordRestart: null,
      language: null,
      jsonContent: '',
      hasJsonContent: false,
      signingSecret: '',
      hasSigningSecret: false,
      flowId: null,
    });
    expect(pokes).toHaveBeenCalledWith(company.id);
    pokes.mockRestore();

    const dialogflow = await t.request('POST', '/queueIntegration', { token, body: { type: 'dialogflow', name: 'Agent', language: 'es', jsonContent: SERVICE_ACCOUNT } });
    expect(dialogflow.body).toMatchObject({ type: 'dialogflow', projectName: 'bakery-agent-123', language: 'es', hasJsonContent: true, urlN8N: null });
    expect(dialogflow.body.jsonContent).toBe('••••');

    const flow = (await t.request('POST', '/flowbuilder', { token, body: { name: 'Welcome flow' } })).body;
    const flowbuilder = await t.request('POST', '/queueIntegration', { token, body: { type: 'flowbuilder', name: 'Welcome', flowId: flow.id } });
    expect(flowbuilder.body).toMatchObject({ type: 'flowbuilder', projectName: 'Welcome', flowId: flow.id });

    // GET /queueIntegration/: a page by name with search, or everything for the pickers.
    const all = await t.request('GET', '/queueIntegration/', { token });
    expect(all.body.queueIntegrations.map((i: { name: string }) => i.name)).toEqual(['Agent', 'Sales bot', 'Welcome']);
    expect(all.body.hasMore).toBe(false);
    const found = await t.request('GET', '/queueIntegration/?searchParam=sales&pageNumber=1', { token });
    expect(found.body).toEqual({ queueIntegrations: [typebot.body], hasMore: false });
    expect((await t.request('GET', `/queueIntegration/${typebot.body.id}`, { token })).body).toEqual(typebot.body);

    // PUT merges: fields left out stay, empty ones clear; switching type clears the old type's fields.
    const edited = await t.request('PUT', `/queueIntegration/${typebot.body.id}`, { token, body: { name: 'Sales robot', typebotKeywordFinish: '', typebotDelayMessage: '2500' } });
    expect(edited.body).toMatchObject({ name: 'Sales robot', projectName: 'Sales robot', typebotSlug: 'sales', typebotKeywordFinish: null, typebotDelayMessage: 2500 });
    const switched = await t.request('PUT', `/queueIntegration/${typebot.body.id}`, { token, body: { type: 'n8n', urlN8N: 'http://n8n.local/webhook/abc' } });
    expect(switched.body).toMatchObject({ type: 'n8n', urlN8N: 'http://n8n.local/webhook/abc', typebotSlug: null, hasSigningSecret: true });
    expect(switched.body.signingSecret).toMatch(/^whsec_/);

    // Deleting a flow leaves its integration without one; deleting an integration detaches its users.
    await t.request('DELETE', `/flowbuilder/${flow.id}`, { token });
    expect((await raw(flowbuilder.body.id)).flowId).toBeNull();
    const queue = await seedQueue(t, company.id);
    await t.request('PUT', `/queue/${queue.id}`, { token, body: { integrationId: dialogflow.body.id } });
    const before = await t.db.selectFrom('queues').select(['integrationId', 'version']).where('id', '=', queue.id).executeTakeFirstOrThrow();
    expect(before.integrationId).toBe(dialogflow.body.id);
    expect((await t.request('DELETE', `/queueIntegration/${dialogflow.body.id}`, { token })).body).toEqual({ message: 'Integration deleted' });
    const after = await t.db.selectFrom('queues').select(['integrationId', 'version']).where('id', '=', queue.id).executeTakeFirstOrThrow();
    expect(after.integrationId).toBeNull();
    expect(after.version).toBeGreaterThan(before.version);
    expect((await t.request('GET', `/queueIntegration/${dialogflow.body.id}`, { token })).status).toBe(404);
  });

  it('seals the credentials and signing secrets, shows a generated secret once, and never answers or syncs them', async () => {
    const { adminSession } = await seedTenant(t, { useIntegrations: 1 });
    const token = adminSession.token;
    const webhook = await t.request('POST', '/queueIntegration', { token, body: { type: 'webhook', name: 'Orders hook', urlN8N: 'https://hooks.example.com/zap' } });
    expect(webhook.status).toBe(201);
    const generated = webhook.body.signingSecret as string;
    expect(generated).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(webhook.body.hasSigningSecret).toBe(true);
    const row = await raw(webhook.body.id);
    expect(row.signingSecretEnc).not.toContain(generated);
    expect(t.deps.secrets.open(row.signingSecretEnc!)).toBe(generated);
    const masked = `••••${generated.slice(-4)}`;
    const again = await t.request('GET', `/queueIntegration/${webhook.body.id}`, { token });
    expect(again.body).toMatchObject({ signingSecret: masked, hasSigningSecret: true });

    // A typed secret is kept as typed, answered masked; the mask sent back keeps it.
    const typed = 'my-own-signing-secret-0042';
    const n8n = await t.request('POST', '/queueIntegration', { token, body: { type: 'n8n', name: 'Flows n8n', urlN8N: 'https://n8n.example.com/hook', signingSecret: typed } });
    expect(n8n.body).toMatchObject({ signingSecret: '••••0042', hasSigningSecret: true });
    expect(t.deps.secrets.open((await raw(n8n.body.id)).signingSecretEnc!)).toBe(typed);
    const kept = await t.request('PUT', `/queueIntegration/${n8n.body.id}`, { token, body: { name: 'Flows n8n 2', signingSecret: '••••0042' } });
    expect(kept.body.signingSecret).toBe('••••0042');
    expect(t.deps.secrets.open((await raw(n8n.body.id)).signingSecretEnc!)).toBe(typed);
    const rotated = 'rotated-signing-secret-9999';
    expect((await t.request('PUT', `/queueIntegration/${n8n.body.id}`, { token, body: { signingSecret: rotated } })).body.signingSecret).toBe('••••9999');
    expect((await t.request('PUT', `/queueIntegration/${n8n.body.id}`, { token, body: { signingSecret: 'short' } })).body.issues[0]).toEqual({ path: 'signingSecret', message: 'Too Short!' });

    // Dialogflow's JSON: sealed, masked, kept by a PUT without it, replaced by a new one.
    const agent = await t.request('POST', '/queueIntegration', { token, body: { type: 'dialogflow', name: 'Agent', language: 'pt-BR', jsonContent: SERVICE_ACCOUNT } });
    const agentRow = await raw(agent.body.id);
    expect(agentRow.jsonContent).not.toContain('PRIVATE KEY');
    expect(t.deps.secrets.open(agentRow.jsonContent!)).toBe(SERVICE_ACCOUNT);
    const renamed = await t.request('PUT', `/queueIntegration/${agent.body.id}`, { token, body: { name: 'Agent two', jsonContent: agent.body.jsonContent } });
    expect(renamed.body).toMatchObject({ name: 'Agent two', hasJsonContent: true, projectName: 'bakery-agent-123' });
    expect(t.deps.secrets.open((await raw(agent.body.id)).jsonContent!)).toBe(SERVICE_ACCOUNT);

    const list = await t.request('GET', '/queueIntegration/', { token });
    const pulled = await syncClient(t, token).pull();
    const answers = JSON.stringify([again.body, n8n.body, kept.body, agent.body, renamed.body, list.body, [...pulled.puts.entries()]]);
    for (const secret of [typed, rotated, 'PRIVATE KEY', 'secret-part', agentRow.jsonContent!, row.signingSecretEnc!]) expect(answers).not.toContain(secret);
    // The generated secret appears in the one answer that made it, nowhere else.
    expect(answers).not.toContain(generated);
    // Switching to a type without secrets drops them.
    const typebot = await t.request('PUT', `/queueIntegration/${agent.body.id}`, { token, body: { type: 'typebot', urlN8N: 'https://typebot.example.com', typebotSlug: 'x' } });
    expect(typebot.body).toMatchObject({ type: 'typebot', hasJsonContent: false, jsonContent: '', language: null });
    expect((await raw(agent.body.id)).jsonContent).toBeNull();
  });

  it("lets go of a deleted integration's tickets and sessions a slice at a time, other writes in between; another company's id touches nothing", async () => {
    const { company, adminSession } = await seedTenant(t, { useIntegrations: 1 });
    const other = await seedTenant(t, { useIntegrations: 1 });
    const created = await t.request('POST', '/queueIntegration', { token: adminSession.token, body: { type: 'n8n', name: 'Sliced', urlN8N: 'https://n8n.example.com/hook' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const db = tenant(t.db, company.id);
    const tickets = await Promise.all([0, 1, 2].map(() => seedTicket(t, company.id)));
    await db.updateTable('tickets').set({ integrationId: id, useIntegration: 1, ...bumpVersion() }).where('tickets.id', 'in', tickets.map((tk) => tk.id)).execute();
    await db.insertInto('assistantSessions', tickets.map((tk) => ({ ticketId: tk.id, integrationId: id, sessionId: `s-${tk.id}` }))).execute();
    const left = async () => ({
      tickets: (await db.selectFrom('tickets').select('tickets.id').where('tickets.integrationId', '=', id).execute()).length,
      sessions: (await db.selectFrom('assistantSessions').select('assistantSessions.id').where('assistantSessions.integrationId', '=', id).execute()).length,
    });

    await inSlices(t.deps, (tx, limit) => releaseIntegrationSlice(tx, other.company.id, id, limit), 2);
    expect(await left()).toEqual({ tickets: 3, sessions: 3 });

    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => releaseIntegrationSlice(tx, company.id, id, limit), async () => {
      const now = await left();
      return now.tickets + now.sessions > 0;
    });
    expect(await left()).toEqual({ tickets: 0, sessions: 0 });
    expect(await db.selectFrom('tickets').select(['tickets.useIntegration']).where('tickets.id', 'in', tickets.map((tk) => tk.id)).execute()).toEqual(tickets.map(() => ({ useIntegration: 0 })));
    expect((await t.request('DELETE', `/queueIntegration/${id}`, { token: adminSession.token })).status).toBe(200);
  });

  it('refuses what spec/03 §5 forbids with catalogue errors, never a 500', async () => {
    const { adminSession } = await seedTenant(t, { useIntegrations: 1, useCampaigns: 1 });
    const token = adminSession.token;
    const theirs = await seedTenant(t, { useIntegrations: 1, useCampaigns: 1 });
    const theirFlow = (await t.request('POST', '/flowbuilder', { token: theirs.adminSession.token, body: { name: 'Their flow' } })).body;
    const cases: [unknown, string, string][] = [
      [{ type: 'webhook', name: 'A', urlN8N: 'https://x.test' }, 'name', 'Too Short!'],
      [{ type: 'webhook', name: 'x'.repeat(51), urlN8N: 'https://x.test' }, 'name', 'Too Long!'],
      [{ type: 'webhook', urlN8N: 'https://x.test' }, 'name', 'Required'],
      // A value sent of the wrong kind says so; Required is for what was left out.
      [{ type: 'webhook', name: 42, urlN8N: 'https://x.test' }, 'name', 'Invalid input: expected string'],
      [{ name: 'No type' }, 'type', 'Required'],
      [{ type: 'zapier', name: 'Other' }, 'type', 'Invalid option: expected one of "dialogflow", "n8n", "webhook", "typebot", "flowbuilder"'],
      [{ type: 'webhook', name: 'Hook' }, 'urlN8N', 'Required'],
      [{ type: 'n8n', name: 'Hook', urlN8N: 'ftp://x.test' }, 'urlN8N', 'Give an http(s) link'],
      [{ type: 'typebot', name: 'Bot', typebotSlug: 'a' }, 'urlN8N', 'Required'],
      [{ type: 'typebot', name: 'Bot', urlN8N: 'https://typebot.test' }, 'typebotSlug', 'Required'],
      [{ type: 'typebot', name: 'Bot', urlN8N: 'https://typebot.test', typebotSlug: 's', typebotDelayMessage: -1 }, 'typebotDelayMessage', 'Too Short!'],
      [{ type: 'typebot', name: 'Bot', urlN8N: 'https://typebot.test', typebotSlug: 's', typebotExpires: 'soon' }, 'typebotExpires', 'Invalid input: expected number, received string'],
      [{ type: 'dialogflow', name: 'Agent', jsonContent: SERVICE_ACCOUNT }, 'language', 'Required'],
      [{ type: 'dialogflow', name: 'Agent', language: 'fr', jsonContent: SERVICE_ACCOUNT }, 'language', 'Invalid option: expected one of "pt-BR"|"en"|"es"'],
      [{ type: 'dialogflow', name: 'Agent', language: 'en' }, 'jsonContent', 'Required'],
      [{ type: 'dialogflow', name: 'Agent', language: 'en', jsonContent: '{not json' }, 'jsonContent', 'Paste the service account JSON'],
      [{ type: 'dialogflow', name: 'Agent', language: 'en', jsonContent: '{"project_id":"p"}' }, 'jsonContent', 'The JSON lacks client_email, private_key'],
      [{ type: 'flowbuilder', name: 'Flow' }, 'flowId', 'Required'],
      [{ type: 'flowbuilder', name: 'Flow', flowId: theirFlow.id }, 'flowId', `No flow ${theirFlow.id} in this company`],
    ];
    for (const [body, path, message] of cases) {
      const res = await t.request('POST', '/queueIntegration', { token, body });
      expect([path, res.status, res.body.error, res.body.issues?.[0]]).toEqual([path, 400, 'ERR_VALIDATION', { path, message }]);
    }
    expect((await t.request('POST', '/queueIntegration', { token, body: '{"type":' })).body.error).toBe('ERR_INVALID_JSON');
    expect((await t.request('GET', '/queueIntegration/?pageNumber=zero', { token })).body.error).toBe('ERR_VALIDATION');
    expect((await t.request('GET', '/queueIntegration/', { token })).body.queueIntegrations).toEqual([]);
    // A PUT is checked on the merged row: a webhook cannot lose its URL, nor become a typebot without a slug.
    const hook = (await t.request('POST', '/queueIntegration', { token, body: { type: 'webhook', name: 'Hook', urlN8N: 'https://x.test' } })).body;
    expect((await t.request('PUT', `/queueIntegration/${hook.id}`, { token, body: { urlN8N: '' } })).body.issues[0]).toEqual({ path: 'urlN8N', message: 'Required' });
    expect((await t.request('PUT', `/queueIntegration/${hook.id}`, { token, body: { type: 'typebot' } })).body.issues[0]).toEqual({ path: 'typebotSlug', message: 'Required' });
    expect((await t.request('PUT', `/queueIntegration/${hook.id}`, { token, body: { name: 'H' } })).body.issues[0]).toEqual({ path: 'name', message: 'Too Short!' });
    expect((await t.request('GET', `/queueIntegration/${hook.id}`, { token })).body).toMatchObject({ type: 'webhook', name: 'Hook', urlN8N: 'https://x.test' });
  });

  it('pages 20 at a time, is an admin screen of plans with integrations, and keeps to the company', async () => {
    const { adminSession, userSession } = await seedTenant(t, { useIntegrations: 1 });
    const token = adminSession.token;
    for (let i = 0; i < 21; i++) await t.request('POST', '/queueIntegration', { token, body: { type: 'webhook', name: `Hook ${String(i).padStart(2, '0')}`, urlN8N: 'https://x.test' } });
    const first = await t.request('GET', '/queueIntegration/?pageNumber=1', { token });
    expect([first.body.queueIntegrations.length, first.body.hasMore]).toEqual([20, true]);
    expect((await t.request('GET', '/queueIntegration/?pageNumber=2', { token })).body).toMatchObject({ hasMore: false, queueIntegrations: [{ name: 'Hook 20' }] });
    const id = first.body.queueIntegrations[0].id as number;
    const calls: [string, string, unknown?][] = [
      ['GET', '/queueIntegration/'],
      ['GET', `/queueIntegration/${id}`],
      ['POST', '/queueIntegration', { type: 'webhook', name: 'Mine', urlN8N: 'https://x.test' }],
      ['PUT', `/queueIntegration/${id}`, { name: 'Mine' }],
      ['DELETE', `/queueIntegration/${id}`],
    ];
    for (const [method, url, body] of calls) {
      const res = await t.request(method, url, { token: userSession.token, body });
      expect([method, url, res.status, res.body.error]).toEqual([method, url, 403, 'ERR_NO_PERMISSION']);
    }
    const without = await seedTenant(t, { useIntegrations: 0 });
    for (const [method, url, body] of calls) {
      const res = await t.request(method, url, { token: without.adminSession.token, body });
      expect([method, url, res.status, res.body.message]).toEqual([method, url, 403, "The company's plan does not include integrations."]);
    }
    // Another company's integration is not found, is not listed, and cannot be linked.
    const other = await seedTenant(t, { useIntegrations: 1 });
    for (const [method, url, body] of calls.slice(1).filter(([m]) => m !== 'POST')) {
      const res = await t.request(method, url, { token: other.adminSession.token, body });
      expect([method, res.status, res.body.error]).toEqual([method, 404, 'ERR_NOT_FOUND']);
    }
    expect((await t.request('GET', '/queueIntegration/', { token: other.adminSession.token })).body).toEqual({ queueIntegrations: [], hasMore: false });
    const otherQueue = await seedQueue(t, other.company.id);
    expect((await t.request('PUT', `/queue/${otherQueue.id}`, { token: other.adminSession.token, body: { integrationId: id } })).body.issues[0].path).toBe('integrationId');
    expect((await t.request('GET', `/queueIntegration/${id}`, { token })).status).toBe(200);
  });
});
