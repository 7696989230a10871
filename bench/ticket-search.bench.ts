// Ticket search benchmark (issue 4): GET /tickets?searchParam=… over 1,000,000 generated messages.
// A fresh SQLite database gets a company with 8 queues, 40,000 contacts, 60,000 tickets and
// 1,000,000 messages written in Portuguese customer-service phrases (plus a small second company
// using the same words, so the tenant filter has something to filter), bulk-inserted through
// prepared statements in large transactions with the schema's own triggers (the FTS index is kept
// by them, as in production). Then searches run through the real HTTP app (auth, validation,
// visibility, DTOs): common and rare words, prefixes, several words, contact names, order and
// phone numbers, a word found nowhere; as an admin with showAll, and as an attendant of two queues;
// with and without a status filter; first and second pages. Target: p95 under 30 ms (wall clock:
// report the machine's load beside it, printed as loadAverage). Generation time is reported, not
// measured against the target. BENCH_MESSAGES scales the data (contacts and tickets follow).
// BENCH_DB=/tmp/search.db keeps the generated database there, with what the run needs to search it
// beside it (/tmp/search.db.json), and later runs with the same BENCH_DB and BENCH_MESSAGES reuse
// it (pending migrations apply to it); by default every run generates a fresh one and removes it.
// Prints one JSON object.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import SQLite from 'better-sqlite3';
import { createTestApp, type TestApp } from '../server/test/harness.ts';
import { loginAs, seedCompany, seedPlan, seedUser } from '../server/test/seed.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const TICKETS = Math.round(MESSAGES * 0.06);
const CONTACTS = Math.round(MESSAGES * 0.04);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DAY = 86_400_000;

/** Deterministic pseudo-random numbers (mulberry32), so every run searches the same data. */
function rng(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! };
}

const FIRST = ['Maria', 'José', 'Ana', 'João', 'Antônio', 'Francisca', 'Carlos', 'Paulo', 'Adriana', 'Lucas', 'Juliana', 'Marcos', 'Patrícia', 'Rafael', 'Aline', 'Bruno', 'Camila', 'Diego', 'Fernanda', 'Gabriel', 'Helena', 'Igor', 'Larissa', 'Mateus', 'Natália', 'Otávio', 'Priscila', 'Rodrigo', 'Sabrina', 'Thiago', 'Vanessa', 'Wagner'];
const LAST = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes', 'Costa', 'Ribeiro', 'Martins', 'Carvalho', 'Almeida', 'Lopes', 'Soares', 'Fernandes', 'Vieira', 'Barbosa', 'Rocha', 'Dias', 'Nascimento', 'Andrade', 'Moreira', 'Nunes', 'Marques', 'Machado', 'Mendes', 'Freitas', 'Cardoso', 'Teixeira'];
const PRODUCTS = ['camiseta', 'tênis', 'notebook', 'geladeira', 'celular', 'fone', 'cadeira', 'mochila', 'relógio', 'vestido', 'jaqueta', 'liquidificador', 'televisão', 'colchão', 'bicicleta', 'impressora'];
const CITIES = ['Recife', 'Salvador', 'Curitiba', 'Fortaleza', 'Manaus', 'Goiânia', 'Belém', 'Campinas', 'Florianópolis', 'Natal'];
const CUSTOMER = [
  'Olá, bom dia! Gostaria de saber sobre o pedido {order}',
  'Boa tarde, meu pedido {order} ainda não chegou',
  'Quero trocar o tamanho da {product}, ficou pequena',
  'O boleto venceu, vocês podem enviar outro?',
  'Qual o prazo de entrega para {city}?',
  'Recebi o {product} com defeito, como faço a troca?',
  'Obrigado pelo atendimento!',
  'Meu CPF é {cpf}',
  'Pode me ligar no {phone}?',
  'Preciso da nota fiscal do pedido {order}',
  'Quero cancelar a compra e pedir reembolso',
  'O {product} tem garantia de quantos meses?',
  'Ok, aguardo',
  'Tem desconto no pix?',
  'A entrega está atrasada faz uma semana',
  'Consegue mudar o endereço de entrega para {city}?',
];
const AGENT = [
  'Olá {first}, tudo bem? Vou verificar o pedido {order} para você',
  'O prazo de entrega para {city} é de {days} dias úteis',
  'Segue o código de rastreio: {track}',
  'Já solicitei a troca do {product}, a coleta será agendada',
  'O reembolso cai em até 7 dias úteis após a devolução',
  'Enviei um novo boleto para o seu e-mail',
  'Obrigado pelo contato, {first}! Posso ajudar em algo mais?',
  'A garantia do {product} é de 12 meses pelo fabricante',
  'Sua nota fiscal foi reenviada',
  'Um momento, por favor, estou consultando o sistema',
];

