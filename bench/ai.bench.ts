// AI assistants benchmark (issue 16): 200 customers talk to an AI prompt at once (3 rounds each,
// each message after a think time drawn between 0 and 2 s, as people type; BENCH_AI_THINK_MS)
// against a local fake of OpenAI's chat completions (its own process, fake-openai.ts, as the real
// service is elsewhere; dialogflow and transcription go nowhere) that takes 500 ms per answer, while other
// customers of other tickets write to four other connections at a steady 2,000 messages/s
// (BENCH_AI_BACKGROUND_RATE). Reports how many of those other messages were stored per second during
// the AI conversations and how long each took (the AI must never block the pipeline), and the
// latency the AI path adds beyond the fake's own: from the customer's message to the AI's reply in
// the simulator's outbox, minus the time the fake held the request. The other customers start
// first (BENCH_AI_WARMUP_MS, by default until each has written once) and are measured with the AI
// conversations. BENCH_AI_CUSTOMERS (200), BENCH_AI_LATENCY_MS (500), BENCH_DIALECT=postgres (with
// TEST_POSTGRES_URL). Prints one JSON object.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { stats } from './lib.ts';
import type { Dialect } from '../server/src/db/database.ts';
import { tenant } from '../server/src/db/tenant.ts';
import { createTestApp } from '../server/test/harness.ts';
import { seedCompany, seedPlan } from '../server/test/seed.ts';

const CUSTOMERS = Number(process.env.BENCH_AI_CUSTOMERS ?? 200);
const ROUNDS = 3;
const LATENCY_MS = Number(process.env.BENCH_AI_LATENCY_MS ?? 500);
const BACKGROUND_CONNECTIONS = 4;
const BACKGROUND_CONTACTS = 2_000;
const THINK_MS = Number(process.env.BENCH_AI_THINK_MS ?? 2_000);
const BACKGROUND_RATE = Number(process.env.BENCH_AI_BACKGROUND_RATE ?? 2_000);
const WARMUP_MS = BACKGROUND_RATE > 0 ? Number(process.env.BENCH_AI_WARMUP_MS ?? Math.ceil((1_000 * BACKGROUND_CONTACTS) / BACKGROUND_RATE) + 500) : 0;
const dialect = (process.env.BENCH_DIALECT ?? 'sqlite') as Dialect;

