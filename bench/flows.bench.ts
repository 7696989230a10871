// Flow runtime benchmark (issue 15): 1,000 simulated customers walk a 12-node flow at once (phrase
// campaign → message → menu → question → condition → content → interval 1 s → message → ticket),
// end to end through the simulator network: each inbound message is stored, steps its flow run in
// one write, and the replies leave through the outbox. Each customer answers as soon as the previous
// reply arrived. Reports inbound events per second, the latency from a customer's message to the
// flow's first reply in the simulator outbox (waits excluded), how late each interval's timer fired
// after its due time (flow_timers.fired_at - due_at), and duplicate replies (must be 0).
// Before them, BENCH_FLOW_WARMUP other customers (default 300, on numbers of their own) walk the same
// flow unmeasured, as a running server has: V8 compiles the hot code after a few hundred calls, and
// SQLite prepares each statement once. A fresh process's first walks ran about 30 % slower
// (1,000 customers: 1,380–1,420 events/s cold, 1,780–2,230 after 300 or 1,000 warm-up walks, CPU
// 4.2 s against 2.4–3.2 s); BENCH_FLOW_WARMUP=0 measures a cold process.
// BENCH_CUSTOMERS (default 1000); BENCH_DIALECT=postgres (with TEST_POSTGRES_URL); BENCH_FLOW_THINK_MS (default 0):
// each customer waits up to this long (uniformly drawn) before each answer, as people type. With no
// wait the customers form a closed loop: 1,000 of them always waiting, so the reply latency is about
// 1,000 / throughput (Little's law) whatever each step costs; a think time shows the latency at a
// load below saturation. Prints one JSON object.
import { availableParallelism, loadavg } from 'node:os';
import type { Dialect } from '../server/src/db/database.ts';
import { tenant } from '../server/src/db/tenant.ts';
import { startFlowTimerJob } from '../server/src/flows-runtime/timers.ts';
import { createTestApp } from '../server/test/harness.ts';
import { seedQueue, seedTenant } from '../server/test/seed.ts';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 1_000);
const WARMUP = Number(process.env.BENCH_FLOW_WARMUP ?? 300);
const CONNECTIONS = 4;
const INTERVAL_SEC = 1;
const THINK_MS = Number(process.env.BENCH_FLOW_THINK_MS ?? 0);
const dialect = (process.env.BENCH_DIALECT ?? 'sqlite') as Dialect;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(3)) : null;
};

const nid = (s: string) => s.padEnd(30, '0');
function twelveNodeFlow(queueId: number) {
  const n = (id: string, type: string, data: Record<string, unknown>, i: number) => ({ id, type, position: { x: i * 260, y: 100 }, data });
  const e = (source: string, target: string, sourceHandle: string | null = null) => ({ source, target, sourceHandle, type: 'buttonedge' });
  const [HI, MENU, ASK, COND, BLOCK, WAIT, DONE, TICKET, SUPPORT, RANDOM, LINE_A] = ['hi', 'menu', 'ask', 'cond', 'block', 'wait', 'done', 'ticket', 'support', 'random', 'linea'].map(nid) as [string, string, string, string, string, string, string, string, string, string, string];
  return {
    nodes: [
      n('1', 'start', { label: 'Inicio do fluxo' }, 0),
      n(HI, 'message', { label: 'Olá {{firstName}}!' }, 1),
      n(MENU, 'menu', { message: 'O que deseja?', arrayOption: [{ number: 1, value: 'Comprar' }, { number: 2, value: 'Suporte' }] }, 2),
      n(ASK, 'question', { typebotIntegration: { message: 'Qual produto?', answerKey: 'produto' } }, 3),
      n(COND, 'condition', { key: 'produto', condition: 'exists', value: '' }, 4),
      n(BLOCK, 'singleBlock', { seq: ['message1', 'message2'], elements: [{ number: 'message1', value: 'Anotado: {{produto}}' }, { number: 'message2', value: 'Um instante…' }] }, 5),
      n(WAIT, 'interval', { sec: INTERVAL_SEC }, 6),
      n(DONE, 'message', { label: 'Pedido de {{produto}} registrado' }, 7),
      n(TICKET, 'ticket', { queue: { id: queueId, name: 'Vendas' } }, 8),
      n(SUPPORT, 'message', { label: 'Suporte' }, 3),
      n(RANDOM, 'randomizer', { percent: 50 }, 4),
      n(LINE_A, 'message', { label: 'Fila A' }, 5),
    ],
    connections: [
      e('1', HI, 'a'), e(HI, MENU), e(MENU, ASK, 'a1'), e(MENU, SUPPORT, 'a2'), e(ASK, COND), e(COND, BLOCK, 'true'), e(COND, TICKET, 'false'),
      e(BLOCK, WAIT), e(WAIT, DONE), e(DONE, TICKET), e(SUPPORT, RANDOM), e(RANDOM, LINE_A, 'a'), e(RANDOM, TICKET, 'b'), e(LINE_A, TICKET),
    ],
  };
}

