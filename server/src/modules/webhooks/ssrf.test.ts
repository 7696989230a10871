// The SSRF guard of company webhooks (webhooks/target.ts) through the real app: refused URLs at
// registration (scheme, loopback, private, link-local, CGNAT, multicast, metadata, local names, a
// name resolving to a private address), refused again at delivery after resolution (a name that
// now resolves to 127.0.0.1: failed at once, nothing posted), and allowed with the setting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';
import { startReceiver } from '../../../test/webhook-receiver.ts';
import { isForbiddenAddress } from '../../webhooks/target.ts';
import { createWebhookWorker } from '../../webhooks/worker.ts';

describe('forbidden addresses', () => {
  it('knows loopback, private, link-local, CGNAT, multicast, reserved and mapped forms', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.10', '169.254.169.254', '100.64.0.1', '100.127.255.254', '224.0.0.251', '255.255.255.255', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00:ec2::254', 'fc00::5', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', 'not-an-ip']) {
      expect(isForbiddenAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isForbiddenAddress(a), a).toBe(false);
  });
});

describe.each(DIALECTS)('webhook targets (%s)', (dialect) => {
  let t: TestApp;
  let open: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  // The injected resolver: what each name resolves to right now.
  const dns = new Map<string, string[]>();
  beforeAll(async () => {
    const webhooks = { concurrency: 10, timeoutMs: 5_000, attempts: 4, backoffMs: 10, allowPrivate: false, retentionDays: 7, keepPerWebhook: 1_000 };
    t = await createTestApp(dialect, { webhooks });
    await t.deps.webhooks.stop();
    t.deps.webhooks = createWebhookWorker({ ...webhooks, pollMs: 50, resolve: async (host) => dns.get(host) ?? [] });
    await t.deps.webhooks.start(t.deps);
    // The test harness's default: WEBHOOKS_ALLOW_PRIVATE=1.
    open = await createTestApp(dialect);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
    await open?.close();
  });

  it('refuses non-http schemes and private targets at registration with ERR_WEBHOOK_URL_FORBIDDEN, storing nothing', async () => {
    const tn = await seedTenant(t);
    const token = tn.adminSession.token;
    dns.set('rebind.example.test', ['93.184.216.34', '192.168.1.10']);
    dns.set('public.example.test', ['93.184.216.34']);
    const refused = [
      'ftp://public.example.test/hook',
      'file:///etc/passwd',
      'gopher://public.example.test/',
      receiver.url,
      'http://localhost:8080/hook',
      'http://api.localhost/hook',
      'http://[::1]:8080/hook',
      'http://10.0.0.5/hook',
      'http://172.20.1.1/hook',
      'http://192.168.0.1/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://100.64.1.1/hook',
      'http://224.0.0.1/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://2130706433/hook',
      'http://0x7f.1/hook',
      'http://[fd00:ec2::254]/',
      'http://user:pass@public.example.test/hook',
      'https://rebind.example.test/hook',
    ];
    for (const url of refused) {
      const res = await t.request('POST', '/webhooks', { token, body: { name: 'CRM', url, events: ['contact.created'] } });
      // A non-http scheme or credentials may already fail the schema (ERR_VALIDATION): refused either way, never stored.
      expect([res.status, url]).toEqual([400, url]);
      expect(['ERR_WEBHOOK_URL_FORBIDDEN', 'ERR_VALIDATION'], `${url}: ${JSON.stringify(res.body)}`).toContain(res.body.error);
      if (url.startsWith('http') && !url.includes('@')) expect(res.body.error, url).toBe('ERR_WEBHOOK_URL_FORBIDDEN');
    }
    expect((await t.request('GET', '/webhooks', { token })).body).toEqual([]);
    // A public name is fine; changing it to a private address is refused like a new one.
    const ok = await t.request('POST', '/webhooks', { token, body: { name: 'CRM', url: 'https://public.example.test/hook', events: ['contact.created'] } });
    expect(ok.status).toBe(201);
    const moved = await t.request('PUT', `/webhooks/${ok.body.id}`, { token, body: { url: 'http://10.1.1.1/hook' } });
    expect(moved).toMatchObject({ status: 400, body: { error: 'ERR_WEBHOOK_URL_FORBIDDEN', issues: [{ path: 'url' }] } });
    expect((await t.request('GET', `/webhooks/${ok.body.id}`, { token })).body.url).toBe('https://public.example.test/hook');
  });

  it('refuses at delivery a name that now resolves to 127.0.0.1: failed at once, nothing posted', async () => {
    const tn = await seedTenant(t);
    const token = tn.adminSession.token;
    const port = new URL(receiver.url).port;
    dns.set('crm.example.test', ['93.184.216.34']);
    const hook = await t.request('POST', '/webhooks', { token, body: { name: 'CRM', url: `http://crm.example.test:${port}/hook`, events: ['contact.created'] } });
    expect(hook.status).toBe(201);
    // DNS rebinding: the name points at the server's own loopback afterwards.
    dns.set('crm.example.test', ['127.0.0.1']);
    const before = receiver.received.length;
    await t.request('POST', '/contacts', { token, body: { name: 'Ana', number: '5511988886001' } });
    await t.deps.webhooks.idle();
    expect(receiver.received.length).toBe(before);
    const [delivery] = (await t.request('GET', `/webhooks/${hook.body.id}/deliveries`, { token })).body.deliveries;
    expect(delivery).toMatchObject({ event: 'contact.created', state: 'failed', attempts: 1, responseStatus: null });
    expect(delivery.error).toMatch(/^refused: crm\.example\.test resolves to 127\.0\.0\.1/);
  });

  it('allows loopback and private receivers with WEBHOOKS_ALLOW_PRIVATE=1, and still refuses other schemes', async () => {
    const tn = await seedTenant(open);
    const token = tn.adminSession.token;
    const hook = await open.request('POST', '/webhooks', { token, body: { name: 'Local', url: receiver.url, events: ['contact.created'] } });
    expect(hook.status).toBe(201);
    await open.request('POST', '/contacts', { token, body: { name: 'Bia', number: '5511988886002' } });
    await open.deps.webhooks.idle();
    expect(receiver.received.filter((r) => r.json.companyId === tn.company.id).map((r) => r.event)).toEqual(['contact.created']);
    const ftp = await open.request('POST', '/webhooks', { token, body: { name: 'Ftp', url: 'ftp://127.0.0.1/hook', events: ['contact.created'] } });
    expect(ftp.status).toBe(400);
  });
});
