// Campaign benchmark (DESIGN §13): the product as a real process (server/src/main.ts on a fresh
// DATA_DIR) with the simulator, as an admin would run it through the API.
//
// Throughput: 10,000 recipients in four contact lists (CSV uploads), four campaigns, one per
// connection, with every interval and cap at 0, started together. Measures messages a second on the
// simulated network from the first send to the last, duplicates (a number that got two messages)
// and losses (a valid recipient that got none, or a campaign not FINALIZADA), and meanwhile the p95
// of the API an admin watching it uses: the campaign list, a campaign's report and the ticket list.
//
// Pacing: one connection, a small campaign with real intervals, its gaps measured on the simulated
// network's timestamps: with no jitter every gap is messageInterval (greaterInterval after every
// longerIntervalAfter-th send) within 5 %; with jitter every gap lies within messageInterval ±
// messageJitter (5 % slack on the bounds).
// BENCH_DIALECT=postgres (with TEST_POSTGRES_URL) runs it on PostgreSQL; BENCH_PACING=0 leaves the
// pacing part out. Prints one JSON object.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createPostgresDatabase } from '../server/test/harness.ts';
import { PROCESS_PASSWORD, startServerProcess } from '../server/test/process.ts';
import { cpuSeconds, serverExecArgv, stats } from './lib.ts';

const CONNECTIONS = 4;
const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 10_000);
const dialect = process.env.BENCH_DIALECT === 'postgres' ? 'postgres' : 'sqlite';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type OutboxEntry = { id: string; to: string; body: string; timestamp: string };

