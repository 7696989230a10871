// The hub's pokes: coalesced per user, only to the named users, across instances over LISTEN/NOTIFY.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../log.ts';
import { createPgBus } from './bus.ts';
import { createRealtime, type ServerEvent, type SyncSocket } from './hub.ts';

function fakeSocket(companyId: number, userId: number, sessionId = `s-${userId}`) {
  const got: ServerEvent[] = [];
  const closed: number[] = [];
  const socket: SyncSocket = { companyId, userId, sessionId, send: (m) => void got.push(m), close: (code) => void closed.push(code) };
  return { socket, got, closed };
}
const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));

describe('realtime hub', () => {
  it('coalesces pokes per user and pokes only the named users of the company', async () => {
    const rt = createRealtime({ log: createMemoryLogger() });
    const a = fakeSocket(1, 10);
    const b = fakeSocket(1, 11);
    const other = fakeSocket(2, 20);
    for (const s of [a, b, other]) rt.register(s.socket);
    rt.pokeCompany(1);
    rt.pokeCompany(1);
    rt.pokeUsers(1, [10]);
    await tick();
    expect(a.got).toEqual([{ type: 'poke' }]);
    expect(b.got).toEqual([{ type: 'poke' }]);
    expect(other.got).toEqual([]);
    rt.pokeUsers(1, [11]);
    await tick();
    expect(a.got).toHaveLength(1);
    expect(b.got).toHaveLength(2);
    await rt.close();
  });

  it('ends the sockets of a revoked session with the auth event', async () => {
    const rt = createRealtime({ log: createMemoryLogger() });
    const old = fakeSocket(1, 10, 'old');
    const fresh = fakeSocket(1, 10, 'new');
    rt.register(old.socket);
    rt.register(fresh.socket);
    rt.sessionRevoked(['old'], 'replaced');
    expect(old.got).toEqual([{ type: 'auth', reason: 'replaced' }]);
    expect(old.closed).toEqual([4003]);
    expect(fresh.got).toEqual([]);
    await rt.close();
  });
});

const PG = process.env.TEST_POSTGRES_URL;
describe.runIf(PG)('realtime across instances (postgres LISTEN/NOTIFY)', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const url = () => {
    const u = new URL(PG!);
    u.searchParams.set('options', `-c search_path=${schema}`);
    return u.toString();
  };
  afterAll(async () => {
    const c = new pg.Client({ connectionString: PG });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  });

  it('a poke or a revocation on one instance reaches the sockets of another', async () => {
    const c = new pg.Client({ connectionString: PG });
    await c.connect();
    await c.query(`CREATE SCHEMA ${schema}`);
    await c.end();
    const log = createMemoryLogger();
    const one = createRealtime({ log, bus: await createPgBus(url(), log) });
    const two = createRealtime({ log, bus: await createPgBus(url(), log) });
    const there = fakeSocket(7, 70, 'sess');
    two.register(there.socket);
    one.pokeUsers(7, [70]);
    for (let i = 0; i < 100 && there.got.length === 0; i++) await tick(20);
    expect(there.got).toEqual([{ type: 'poke' }]);
    one.sessionRevoked('sess', 'replaced');
    for (let i = 0; i < 100 && there.closed.length === 0; i++) await tick(20);
    expect(there.got[1]).toEqual({ type: 'auth', reason: 'replaced' });
    await one.close();
    await two.close();
  });

  it('sends many messages published at once, one query at a time on its connection', async () => {
    const log = createMemoryLogger();
    const one = createRealtime({ log, bus: await createPgBus(url(), log) });
    const two = createRealtime({ log, bus: await createPgBus(url(), log) });
    const sockets = Array.from({ length: 30 }, (_, i) => fakeSocket(100 + i, 1000 + i));
    for (const s of sockets) two.register(s.socket);
    const warnings: string[] = [];
    const onWarning = (w: Error) => void warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      // pg warns (and will refuse in pg 9) when a query starts while another runs on the client.
      for (const s of sockets) one.pokeCompany(s.socket.companyId);
      for (let i = 0; i < 100 && sockets.some((s) => s.got.length === 0); i++) await tick(20);
    } finally {
      process.off('warning', onWarning);
    }
    expect(sockets.map((s) => s.got)).toEqual(sockets.map(() => [{ type: 'poke' }]));
    expect(warnings.filter((w) => /already executing/.test(w))).toEqual([]);
    await one.close();
    await two.close();
  });
});
