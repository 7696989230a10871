// Prompts over HTTP against the real app (spec/03 §7 "Prompts"; issue 16): the contract of every
// call, the rules of spec/03 §5 as catalogue errors, the plan flag and the admin gate, another
// company's ids answered as not found, and the API key: sealed in the database, never in an answer
// nor in the sync pull.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { syncClient } from '../../../test/read-model.ts';
import { seedQueue, seedTenant, seedTicket } from '../../../test/seed.ts';
import { sliceBesideAnotherWrite } from '../../../test/slices.ts';
import { inSlices } from '../../db/slices.ts';
import { tenant } from '../../db/tenant.ts';
import { bumpVersion } from '../../sync/version.ts';
import { releasePromptSlice } from './service.ts';

const PROMPT_TEXT = 'You are the friendly assistant of a bakery. Answer briefly and in the language of the customer.';

describe.each(DIALECTS)('prompts on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  }, 180_000);
  afterAll(async () => t.close());

  const rawKey = async (id: number) => (await t.db.selectFrom('prompts').select('apiKeyEnc').where('id', '=', id).executeTakeFirstOrThrow()).apiKeyEnc;

  it('creates, lists, reads, edits and deletes a prompt; the key is sealed and only ever shown masked', async () => {
    const { company, adminSession } = await seedTenant(t, { useOpenAi: 1 });
    const token = adminSession.token;
    const queue = await seedQueue(t, company.id, { name: 'Sales' });
    const key = 'sk-test-0123456789abcdefghijklmnop';
    const pokes = vi.spyOn(t.deps.realtime, 'pokeCompany');
    const created = await t.request('POST', '/prompt', { token, body: { name: 'Bakery bot', prompt: PROMPT_TEXT, apiKey: key, queueId: queue.id } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Bakery bot',
      prompt: PROMPT_TEXT,
      model: 'gpt-4o-mini',
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      apiKey: '••••mnop',
      hasApiKey: true,
      queueId: queue.id,
      queue: { id: queue.id, name: 'Sales' },
    });
    expect(pokes).toHaveBeenCalledWith(company.id);
    pokes.mockRestore();
    const id = created.body.id as number;

    // Sealed at rest: not the key, and it opens to the key with the data key.
    const sealed = await rawKey(id);
    expect(sealed).not.toContain(key);
    expect(t.deps.secrets.open(sealed)).toBe(key);

    const list = await t.request('GET', '/prompt', { token });
    expect(list.body).toEqual({ prompts: [created.body] });
    const one = await t.request('GET', `/prompt/${id}`, { token });
    expect(one.body).toEqual(created.body);

    // A PUT without the key, or with the mask the form showed, keeps the stored key.
    const kept = await t.request('PUT', `/prompt/${id}`, { token, body: { name: 'Bakery helper', temperature: 0.3, maxTokens: '250', model: 'my-own-model' } });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ name: 'Bakery helper', temperature: 0.3, maxTokens: 250, model: 'my-own-model', apiKey: '••••mnop' });
    const masked = await t.request('PUT', `/prompt/${id}`, { token, body: { apiKey: '••••mnop', maxMessages: 20 } });
    expect(masked.body).toMatchObject({ apiKey: '••••mnop', maxMessages: 20 });
    expect(t.deps.secrets.open(await rawKey(id))).toBe(key);

    const newKey = 'sk-other-key-zyxwvutsrqpo9876';
    const replaced = await t.request('PUT', `/prompt/${id}`, { token, body: { apiKey: newKey } });
    expect(replaced.body.apiKey).toBe('••••9876');
    expect(t.deps.secrets.open(await rawKey(id))).toBe(newKey);

    // No answer and no synced value carries either key.
    const sync = syncClient(t, token);
    const pulled = await sync.pull();
    const everything = JSON.stringify([created.body, list.body, one.body, kept.body, masked.body, replaced.body, [...pulled.puts.entries()]]);
    for (const secret of [key, newKey, sealed]) expect(everything).not.toContain(secret);

    // A queue and a connection that use the prompt lose it when it goes, versions bumped.
    await t.request('PUT', `/queue/${queue.id}`, { token, body: { promptId: id } });
    const conn = await t.request('POST', '/whatsapp', { token, body: { name: 'Main line', provider: 'simulator', promptId: id } });
    expect(conn.body.promptId).toBe(id);
    const before = await t.db.selectFrom('queues').select('version').where('id', '=', queue.id).executeTakeFirstOrThrow();
    expect((await t.request('DELETE', `/prompt/${id}`, { token })).body).toEqual({ message: 'Prompt deleted' });
    expect((await t.request('GET', `/prompt/${id}`, { token })).status).toBe(404);
    const after = await t.db.selectFrom('queues').select(['promptId', 'version']).where('id', '=', queue.id).executeTakeFirstOrThrow();
    expect(after.promptId).toBeNull();
    expect(after.version).toBeGreaterThan(before.version);
    expect((await t.db.selectFrom('whatsapps').select('promptId').where('id', '=', conn.body.id).executeTakeFirstOrThrow()).promptId).toBeNull();
    expect((await t.request('GET', '/prompt', { token })).body).toEqual({ prompts: [] });
  });

  it('lets go of a deleted prompt\'s tickets a slice at a time, other writes in between; another company\'s id touches nothing', async () => {
    const { company, adminSession } = await seedTenant(t, { useOpenAi: 1 });
    const other = await seedTenant(t, { useOpenAi: 1 });
    const queue = await seedQueue(t, company.id);
    const created = await t.request('POST', '/prompt', { token: adminSession.token, body: { name: 'Sliced', prompt: PROMPT_TEXT, apiKey: 'sk-test-0123456789abcdefghijklmnop', queueId: queue.id } });
    const id = created.body.id as number;
    const db = tenant(t.db, company.id);
    const tickets = await Promise.all([0, 1, 2, 3, 4].map(() => seedTicket(t, company.id)));
    await db.updateTable('tickets').set({ promptId: id, ...bumpVersion() }).where('tickets.id', 'in', tickets.map((tk) => tk.id)).execute();
    const holding = async () => (await db.selectFrom('tickets').select('tickets.id').where('tickets.promptId', '=', id).execute()).length;
    const versions = async () => (await db.selectFrom('tickets').select('tickets.version').where('tickets.id', 'in', tickets.map((tk) => tk.id)).orderBy('tickets.id').execute()).map((r) => r.version);
    const before = await versions();

    await inSlices(t.deps, (tx, limit) => releasePromptSlice(tx, other.company.id, id, limit), 2);
    expect(await holding()).toBe(5);

    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => releasePromptSlice(tx, company.id, id, limit), async () => (await holding()) > 0);
    expect(await holding()).toBe(0);
    expect((await versions()).every((v, i) => v > before[i]!)).toBe(true);
    expect((await t.request('DELETE', `/prompt/${id}`, { token: adminSession.token })).status).toBe(200);
  });

  it('refuses what spec/03 §5 forbids with catalogue errors, never a 500', async () => {
    const { company, adminSession } = await seedTenant(t, { useOpenAi: 1 });
    const token = adminSession.token;
    const queue = await seedQueue(t, company.id);
    const other = await seedTenant(t, { useOpenAi: 1 });
    const theirQueue = await seedQueue(t, other.company.id);
    const good = { name: 'Support', prompt: PROMPT_TEXT, apiKey: 'sk-abcdefgh12345678', queueId: queue.id };
    const cases: [unknown, string, string][] = [
      [{ ...good, name: 'Abcd' }, 'name', 'Too Short!'],
      [{ ...good, name: 'x'.repeat(101) }, 'name', 'Too Long!'],
      [{ ...good, name: undefined }, 'name', 'Required'],
      [{ ...good, name: 12345 }, 'name', 'Invalid input: expected string'],
      [{ ...good, prompt: 'Too short a prompt' }, 'prompt', 'Too Short!'],
      [{ ...good, queueId: undefined }, 'queueId', 'Set a sector'],
      [{ ...good, queueId: '' }, 'queueId', 'Set a sector'],
      [{ ...good, queueId: theirQueue.id }, 'queueId', `No queue ${theirQueue.id} in this company`],
      [{ ...good, apiKey: '' }, 'apiKey', 'Required'],
      [{ ...good, apiKey: undefined }, 'apiKey', 'Required'],
      [{ ...good, temperature: 0.15 }, 'temperature', 'Use steps of 0.1'],
      [{ ...good, temperature: 1.5 }, 'temperature', 'Too Long!'],
      [{ ...good, temperature: -0.1 }, 'temperature', 'Too Short!'],
      [{ ...good, temperature: 'hot' }, 'temperature', 'Invalid input: expected number'],
      [{ ...good, maxTokens: 0 }, 'maxTokens', 'Too Short!'],
      [{ ...good, maxTokens: 16_001 }, 'maxTokens', 'Too Long!'],
      [{ ...good, maxTokens: 1.5 }, 'maxTokens', 'Must be a whole number'],
      [{ ...good, maxMessages: 101 }, 'maxMessages', 'Too Long!'],
      [{ ...good, model: '' }, 'model', 'Required'],
    ];
    for (const [body, path, message] of cases) {
      const res = await t.request('POST', '/prompt', { token, body });
      expect([path, res.status, res.body.error, res.body.issues?.[0]]).toEqual([path, 400, 'ERR_VALIDATION', { path, message }]);
    }
    expect((await t.request('POST', '/prompt', { token, body: 'not json' })).body.error).toBe('ERR_INVALID_JSON');
    expect((await t.request('POST', '/prompt', { token, body: '[1,2]' })).status).toBe(400);
    expect((await t.request('GET', '/prompt', { token })).body.prompts).toEqual([]);

    const made = (await t.request('POST', '/prompt', { token, body: { ...good, temperature: '0.7', maxMessages: '5' } })).body;
    expect(made).toMatchObject({ temperature: 0.7, maxMessages: 5 });
    const noQueue = await t.request('PUT', `/prompt/${made.id}`, { token, body: { queueId: null } });
    expect(noQueue.body.issues[0]).toEqual({ path: 'queueId', message: 'Set a sector' });
    expect((await t.request('PUT', `/prompt/${made.id}`, { token, body: { temperature: 2 } })).body.error).toBe('ERR_VALIDATION');
    expect((await t.request('PUT', `/prompt/${made.id}`, { token, body: '{"name":' })).body.error).toBe('ERR_INVALID_JSON');
    expect((await t.request('GET', `/prompt/${made.id}`, { token })).body).toMatchObject({ temperature: 0.7, queueId: queue.id });

    // Deleting its queue leaves the prompt without one (version bumped); saving it asks for a queue again.
    const { version } = await t.db.selectFrom('prompts').select('version').where('id', '=', made.id).executeTakeFirstOrThrow();
    expect((await t.request('DELETE', `/queue/${queue.id}`, { token })).status).toBe(200);
    const orphan = await t.request('GET', `/prompt/${made.id}`, { token });
    expect(orphan.body).toMatchObject({ queueId: null, queue: null });
    expect((await t.db.selectFrom('prompts').select('version').where('id', '=', made.id).executeTakeFirstOrThrow()).version).toBeGreaterThan(version);
    const other2 = await seedQueue(t, company.id);
    expect((await t.request('PUT', `/prompt/${made.id}`, { token, body: { queueId: other2.id } })).body).toMatchObject({ queueId: other2.id });
  });

  it('is an admin screen of plans with AI: attendants and plans without openAi are refused', async () => {
    const withAi = await seedTenant(t, { useOpenAi: 1 });
    const queue = await seedQueue(t, withAi.company.id);
    const made = (await t.request('POST', '/prompt', { token: withAi.adminSession.token, body: { name: 'Support', prompt: PROMPT_TEXT, apiKey: 'sk-abcdefgh12345678', queueId: queue.id } })).body;
    const calls: [string, string, unknown?][] = [
      ['GET', '/prompt'],
      ['GET', `/prompt/${made.id}`],
      ['POST', '/prompt', { name: 'Mine mine', prompt: PROMPT_TEXT, apiKey: 'sk-1', queueId: queue.id }],
      ['PUT', `/prompt/${made.id}`, { name: 'Renamed' }],
      ['DELETE', `/prompt/${made.id}`],
    ];
    for (const [method, url, body] of calls) {
      const res = await t.request(method, url, { token: withAi.userSession.token, body });
      expect([method, url, res.status, res.body.error]).toEqual([method, url, 403, 'ERR_NO_PERMISSION']);
    }
    const without = await seedTenant(t, { useOpenAi: 0 });
    const ownQueue = await seedQueue(t, without.company.id);
    for (const [method, url, body] of [...calls.slice(0, 2), ['POST', '/prompt', { name: 'Mine mine', prompt: PROMPT_TEXT, apiKey: 'sk-1', queueId: ownQueue.id }], ...calls.slice(3)] as [string, string, unknown?][]) {
      const res = await t.request(method, url, { token: without.adminSession.token, body });
      expect([method, url, res.status, res.body.error, res.body.message]).toEqual([method, url, 403, 'ERR_NO_PERMISSION', "The company's plan does not include AI prompts."]);
    }
    expect(await t.db.selectFrom('prompts').select('id').where('companyId', '=', without.company.id).execute()).toEqual([]);
    expect((await t.request('GET', '/prompt/abc', { token: withAi.adminSession.token })).status).toBe(404);
  });

  it("answers another company's prompts as not found and never lists them", async () => {
    const mine = await seedTenant(t, { useOpenAi: 1 });
    const theirs = await seedTenant(t, { useOpenAi: 1 });
    const theirQueue = await seedQueue(t, theirs.company.id);
    const theirPrompt = (await t.request('POST', '/prompt', { token: theirs.adminSession.token, body: { name: 'Their bot', prompt: PROMPT_TEXT, apiKey: 'sk-theirs-1234567890', queueId: theirQueue.id } })).body;
    const token = mine.adminSession.token;
    for (const [method, url, body] of [['GET', `/prompt/${theirPrompt.id}`], ['PUT', `/prompt/${theirPrompt.id}`, { name: 'Stolen bot' }], ['DELETE', `/prompt/${theirPrompt.id}`]] as [string, string, unknown?][]) {
      const res = await t.request(method, url, { token, body });
      expect([method, res.status, res.body.error]).toEqual([method, 404, 'ERR_NOT_FOUND']);
    }
    expect((await t.request('GET', '/prompt', { token })).body).toEqual({ prompts: [] });
    // Nor can a queue or a connection of mine name their prompt.
    const myQueue = await seedQueue(t, mine.company.id);
    expect((await t.request('PUT', `/queue/${myQueue.id}`, { token, body: { promptId: theirPrompt.id } })).body.issues[0].path).toBe('promptId');
    expect((await t.request('GET', `/prompt/${theirPrompt.id}`, { token: theirs.adminSession.token })).body).toMatchObject({ name: 'Their bot', apiKey: '••••7890' });
  });
});
