// Pull cost under message traffic: one company with 200 open tickets of 50 messages each (the
// synced window of every ticket full, as in bench/outbox at the end of its burst), an admin's view.
// After each new message in one ticket, the incremental pull of the first user after it (the
// listings are rebuilt) and of a second user (shared listings) are timed in-process, around the
// pull itself. BENCH_PROFILE=<file.cpuprofile> writes a CPU profile of the incremental pulls.
// BENCH_DIALECT=postgres (with TEST_POSTGRES_URL) runs it on PostgreSQL. Prints one JSON object.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus, loadavg } from 'node:os';
import { sql } from 'kysely';
import type { Actor } from '../server/src/context.ts';
import type { Dialect } from '../server/src/db/database.ts';
import { tenant } from '../server/src/db/tenant.ts';
import { pull } from '../server/src/sync/pull.ts';
import { createSyncStore } from '../server/src/sync/store.ts';
import { createTestApp } from '../server/test/harness.ts';
import { seedCompany, seedContact, seedPlan, seedTicket, seedUser } from '../server/test/seed.ts';

const TICKETS = Number(process.env.BENCH_TICKETS ?? 200);
const PER_TICKET = Number(process.env.BENCH_MESSAGES ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
// Tickets that get a new message (and their last message) between two pulls (bench/outbox's probe sees about 25).
const CHANGED = Number(process.env.BENCH_CHANGED ?? 1);
const dialect = (process.env.BENCH_DIALECT ?? 'sqlite') as Dialect;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(3)) : null;
};
const stats = (xs: number[]) => ({ n: xs.length, p50: percentile(xs, 50), p95: percentile(xs, 95), max: percentile(xs, 100) });

const app = await createTestApp(dialect);
try {
  const plan = await seedPlan(app);
  const company = await seedCompany(app, { planId: plan.id });
  const admin = await seedUser(app, company.id, { profile: 'admin' });
  const second = await seedUser(app, company.id, { profile: 'admin' });
  const t = tenant(app.db, company.id);
  const connection = await t.insertInto('whatsapps', { name: 'Bench', provider: 'simulator', token: 'bench' }).returning('id').executeTakeFirstOrThrow();
  const tickets: number[] = [];
  for (let i = 0; i < TICKETS; i++) {
    const contact = await seedContact(app, company.id, { name: `Customer ${i}`, number: `55119${String(i).padStart(8, '0')}` });
    const ticket = await seedTicket(app, company.id, { contactId: contact.id, status: 'open' });
    await t.updateTable('tickets').set({ whatsappId: connection.id, version: sql`version + 1` }).where('id', '=', ticket.id).execute();
    tickets.push(ticket.id);
    const rows = Array.from({ length: PER_TICKET }, (_, k) => ({
      wid: `bench-${ticket.id}-${k}`, ticketId: ticket.id, contactId: contact.id, whatsappId: connection.id, body: `Message ${k} of ticket ${i}`, fromMe: k % 2, ack: 1, read: 1,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, k)).toISOString(),
    }));
    await t.insertInto('messages', rows).execute();
  }

  const store = createSyncStore(app.db, app.deps.dialect);
  const actorOf = (u: { id: number }): Actor => ({ userId: u.id, companyId: company.id, profile: 'admin', super: false, sessionId: 'bench' });
  const req = (clientGroupID: string, cookie: unknown) => ({ pullVersion: 1 as const, clientGroupID, cookie, profileID: 'bench', schemaVersion: '' });
  let cookieA = (await pull(app.deps, store, actorOf(admin), req('bench-a', null))).response.cookie;
  let cookieB = (await pull(app.deps, store, actorOf(second), req('bench-b', null))).response.cookie;

  const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const first: number[] = [];
  const shared: number[] = [];
  const insert: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (let k = 0; k < CHANGED; k++) {
      const ticketId = tickets[(r * CHANGED + k) % tickets.length]!;
      const contactId = (await t.selectFrom('tickets').select('contactId').where('id', '=', ticketId).executeTakeFirstOrThrow()).contactId;
      await t.insertInto('messages', { wid: `bench-new-${r}-${k}`, ticketId, contactId, whatsappId: connection.id, body: `New ${r}`, fromMe: 1, ack: 1, read: 1 }).execute();
      // As a reply does: the ticket shows its last message.
      await t.updateTable('tickets').set({ lastMessage: `New ${r}`, updatedAt: new Date().toISOString(), version: sql`version + 1` }).where('id', '=', ticketId).execute();
    }
    const t1 = performance.now();
    const a = await pull(app.deps, store, actorOf(admin), req('bench-a', cookieA));
    const t2 = performance.now();
    const b = await pull(app.deps, store, actorOf(second), req('bench-b', cookieB));
    const t3 = performance.now();
    if (a.stats.rows < 1 || b.stats.rows < 1) throw new Error(`round ${r}: the new message was not pulled (${a.stats.rows}, ${b.stats.rows})`);
    cookieA = a.response.cookie;
    cookieB = b.response.cookie;
    insert.push(t1 - t0);
    first.push(t2 - t1);
    shared.push(t3 - t2);
  }
  const cpu = process.cpuUsage(cpu0);
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
  }
  console.log(JSON.stringify({
    bench: 'pull-messages',
    dialect,
    machine: { cpus: cpus().length, loadavg: loadavg().map((l) => Number(l.toFixed(2))) },
    world: { tickets: TICKETS, messagesPerTicket: PER_TICKET, syncedMessages: TICKETS * PER_TICKET, ticketsChangedPerRound: CHANGED },
    rounds: ROUNDS,
    insertMs: stats(insert),
    firstPullAfterMessageMs: stats(first),
    secondUserPullMs: stats(shared),
    cpuMsPerRound: Number(((cpu.user + cpu.system) / 1000 / ROUNDS).toFixed(3)),
  }));
} finally {
  await app.close();
}