async function main() {
  const fake = spawn(process.execPath, ['--import', 'tsx', path.join(path.dirname(fileURLToPath(import.meta.url)), 'fake-openai.ts')], {
    env: { ...process.env, BENCH_AI_LATENCY_MS: String(LATENCY_MS) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [fakeUrl] = (await once(createInterface({ input: fake.stdout! }), 'line')) as [string];
  const t = await createTestApp(dialect, {
    simulator: true,
    assistants: { concurrency: 256, timeoutMs: 20_000, attempts: 3, backoffMs: 1_000, openaiBaseUrl: `${fakeUrl}/v1`, transcriptionModel: 'whisper-1', dialogflowBaseUrl: fakeUrl, publicUrl: 'http://localhost' },
  });
  const plan = await seedPlan(t);
  const company = await seedCompany(t, { planId: plan.id });
  const db = tenant(t.db, company.id);
  const network = t.deps.sessions.simulator;
  const prompt = await db
    .insertInto('prompts', { name: 'Padaria', prompt: 'You are the assistant of a bakery. Answer in one short sentence.', model: 'gpt-4o-mini', maxTokens: 100, temperature: 1, maxMessages: 10, apiKeyEnc: t.deps.secrets.seal('sk-bench'), queueId: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const connect = async (i: number, promptId: number | null) => {
    const row = await db.insertInto('whatsapps', { name: `Line ${i}`, provider: 'simulator', token: `bench-ai-${i}-${Date.now()}`, promptId }).returning('whatsapps.id').executeTakeFirstOrThrow();
    await t.deps.sessions.start(company.id, row.id);
    await network.scan(row.id, `55117000000${i}`);
    await t.deps.sessions.flush(row.id);
    return row.id;
  };
  const aiLine = await connect(0, prompt.id);
  const lines: number[] = [];
  for (let i = 1; i <= BACKGROUND_CONNECTIONS; i++) lines.push(await connect(i, null));

  // Replies as they enter the simulator's outbox of the AI line.
  const arrived = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  const unwatch = network.watchOutbox(aiLine, (m) => {
    arrived.set(m.body, performance.now());
    waiters.get(m.body)?.();
  });
  const replyOf = (text: string) => (arrived.has(text) ? Promise.resolve() : new Promise<void>((r) => waiters.set(text, r)));

  // The other tickets: messages offered at a steady rate (each at its due moment, whatever the
  // ones before it are doing) until the AI conversations end.
  let background = BACKGROUND_RATE > 0;
  let stored = 0;
  let offered = 0;
  const backgroundLatency: number[] = [];
  const inFlight = new Set<Promise<unknown>>();
  const offer = async () => {
    const t0 = performance.now();
    while (background) {
      const due = Math.floor(((performance.now() - t0) / 1000) * BACKGROUND_RATE);
      for (; offered < due; offered++) {
        const i = offered;
        const c = i % BACKGROUND_CONTACTS;
        const sent = performance.now();
        const p = network.deliver(lines[c % BACKGROUND_CONNECTIONS]!, { from: `55218${String(c).padStart(8, '0')}`, name: `Contact ${c}`, body: `Message ${i}` }).then(() => {
          if (background) stored++;
          backgroundLatency.push(performance.now() - sent);
          inFlight.delete(p);
        });
        inFlight.add(p);
      }
      await new Promise((r) => setTimeout(r, 2));
    }
  };

  const replied: { question: string; elapsed: number }[] = [];
  const total: number[] = [];
  const customer = async (i: number) => {
    const from = `55216${String(i).padStart(8, '0')}`;
    for (let round = 1; round <= ROUNDS; round++) {
      await new Promise((r) => setTimeout(r, Math.random() * THINK_MS));
      const question = `Pergunta ${i}-${round}`;
      const t0 = performance.now();
      await network.deliver(aiLine, { from, name: `Cliente ${i}`, body: question });
      await replyOf(question.replace('Pergunta', 'Resposta'));
      const elapsed = arrived.get(question.replace('Pergunta', 'Resposta'))! - t0;
      total.push(elapsed);
      replied.push({ question, elapsed });
    }
  };

  // The other customers write first for WARMUP_MS: each of them has written once (their contact
  // and ticket exist) before the AI conversations start, so these meet the steady traffic of
  // ongoing conversations, not the first second's 2,000 new ones (BENCH_AI_WARMUP_MS=0 for that).
  const offering = offer();
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  stored = 0;
  backgroundLatency.length = 0;
  const load0 = loadavg()[0]!;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: CUSTOMERS }, (_, i) => customer(i)));
  const seconds = (performance.now() - started) / 1000;
  background = false;
  await offering;
  await Promise.all([...inFlight]);
  const cpu = process.cpuUsage(cpu0);
  unwatch();
  await t.deps.assistants.idle();
  await t.deps.outbox.idle();
  // How long the fake held each question: the rest of a reply's time is the AI path's own.
  const held = (await (await fetch(`${fakeUrl}/held`)).json()) as Record<string, number>;
  const added = replied.map((r) => r.elapsed - held[r.question]!);

  const replies = network.outbox(aiLine);
  const distinct = new Set(replies.map((m) => m.body)).size;
  const turns = await db.selectFrom('assistantTurns').select(['assistantTurns.id', 'assistantTurns.state', 'assistantTurns.createdAt', 'assistantTurns.claimedAt', 'assistantTurns.updatedAt']).execute();
  // Where a turn's time goes: waiting to be claimed, then claimed to written (the call included),
  // then written to sent by the outbox (the reply's message row: queued at creation, sent at its update).
  const ms = (iso: string | null) => (iso ? new Date(iso).getTime() : NaN);
  const sentRows = await db.selectFrom('messages').select(['messages.createdAt', 'messages.updatedAt']).where('messages.whatsappId', '=', aiLine).where('messages.fromMe', '=', 1).execute();
  const phases = {
    queuedToClaimed: stats(turns.map((x) => ms(x.claimedAt) - ms(x.createdAt))),
    claimedToWrittenMinusFake: stats(turns.map((x) => ms(x.updatedAt) - ms(x.claimedAt) - LATENCY_MS)),
    writtenToSent: stats(sentRows.map((x) => ms(x.updatedAt) - ms(x.createdAt))),
  };
  console.log(
    JSON.stringify({
      dialect,
      customers: CUSTOMERS,
      rounds: ROUNDS,
      fakeLatencyMs: LATENCY_MS,
      thinkMsUpTo: THINK_MS,
      backgroundWarmupMs: WARMUP_MS,
      seconds: Number(seconds.toFixed(3)),
      otherTickets: { offeredPerSecond: BACKGROUND_RATE, storedPerSecond: Math.round(stored / seconds), stored, latencyMs: stats(backgroundLatency) },
      aiAddedLatencyMs: stats(added),
      aiReplyLatencyMs: stats(total),
      aiPhasesMs: phases,
      aiReplies: replies.length,
      expectedReplies: CUSTOMERS * ROUNDS,
      duplicateReplies: replies.length - distinct,
      turns: { done: turns.filter((x) => x.state === 'done').length, failed: turns.filter((x) => x.state === 'failed').length },
      cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(3)),
      loadAverage1m: { before: Number(load0.toFixed(2)), after: Number(loadavg()[0]!.toFixed(2)), cores: availableParallelism() },
    }),
  );
  await t.close();
  fake.kill('SIGTERM');
}

await main();
