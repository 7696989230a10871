// Pairing by code (POST /whatsappsession/{id}/pairing-code) with the simulator, and how fast a QR
// change reaches the company's clients (a poke over the realtime hub as the row commits; they pull it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';
import { waitFor } from '../../channels/testing.ts';
import type { ServerEvent, SyncSocket } from '../../realtime/hub.ts';

describe.each(DIALECTS)('pairing code and live QR on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true, simulatorTiming: { qrIntervalMs: 400, qrMaxAttempts: 50, reconnectDelayMs: 150 } });
  });
  afterAll(async () => t.close());

  const newConnection = async (token: string) => {
    const res = await t.request('POST', '/whatsapp', { token, body: { name: 'Code line', provider: 'simulator' } });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };

  it('pairs by code: the code shows, the scan control completes it with the code’s number', async () => {
    const { adminSession, userSession } = await seedTenant(t);
    const other = await seedTenant(t);
    const token = adminSession.token;
    const id = await newConnection(token);

    const asked = await t.request('POST', `/whatsappsession/${id}/pairing-code`, { token, body: { number: '+55 11 98888-7777' } });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ id, status: 'qrcode', pairingCode: expect.stringMatching(/^[1-9A-Z]{4}-[1-9A-Z]{4}$/) });
    const shown = await t.request('GET', `/whatsappsession/${id}`, { token });
    expect(shown.body).toMatchObject({ id, status: 'qrcode', pairingCode: asked.body.pairingCode });

    // Refusals: a malformed number, an attendant without the permission, another company.
    const bad = await t.request('POST', `/whatsappsession/${id}/pairing-code`, { token, body: { number: '12ab' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'ERR_VALIDATION', issues: [expect.objectContaining({ path: 'number' })] });
    expect((await t.request('POST', `/whatsappsession/${id}/pairing-code`, { token: userSession.token, body: { number: '5511988887777' } })).status).toBe(403);
    const foreign = await t.request('POST', `/whatsappsession/${id}/pairing-code`, { token: other.adminSession.token, body: { number: '5511988887777' } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_WAPP_FOUND');
    expect((await t.request('GET', `/whatsappsession/${id}`, { token: other.adminSession.token })).status).toBe(404);

    const scan = await t.request('POST', `/simulator/connections/${id}/scan`, { token });
    expect(scan.body.status).toBe('CONNECTED');
    const after = await t.request('GET', `/whatsappsession/${id}`, { token });
    expect(after.body).toMatchObject({ status: 'CONNECTED', number: '5511988887777', qrcode: '', pairingCode: null });
  });

  it('a QR refresh pokes the company’s clients as its write commits, and no one else', async () => {
    const { company, admin, adminSession } = await seedTenant(t);
    const other = await seedTenant(t);
    const heard: { at: number; event: ServerEvent }[] = [];
    const otherHeard: ServerEvent[] = [];
    const socket = (companyId: number, userId: number, into: (e: ServerEvent) => void): SyncSocket => ({ companyId, userId, sessionId: `s-${userId}`, send: into, close: () => undefined });
    const offs = [
      t.deps.realtime.register(socket(company.id, admin.id, (event) => heard.push({ at: performance.now(), event }))),
      t.deps.realtime.register(socket(other.company.id, other.admin.id, (event) => otherHeard.push(event))),
    ];
    try {
      const token = adminSession.token;
      const id = await newConnection(token);
      const started = await t.request('POST', `/whatsappsession/${id}`, { token });
      const firstQr = started.body.qrcode as string;
      // The simulator refreshes its QR every 400 ms: the next one must be announced promptly.
      const from = performance.now();
      const pokes = () => heard.filter((h) => h.at > from && h.event.type === 'poke');
      const row = () => t.request('GET', `/whatsapp/${id}`, { token }).then((r) => r.body as { qrcode: string });
      const changedAt = await waitFor(async () => ((await row()).qrcode !== firstQr ? performance.now() : undefined), (at) => at !== undefined);
      // The refresh's write commits, then pokes: a poke is heard by the time the row holds the new QR
      // (give or take this polling's 15 ms). How fast, in numbers, is for a benchmark, not a test.
      const poke = await waitFor(async () => pokes()[0], (p) => p !== undefined);
      expect(poke!.at).toBeLessThanOrEqual(changedAt! + 50);
      expect(otherHeard.filter((e) => e.type === 'poke')).toEqual([]);
      await t.request('DELETE', `/whatsappsession/${id}`, { token });
    } finally {
      offs.forEach((off) => off());
    }
  });
});
