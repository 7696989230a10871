// Two session managers on one database play two server instances: a connection runs on one only,
// and the survivor takes it over once the owner's lease lapses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { seedTenant } from '../../test/seed.ts';
import { tenant } from '../db/tenant.ts';
import { write } from '../db/write.ts';
import { createLeases } from './lease.ts';
import { createSessionManager, type SessionManager } from './session-manager.ts';
import { createSimulatorNetwork } from './simulator/network.ts';

describe.each(DIALECTS)('connection leases on %s', (dialect) => {
  let t: TestApp;
  const managers: SessionManager[] = [];
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    for (const m of managers) await m.stopAll();
    await t.close();
  });

  const instance = () => {
    const simulator = createSimulatorNetwork();
    const m = createSessionManager({ db: t.db, log: t.log, write: (fn) => write(t.deps, fn), simulator, factories: { simulator: simulator.createChannel }, leases: createLeases(t.db, 60_000) });
    managers.push(m);
    return m;
  };

  it('runs a connection on one instance and lets another take over an expired lease', async () => {
    const { company } = await seedTenant(t);
    const conn = await tenant(t.db, company.id).insertInto('whatsapps', { name: 'Leased', provider: 'simulator' }).returning('id').executeTakeFirstOrThrow();
    const a = instance();
    const b = instance();
    await a.start(company.id, conn.id);
    expect(a.getChannel(conn.id)?.status()).toBe('qrcode');
    await expect(b.start(company.id, conn.id)).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    const row = await t.db.selectFrom('whatsapps').select(['leaseOwner', 'version']).where('id', '=', conn.id).executeTakeFirstOrThrow();
    expect(row.leaseOwner).toBeTruthy();

    // B refuses the commands that would rewrite A's pairing, and touches nothing.
    await a.flush(conn.id);
    const before = await t.db.selectFrom('whatsapps').select(['status', 'qrcode', 'version']).where('id', '=', conn.id).executeTakeFirstOrThrow();
    for (const command of [() => b.renewQr(company.id, conn.id), () => b.logout(company.id, conn.id), () => b.requestPairingCode(company.id, conn.id, '5511988887777')]) {
      await expect(command()).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED', message: expect.stringContaining('another server instance') });
    }
    expect(await t.db.selectFrom('whatsapps').select(['status', 'qrcode', 'version']).where('id', '=', conn.id).executeTakeFirstOrThrow()).toEqual(before);
    expect(a.getChannel(conn.id)?.status()).toBe('qrcode');

    // A dies without releasing: once its lease lapses, B's heartbeat takes the connection over.
    await t.db.updateTable('whatsapps').set({ leaseExpiresAt: new Date(Date.now() - 1000).toISOString() }).where('id', '=', conn.id).execute();
    await b.heartbeat();
    expect(b.getChannel(conn.id)?.status()).toBe('qrcode');
    // A learns on its own heartbeat that the lease is gone and stops its session.
    await a.heartbeat();
    expect(a.getChannel(conn.id)).toBeUndefined();
    await b.stopAll();
    expect((await t.db.selectFrom('whatsapps').select('leaseOwner').where('id', '=', conn.id).executeTakeFirstOrThrow()).leaseOwner).toBeNull();
  });
});
