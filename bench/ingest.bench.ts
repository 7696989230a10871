// Inbound ingestion benchmark: 20,000 messages from 2,000 contacts over 4 simulator connections,
// end to end through the simulator network (channel event → session manager → pipeline: message
// stored, ticket found or created, counters, tracking, sync poke). Reports messages/s and latency
// percentiles, then proves zero duplicates (counts, and a redelivery of 2,000 messages changes nothing).
// BENCH_DIALECT=postgres (with TEST_POSTGRES_URL) runs it on PostgreSQL. Prints one JSON object.
// The run is one process on one core (SQLite runs on the event loop), so wall figures depend on what
// else the machine runs: the load average before and after, and this process's CPU time per
// message, are printed beside them.
import { availableParallelism, loadavg } from 'node:os';
import type { Dialect } from '../server/src/db/database.ts';
import { tenant } from '../server/src/db/tenant.ts';
import { createTestApp } from '../server/test/harness.ts';
import { seedCompany, seedPlan } from '../server/test/seed.ts';
import { runPool } from './lib.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 2_000);
const CONNECTIONS = 4;
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 256);
const dialect = (process.env.BENCH_DIALECT ?? 'sqlite') as Dialect;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(3)) : null;
};

async function main() {
  const t = await createTestApp(dialect, { simulator: true });
  const plan = await seedPlan(t);
  const company = await seedCompany(t, { planId: plan.id });
  const db = tenant(t.db, company.id);
  const network = t.deps.sessions.simulator;
  const connections: number[] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const row = await db.insertInto('whatsapps', { name: `Line ${i}`, provider: 'simulator', token: `bench-${i}-${Date.now()}` }).returning('whatsapps.id').executeTakeFirstOrThrow();
    await t.deps.sessions.start(company.id, row.id);
    await network.scan(row.id, `55119000000${i}`);
    await t.deps.sessions.flush(row.id);
    connections.push(row.id);
  }
  const contact = (i: number) => `55219${String(i).padStart(8, '0')}`;
  // Message i comes from contact i % CONTACTS, to the connection of that contact.
  const deliver = (i: number, id?: string) => {
    const c = i % CONTACTS;
    return network.deliver(connections[c % CONNECTIONS]!, { from: contact(c), name: `Contact ${c}`, body: `Message ${i} about order ${i % 97}`, ...(id ? { id } : {}) });
  };

  const ids: string[] = new Array(MESSAGES);
  const load0 = loadavg()[0]!;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const latencies = await runPool(MESSAGES, IN_FLIGHT, async (i) => (ids[i] = (await deliver(i)).id));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const load1 = loadavg()[0]!;
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;

  const count = async () => {
    const m = await db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const tk = await db.selectFrom('tickets').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { messages: Number(m.n), tickets: Number(tk.n) };
  };
  const stored = await count();
  // Redeliver 2,000 already-stored messages, concurrently: every one must be a no-op.
  const redelivered = Math.min(2_000, MESSAGES);
  await runPool(redelivered, IN_FLIGHT, (i) => deliver(i, ids[i]));
  const after = await count();

  console.log(
    JSON.stringify({
      dialect,
      messages: MESSAGES,
      contacts: CONTACTS,
      connections: CONNECTIONS,
      inFlight: IN_FLIGHT,
      seconds: Number(seconds.toFixed(3)),
      messagesPerSecond: Math.round(MESSAGES / seconds),
      cpuSecondsPerThousand: Number(((cpuSeconds / MESSAGES) * 1000).toFixed(3)),
      messagesPerCpuSecond: Math.round(MESSAGES / cpuSeconds),
      loadAverage1m: { before: Number(load0.toFixed(2)), after: Number(load1.toFixed(2)), cores: availableParallelism() },
      latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), max: percentile(latencies, 100) },
      stored,
      duplicates: stored.messages - MESSAGES + (after.messages - stored.messages),
      ticketsExpected: CONTACTS,
      redelivered,
      afterRedelivery: after,
    }),
  );
  await t.close();
}

await main();