const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-bench-campaign-'));
const pg = dialect === 'postgres' ? await createPostgresDatabase(process.env.TEST_POSTGRES_URL!) : undefined;
const server = await startServerProcess({ dataDir, databaseUrl: pg?.url, guard: false, execArgv: serverExecArgv() });
try {
  const login = await server.request('POST', '/auth/login', { body: { email: 'admin@demo.zapdesk.local', password: PROCESS_PASSWORD } });
  const token = login.body.token as string;
  const call = async (method: string, route: string, body?: unknown) => {
    const res = await server.request(method, route, { token, body });
    if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const settings = (s: Record<string, unknown>) => call('POST', '/campaign-settings', { settings: s });
  const outboxOf = async (connectionId: number) => (await call('GET', `/simulator/outbox?connectionId=${connectionId}`)) as OutboxEntry[];

  const connections: number[] = ((await call('GET', '/whatsapp')) as { id: number }[]).map((c) => c.id).slice(0, 1);
  while (connections.length < CONNECTIONS) {
    const created = await call('POST', '/whatsapp', { name: `Bench line ${connections.length}`, provider: 'simulator' });
    await call('POST', `/whatsappsession/${created.id}`);
    await call('POST', `/simulator/connections/${created.id}/scan`);
    connections.push(created.id);
  }

  /** A contact list of `numbers`, uploaded as a CSV like the web's import; waits for its WhatsApp check. */
  const contactList = async (name: string, numbers: string[]) => {
    const list = await call('POST', '/contact-lists', { name });
    const csv = ['name,number,email', ...numbers.map((n, i) => `Pessoa ${name} ${i},${n},p${i}@bench.test`)].join('\n');
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), `${name}.csv`);
    const res = await fetch(`${server.url}/contact-lists/${list.id}/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const report = await res.text();
    if (res.status !== 200 || !report.includes('"done"')) throw new Error(`upload ${name}: ${res.status} ${report.slice(-300)}`);
    for (;;) {
      const page = await call('GET', `/contact-lists/${list.id}`);
      if (page.contactsCount === numbers.length) break;
      await sleep(100);
    }
    return list.id as number;
  };
  const campaign = async (name: string, whatsappId: number, contactListId: number) =>
    (await call('POST', '/campaigns', {
      name,
      whatsappId,
      contactListId,
      message1: '{saudacao}, {primeiro-nome}! Oferta da semana para {numero}.',
      message2: 'Oi {nome}, temos novidades para você.',
    })) as { id: number };
  const startAll = (ids: number[]) => Promise.all(ids.map((id) => call('PUT', `/campaigns/${id}`, { scheduledAt: new Date().toISOString() })));
  const statusOf = async (id: number) => ((await call('GET', `/campaigns/${id}`)) as { status: string }).status;

  // ---- Throughput: every interval and cap at 0.
  await settings({ messageInterval: 0, messageJitter: 0, longerIntervalAfter: 0, greaterInterval: 0, hourlyLimit: 0, dailyLimit: 0 });
  const perConnection = Math.ceil(RECIPIENTS / CONNECTIONS);
  const lists: number[] = [];
  const expected = new Map<string, number>();
  for (const [c, connectionId] of connections.entries()) {
    const numbers = Array.from({ length: perConnection }, (_, i) => `55119${c}${String(i).padStart(7, '0')}`);
    for (const n of numbers) expected.set(`${connectionId}:${n}`, 0);
    lists.push(await contactList(`bench${c}`, numbers));
  }
  const campaigns = [];
  for (const [c, connectionId] of connections.entries()) campaigns.push((await campaign(`Bench ${c}`, connectionId, lists[c]!)).id);

  // What the connections sent before (the demo's own messages) is not the campaigns'.
  const sentBefore = new Map<number, number>();
  for (const id of connections) sentBefore.set(id, (await outboxOf(id)).length);
  const timed = async (into: number[], route: string) => {
    const at = performance.now();
    const res = await server.request('GET', route, { token });
    into.push(performance.now() - at);
    if (res.status !== 200) throw new Error(`GET ${route}: ${res.status}`);
    return res.body;
  };
  // The same calls on the quiet server first: what the campaigns add to them.
  const quiet = { campaigns: [] as number[], report: [] as number[], tickets: [] as number[] };
  for (let i = 0; i < 30; i++) {
    await timed(quiet.campaigns, '/campaigns?pageNumber=1');
    await timed(quiet.report, `/campaigns/${campaigns[0]}/report?pageNumber=1`);
    await timed(quiet.tickets, '/tickets?status=open&showAll=true');
  }

  const cpuBefore = cpuSeconds(server.child.pid!);
  const startedAt = Date.now();
  await startAll(campaigns);
  const api = { campaigns: [] as number[], report: [] as number[], tickets: [] as number[] };
  for (;;) {
    await timed(api.campaigns, '/campaigns?pageNumber=1');
    await timed(api.report, `/campaigns/${campaigns[0]}/report?pageNumber=1`);
    await timed(api.tickets, '/tickets?status=open&showAll=true');
    const states = await Promise.all(campaigns.map(statusOf));
    if (states.every((s) => s === 'FINALIZADA')) break;
    if (Date.now() - startedAt > 10 * 60_000) throw new Error(`campaigns not finished after 10 min: ${states.join(', ')}`);
    await sleep(50);
  }
  const finishedAt = Date.now();
  const cpuAfter = cpuSeconds(server.child.pid!);

  const sent: { connectionId: number; to: string; at: number }[] = [];
  for (const id of connections) for (const e of (await outboxOf(id)).slice(sentBefore.get(id))) sent.push({ connectionId: id, to: e.to.replace(/\D/g, ''), at: Date.parse(e.timestamp) });
  let unexpected = 0;
  for (const s of sent) {
    const key = `${s.connectionId}:${s.to}`;
    if (expected.has(key)) expected.set(key, expected.get(key)! + 1);
    else unexpected++;
  }
  const counts = [...expected.values()];
  const first = Math.min(...sent.map((s) => s.at));
  const last = Math.max(...sent.map((s) => s.at));
  const totals = await Promise.all(campaigns.map(async (id) => ((await call('GET', `/campaigns/${id}/report?pageNumber=1`)) as { totals: { sent: number; failed: number; skippedInvalid: number } }).totals));
  const throughput = {
    recipients: expected.size,
    connections: CONNECTIONS,
    sent: sent.length,
    seconds: Number(((last - first) / 1000).toFixed(2)),
    messagesPerSecond: Number((sent.length / ((last - first) / 1000)).toFixed(1)),
    startToFinishedSeconds: Number(((finishedAt - startedAt) / 1000).toFixed(2)),
    perConnection: connections.map((id) => {
      const mine = sent.filter((s) => s.connectionId === id).map((s) => s.at);
      return { connectionId: id, sent: mine.length, perSecond: Number((mine.length / ((Math.max(...mine) - Math.min(...mine)) / 1000)).toFixed(1)) };
    }),
    duplicates: counts.filter((n) => n > 1).length + unexpected,
    lost: counts.filter((n) => n === 0).length,
    reportTotals: totals.reduce((a, t) => ({ sent: a.sent + t.sent, failed: a.failed + t.failed, skippedInvalid: a.skippedInvalid + t.skippedInvalid }), { sent: 0, failed: 0, skippedInvalid: 0 }),
    quietApiMs: { campaigns: stats(quiet.campaigns), report: stats(quiet.report), tickets: stats(quiet.tickets) },
    apiMs: { campaigns: stats(api.campaigns), report: stats(api.report), tickets: stats(api.tickets), all: stats([...api.campaigns, ...api.report, ...api.tickets]) },
    serverCpuSeconds: Number((cpuAfter - cpuBefore).toFixed(2)),
  };

  // ---- Pacing: gaps on one connection, measured on the network's timestamps.
  const pacingRun = async (label: string, s: { messageInterval: number; messageJitter: number; longerIntervalAfter: number; greaterInterval: number }, sends: number) => {
    await settings({ ...s, hourlyLimit: 0, dailyLimit: 0 });
    const connectionId = connections[0]!;
    const numbers = Array.from({ length: sends }, (_, i) => `55219${label.length}${String(i).padStart(7, '0')}`);
    const list = await contactList(`pacing-${label}`, numbers);
    const id = (await campaign(`Pacing ${label}`, connectionId, list)).id;
    const before = (await outboxOf(connectionId)).length;
    await startAll([id]);
    while ((await statusOf(id)) !== 'FINALIZADA') await sleep(200);
    const at = (await outboxOf(connectionId)).slice(before).map((e) => Date.parse(e.timestamp));
    const gaps = at.slice(1).map((t, i) => (t - at[i]!) / 1000);
    const longAfter = s.longerIntervalAfter;
    const checked = gaps.map((gap, i) => {
      // The n-th send (1-based) is followed by the longer pause when n is a multiple of longerIntervalAfter.
      const long = longAfter > 0 && (i + 1) % longAfter === 0;
      const [lo, hi] = long ? [s.greaterInterval, s.greaterInterval] : [s.messageInterval - Math.min(s.messageJitter, s.messageInterval), s.messageInterval + s.messageJitter];
      return { gap: Number(gap.toFixed(3)), long, expected: long ? lo : lo === hi ? lo : [lo, hi], within5Percent: gap >= lo * 0.95 && gap <= hi * 1.05 };
    });
    return { settings: s, sends: at.length, gaps: checked, allWithin5Percent: checked.every((g) => g.within5Percent) && at.length === sends };
  };
  // BENCH_PACING=0 leaves the pacing part out (quicker runs while working on throughput).
  const pacing = process.env.BENCH_PACING === '0' ? 'not run (BENCH_PACING=0)' : {
    fixed: await pacingRun('fixed', { messageInterval: 1, messageJitter: 0, longerIntervalAfter: 4, greaterInterval: 2 }, 13),
    jitter: await pacingRun('jitter', { messageInterval: 2, messageJitter: 1, longerIntervalAfter: 0, greaterInterval: 0 }, 11),
  };

  console.log(JSON.stringify({ dialect, throughput, pacing, cpus: cpus().length, loadavg: loadavg().map((l) => Number(l.toFixed(2))) }));
} finally {
  await server.kill('SIGTERM');
  await pg?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