async function main() {
  const t = await createTestApp(dialect, { simulator: true });
  const tn = await seedTenant(t);
  const companyId = tn.company.id;
  const db = tenant(t.db, companyId);
  const token = tn.adminSession.token;
  const queue = await seedQueue(t, companyId, { name: 'Vendas' });
  const network = t.deps.sessions.simulator;
  const connections: number[] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const row = await db.insertInto('whatsapps', { name: `Line ${i}`, provider: 'simulator', token: `bench-flow-${i}-${Date.now()}` }).returning('whatsapps.id').executeTakeFirstOrThrow();
    await t.deps.sessions.start(companyId, row.id);
    await network.scan(row.id, `55118000000${i}`);
    await t.deps.sessions.flush(row.id);
    connections.push(row.id);
  }
  const flowId = (await t.request('POST', '/flowbuilder', { token, body: { name: 'Vendas' } })).body.id as number;
  const saved = await t.request('POST', '/flowbuilder/flow', { token, body: { idFlow: flowId, ...twelveNodeFlow(queue.id) } });
  if (saved.status !== 200) throw new Error(`flow not saved: ${JSON.stringify(saved.body)}`);
  await t.request('POST', '/flowcampaign', { token, body: { name: 'Comprar', flowId, phrase: 'comprar' } });

  // What the platform sent, per customer, as it enters the simulator's outboxes.
  const arrived = new Map<string, { at: number; body: string }[]>();
  const waiters = new Map<string, { n: number; resolve: () => void }>();
  const unwatch = connections.map((id) =>
    network.watchOutbox(id, (m) => {
      const list = arrived.get(m.to) ?? [];
      list.push({ at: performance.now(), body: m.body });
      arrived.set(m.to, list);
      const w = waiters.get(m.to);
      if (w && list.length >= w.n) {
        waiters.delete(m.to);
        w.resolve();
      }
    }),
  );
  const until = (to: string, n: number) =>
    (arrived.get(to)?.length ?? 0) >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.set(to, { n, resolve }));

  const timers = startFlowTimerJob(t.deps);
  const countHandedOver = async () =>
    Number((await db.selectFrom('flowRuns').select((eb) => eb.fn.countAll<number>().as('n')).where('flowRuns.endReason', '=', 'handover').executeTakeFirstOrThrow()).n);
  const countPendingInQueue = async () =>
    Number((await db.selectFrom('tickets').select((eb) => eb.fn.countAll<number>().as('n')).where('tickets.queueId', '=', queue.id).where('tickets.status', '=', 'pending').executeTakeFirstOrThrow()).n);
  const latencies: number[] = [];
  const late: number[] = [];
  let events = 0;
  let activeMs = 0;
  // When the last customer message (before the interval's wait) had its reply.
  let lastAnswered = 0;
  // The measured customers' numbers, and the warm-up's.
  const MEASURED = '55217';
  const customer = async (i: number, prefix = MEASURED) => {
    const from = `${prefix}${String(i).padStart(8, '0')}`;
    const connectionId = connections[i % CONNECTIONS]!;
    const say = async (body: string, expectTotal: number) => {
      if (THINK_MS > 0) await new Promise((r) => setTimeout(r, Math.random() * THINK_MS));
      const before = arrived.get(from)?.length ?? 0;
      const t0 = performance.now();
      await network.deliver(connectionId, { from, name: `Cliente ${i}`, body });
      await until(from, expectTotal);
      if (prefix !== MEASURED) return;
      events++;
      // From the customer's message to the flow's first reply to it.
      latencies.push(arrived.get(from)![before]!.at - t0);
      activeMs += performance.now() - t0;
      lastAnswered = Math.max(lastAnswered, performance.now());
    };
    await say('Comprar', 2); // greeting + menu
    await say('1', 3); // question
    await say(`Produto ${i}`, 5); // the content block's two texts; then the interval waits
    await until(from, 6); // after the interval
  };

  // The warm-up walks end with their hand-over; what they left in the queue is not counted below.
  await Promise.all(Array.from({ length: WARMUP }, (_, i) => customer(i, '55219')));
  const handedOverBefore = await countHandedOver();
  const pendingBefore = await countPendingInQueue();
  const measuredSince = new Date().toISOString();
  const load0 = loadavg()[0]!;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  // BENCH_DEBUG: progress on stderr (events so far, replies per customer).
  const dbg = process.env.BENCH_DEBUG ? setInterval(() => console.error('progress', events, [...arrived.values()].map((l) => l.length).join(',')), 2000) : undefined;
  await Promise.all(Array.from({ length: CUSTOMERS }, (_, i) => customer(i)));
  const seconds = (performance.now() - started) / 1000;
  if (dbg) clearInterval(dbg);
  const cpu = process.cpuUsage(cpu0);
  await timers.stop();
  for (const stop of unwatch) stop();
  await t.deps.outbox.idle();

  // Timer lateness: when each interval's timer really fired (its step applied) after its due time.
  const fired = db.selectFrom('flowTimers').select(['flowTimers.dueAt', 'flowTimers.firedAt']).where('flowTimers.status', '=', 'fired');
  for (const row of await fired.where('flowTimers.dueAt', '>=', measuredSince).execute()) {
    late.push(new Date(row.firedAt!).getTime() - new Date(row.dueAt).getTime());
  }
  const replies = [...arrived].filter(([to]) => to.startsWith(MEASURED)).map(([, list]) => list);
  const total = replies.reduce((s, l) => s + l.length, 0);
  const distinct = replies.reduce((s, l) => s + new Set(l.map((m) => m.body)).size, 0);
  // Inbound events over the time customers were actually waiting on the platform (the 1 s waits excluded;
  // with a think time, over the whole run).
  const busySeconds = THINK_MS > 0 ? seconds : seconds - INTERVAL_SEC;
  console.log(
    JSON.stringify({
      dialect,
      customers: CUSTOMERS,
      warmupCustomers: WARMUP,
      connections: CONNECTIONS,
      flowNodes: 12,
      thinkMsUpTo: THINK_MS,
      inboundEvents: events,
      seconds: Number(seconds.toFixed(3)),
      inboundEventsPerSecond: Math.round(events / busySeconds),
      // The same events over the span from the first message to the last one's reply: the walk's
      // three messages without the interval's wait and whatever follows it (the timers' lateness).
      inboundPhase: { seconds: Number(((lastAnswered - started) / 1000).toFixed(3)), eventsPerSecond: Math.round(events / ((lastAnswered - started) / 1000)) },
      cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(3)),
      loadAverage1m: { before: Number(load0.toFixed(2)), after: Number(loadavg()[0]!.toFixed(2)), cores: availableParallelism() },
      replyLatencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), max: percentile(latencies, 100) },
      timerLatenessMs: { p50: percentile(late, 50), p95: percentile(late, 95), max: percentile(late, 100) },
      replies: total,
      expectedReplies: CUSTOMERS * 6,
      duplicateReplies: total - distinct,
      handedOver: (await countHandedOver()) - handedOverBefore,
      pendingInQueue: (await countPendingInQueue()) - pendingBefore,
      meanActiveMsPerEvent: Number((activeMs / events).toFixed(3)),
    }),
  );
  await t.close();
}

await main();