type Ticket = { id: number; contact: number; queue: number; status: string; user: number | null; order: string; start: number; end: number };

/** The data, straight into the file the app uses: prepared statements, one transaction per batch. */
function generate(file: string, companyId: number, otherCompanyId: number, queueIds: number[], userIds: number[], messages: number) {
  const r = rng(42);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('cache_size = -200000');
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const orders: string[] = [];
  const names: string[] = [];
  const numbers: string[] = [];

  const fill = (company: number, connection: number, contacts: number, tickets: number, total: number, queues: number[], users: number[]) => {
    const insContact = sqlite.prepare('INSERT INTO contacts (company_id, name, number, jid, whatsapp_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const insTicket = sqlite.prepare(
      `INSERT INTO tickets (company_id, uuid, status, contact_id, user_id, queue_id, whatsapp_id, last_message, created_at, updated_at, last_interaction_at, closed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insMessage = sqlite.prepare(
      'INSERT INTO messages (company_id, wid, ticket_id, contact_id, whatsapp_id, body, ack, from_me, read, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)',
    );
    const contactIds: number[] = [];
    sqlite.transaction(() => {
      for (let i = 0; i < contacts; i++) {
        const name = `${r.pick(FIRST)} ${r.pick(LAST)}`;
        // Unique per company: DDD, 9, two digits of the company, the contact's index.
        const number = `55${11 + r.int(88)}9${String(company % 100).padStart(2, '0')}${String(i).padStart(6, '0')}`;
        const created = now - 200 * DAY + r.int(20 * DAY);
        contactIds.push(Number(insContact.run(company, name, number, `${number}@s.whatsapp.net`, connection, iso(created), iso(created)).lastInsertRowid));
        if (company === companyId && i % 97 === 0) {
          names.push(name);
          numbers.push(number);
        }
      }
    })();
    // Tickets: the contact's history is closed; its latest ticket may still be open or pending.
    const ticketList: Ticket[] = [];
    const lastOfContact = new Map<number, number>();
    for (let i = 0; i < tickets; i++) {
      const contact = i < contacts ? contactIds[i]! : contactIds[r.int(contacts)]!;
      const start = now - 180 * DAY + Math.floor((i / tickets) * 178 * DAY) + r.int(DAY);
      lastOfContact.set(contact, i);
      ticketList.push({ id: 0, contact, queue: r.pick(queues), status: 'closed', user: r.pick(users), order: String(100000 + r.int(900000)), start, end: start });
    }
    for (const i of lastOfContact.values()) {
      const roll = r.next();
      const t = ticketList[i]!;
      if (roll < 0.08) {
        t.status = 'pending';
        t.user = null;
      } else if (roll < 0.2) t.status = 'open';
    }
    // Messages: share them out over the tickets, a few to many each, in the ticket's time span.
    const perTicket = ticketList.map(() => 1 + r.next() * r.next() * 60);
    const scale = total / perTicket.reduce((a, b) => a + b, 0);
    let left = total;
    const batch = 20_000;
    let ti = 0;
    const insertTickets = sqlite.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const t = ticketList[i]!;
        const count = i === ticketList.length - 1 ? left : Math.min(left, Math.max(1, Math.round(perTicket[i]! * scale)));
        left -= count;
        const end = t.start + count * 60_000 * (1 + r.int(30));
        t.end = end;
        const created = iso(t.start);
        const last = `Mensagem ${count}`;
        t.id = Number(
          insTicket.run(company, `b${company}-${i}-${Math.random().toString(36).slice(2)}`, t.status, t.contact, t.user, t.queue, connection, last, created, iso(end), iso(end), t.status === 'closed' ? iso(end) : null).lastInsertRowid,
        );
        if (company === companyId && i % 211 === 0) orders.push(t.order);
        for (let m = 0; m < count; m++) {
          const fromMe = m % 2 === 1 ? 1 : 0;
          const template = fromMe ? r.pick(AGENT) : r.pick(CUSTOMER);
          const body = template
            .replace('{order}', t.order)
            .replace('{product}', r.pick(PRODUCTS))
            .replace('{city}', r.pick(CITIES))
            .replace('{cpf}', `${r.int(1e3)}.${r.int(1e3)}.${r.int(1e3)}-${r.int(100)}`)
            .replace('{phone}', `(${11 + r.int(88)}) 9${r.int(1e4)}-${r.int(1e4)}`)
            .replace('{first}', r.pick(FIRST))
            .replace('{days}', String(2 + r.int(10)))
            .replace('{track}', `BR${r.int(1e9)}`);
          const at = iso(t.start + Math.floor(((end - t.start) * m) / count));
          insMessage.run(company, `w${company}-${i}-${m}`, t.id, t.contact, connection, body, fromMe ? 3 : 0, fromMe, at, at);
        }
      }
    });
    while (ti < ticketList.length) {
      const to = Math.min(ticketList.length, ti + Math.max(1, Math.floor(batch / 17)));
      insertTickets(ti, to);
      ti = to;
    }
  };

  const conn = (company: number) =>
    Number(sqlite.prepare("INSERT INTO whatsapps (company_id, name, status, provider, token) VALUES (?, 'Principal', 'CONNECTED', 'simulator', ?)").run(company, `tok-${company}-${Date.now()}`).lastInsertRowid);
  fill(companyId, conn(companyId), CONTACTS, TICKETS, messages, queueIds, userIds);
  const otherQueue = Number(sqlite.prepare("INSERT INTO queues (company_id, name, color) VALUES (?, 'Geral', '#000000')").run(otherCompanyId).lastInsertRowid);
  const otherUser = Number(sqlite.prepare("INSERT INTO users (company_id, name, email, password_hash, profile) VALUES (?, 'Outro', ?, 'x', 'admin')").run(otherCompanyId, `other-${Date.now()}@example.test`).lastInsertRowid);
  fill(otherCompanyId, conn(otherCompanyId), 500, 700, Math.round(messages / 50), [otherQueue], [otherUser]);
  // The insert trigger queues messages for the search index (server/src/db/message-index.ts): index them all now.
  sqlite.exec('INSERT INTO ticket_messages_fts(rowid, body) SELECT m.ticket_id * 4294967296 + m.id, m.body FROM ticket_messages_fts_queue q JOIN messages m ON m.id = q.message_id; DELETE FROM ticket_messages_fts_queue;');
  sqlite.exec("INSERT INTO ticket_messages_fts(ticket_messages_fts) VALUES ('optimize'); INSERT INTO contacts_fts(contacts_fts) VALUES ('optimize'); ANALYZE;");
  sqlite.close();
  return { orders, names, numbers };
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(2)) : null;
};

type Setup = {
  messages: number;
  companyId: number;
  otherId: number;
  admin: { email: string; password: string };
  attendant: { email: string; password: string };
  sample: { orders: string[]; names: string[]; numbers: string[] };
  generationSeconds: number;
};

/** Companies, users, queues and the generated data, in the app's database. */
async function setUp(t: TestApp): Promise<Setup> {
  const plan = await seedPlan(t, { queues: 20, users: 50 });
  const company = await seedCompany(t, { planId: plan.id });
  const other = await seedCompany(t, { planId: plan.id });
  const admin = await seedUser(t, company.id, { profile: 'admin' });
  const attendant = await seedUser(t, company.id, { profile: 'user' });
  const colleagues = await Promise.all(Array.from({ length: 6 }, () => seedUser(t, company.id, { profile: 'user' })));
  const queueIds: number[] = [];
  for (let i = 0; i < 8; i++) {
    const q = await t.db.insertInto('queues').values({ companyId: company.id, name: `Fila ${i}`, color: `#0000${String(i).padStart(2, '0')}` }).returning('id').executeTakeFirstOrThrow();
    queueIds.push(q.id);
  }
  await t.db.insertInto('userQueues').values([{ companyId: company.id, userId: attendant.id, queueId: queueIds[0]! }, { companyId: company.id, userId: attendant.id, queueId: queueIds[1]! }]).execute();
  const g0 = performance.now();
  const sample = generate(t.deps.config.databaseUrl, company.id, other.id, queueIds, [admin.id, attendant.id, ...colleagues.map((c) => c.id)], MESSAGES);
  const generationSeconds = Number(((performance.now() - g0) / 1000).toFixed(1));
  const login = (u: { email: string; password: string }) => ({ email: u.email, password: u.password });
  return { messages: MESSAGES, companyId: company.id, otherId: other.id, admin: login(admin), attendant: login(attendant), sample, generationSeconds };
}

/** The kept database's setup when BENCH_DB names one generated with the same BENCH_MESSAGES. */
function keptSetup(file: string): Setup | undefined {
  if (!existsSync(file) || !existsSync(`${file}.json`)) return undefined;
  const setup = JSON.parse(readFileSync(`${file}.json`, 'utf8')) as Setup;
  return setup.messages === MESSAGES ? setup : undefined;
}

async function main() {
  const kept = process.env.BENCH_DB;
  let setup = kept ? keptSetup(kept) : undefined;
  if (kept && !setup) for (const suffix of ['', '-wal', '-shm', '.json']) rmSync(`${kept}${suffix}`, { force: true });
  const t = await createTestApp('sqlite', kept ? { databaseUrl: kept } : {});
  const reused = setup !== undefined;
  setup ??= await setUp(t);
  if (kept && !reused) writeFileSync(`${kept}.json`, JSON.stringify(setup));
  const { sample, generationSeconds } = setup;
  const company = { id: setup.companyId };
  const counts = await t.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();

  const adminSession = await loginAs(t, setup.admin);
  const userSession = await loginAs(t, setup.attendant);
  const r = rng(7);
  const queries: { kind: string; q: string }[] = [
    ...['pedido', 'obrigado', 'entrega', 'boleto', 'troca'].map((q) => ({ kind: 'common word', q })),
    ...['defeito', 'reembolso', 'garantia', 'geladeira', 'Florianópolis', 'rastreio'].map((q) => ({ kind: 'rarer word', q })),
    ...['entreg', 'reemb', 'notebo'].map((q) => ({ kind: 'prefix', q })),
    ...['pedido atrasado', 'nota fiscal', 'trocar tamanho', 'prazo entrega Recife'].map((q) => ({ kind: 'words', q })),
    ...['Maria', 'Oliveira', 'Ana Souza', ...Array.from({ length: 6 }, () => r.pick(sample.names))].map((q) => ({ kind: 'name', q })),
    ...Array.from({ length: 6 }, () => ({ kind: 'order number', q: r.pick(sample.orders) })),
    ...Array.from({ length: 4 }, () => ({ kind: 'phone', q: r.pick(sample.numbers) })),
    ...Array.from({ length: 2 }, () => ({ kind: 'phone prefix', q: r.pick(sample.numbers).slice(0, 9) })),
    ...['xilofone', 'zzzz'].map((q) => ({ kind: 'no match', q })),
  ];
  const viewers = [
    { who: 'admin showAll', token: adminSession.token, extra: '&showAll=true' },
    { who: 'admin showAll open', token: adminSession.token, extra: '&showAll=true&status=open' },
    { who: 'attendant', token: userSession.token, extra: '' },
    { who: 'attendant closed', token: userSession.token, extra: '&status=closed' },
  ];
  const run = async (round: number, collect: boolean) => {
    const latencies: number[] = [];
    const cpu: number[] = [];
    const byKind = new Map<string, number[]>();
    for (const v of viewers) {
      for (const { kind, q } of queries) {
        const url = `/tickets?searchParam=${encodeURIComponent(q)}&pageNumber=${round % 2 === 0 ? 1 : 2}${v.extra}`;
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        const res = await t.request('GET', url, { token: v.token });
        const ms = performance.now() - t0;
        const c = process.cpuUsage(c0);
        if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
        for (const ticket of res.body.tickets as { contact: { id: number } }[]) if (!ticket) throw new Error('empty ticket');
        if (!collect) continue;
        latencies.push(ms);
        cpu.push((c.user + c.system) / 1000);
        const k = `${kind} (${v.who})`;
        byKind.set(k, [...(byKind.get(k) ?? []), ms]);
      }
    }
    return { latencies, cpu, byKind };
  };
  await run(0, false); // warm the page cache and the statement cache
  const all: number[] = [];
  const allCpu: number[] = [];
  const kinds = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    const { latencies, cpu, byKind } = await run(round, true);
    all.push(...latencies);
    allCpu.push(...cpu);
    for (const [k, xs] of byKind) kinds.set(k, [...(kinds.get(k) ?? []), ...xs]);
  }
  // Hits, to show the searches find things (and only the company's own).
  const hits: Record<string, number> = {};
  for (const { q } of [queries[0]!, queries[20]!, queries[25]!]) {
    const res = await t.request('GET', `/tickets?showAll=true&searchParam=${encodeURIComponent(q)}`, { token: adminSession.token });
    const foreign = (res.body.tickets as { id: number }[]).length - (await t.db.selectFrom('tickets').select('id').where('companyId', '=', company.id).where('id', 'in', (res.body.tickets as { id: number }[]).map((x) => x.id).concat(0)).execute()).length;
    if (foreign !== 0) throw new Error(`search "${q}" returned another company's tickets`);
    hits[q] = (res.body.tickets as unknown[]).length;
  }
  console.log(
    JSON.stringify({
      messages: Number(counts.n),
      tickets: TICKETS,
      contacts: CONTACTS,
      generationSeconds,
      reusedDatabase: reused,
      searches: all.length,
      latencyMs: { p50: percentile(all, 50), p95: percentile(all, 95), p99: percentile(all, 99), max: percentile(all, 100) },
      // CPU time of this process per request: what a request costs when it has a core to itself
      // (wall clock above also counts waiting for a CPU on a loaded machine).
      cpuMs: { p50: percentile(allCpu, 50), p95: percentile(allCpu, 95), p99: percentile(allCpu, 99) },
      p95ByKind: Object.fromEntries([...kinds].map(([k, xs]) => [k, percentile(xs, 95)])),
      firstPageHits: hits,
      loadAverage: loadavg().map((x) => Number(x.toFixed(2))),
    }),
  );
  await t.close();
  rmSync(t.deps.config.dataDir, { recursive: true, force: true });
}

await main();
