// The pushing clients of the outbox benchmark (outbox.bench.ts), in a process of their own so that
// their HTTP work does not share an event loop with the coordinator's probe. Each client behaves as
// a Replicache client does (its own client group, mutation ids from 1, one push in flight at a time,
// the mutations made meanwhile sent together in the next push), and its agent writes a `sendMessage`
// reply every 1000 / rate ms whatever the server's speed (an open loop: typing does not wait for the
// network). Started by fork() with a JSON job on argv; prints one JSON line with the push timings.
import { createJsonClient } from './lib.ts';

type Job = { url: string; token: string; userId: number; clients: number; perClient: number; ratePerClient: number; tickets: number[][] };
type Mutation = { id: number; clientID: string; name: string; args: unknown; timestamp: number };

const job = JSON.parse(process.argv[2]!) as Job;
// node:http over kept-alive sockets, not fetch: these clients stand for 50 browsers elsewhere, and
// fetch's CPU per request (lib.ts) came out of the two cores the server under test runs on.
const post = createJsonClient(job.clients);

async function runClient(k: number, latencies: number[], batchSizes: number[]): Promise<number> {
  const group = `bench-group-${k}`;
  const client = `bench-client-${k}`;
  const pending: Mutation[] = [];
  let made = 0;
  let accepted = 0;
  let wake: (() => void) | undefined;
  // The agent: one reply every 1000 / rate ms, from a start spread over the first interval.
  const every = 1000 / job.ratePerClient;
  const typing = new Promise<void>((done) => {
    const type = () => {
      const i = made++;
      const tickets = job.tickets[k]!;
      pending.push({
        id: i + 1,
        clientID: client,
        name: 'sendMessage',
        args: { ticketId: tickets[i % tickets.length]!, localId: `bench${k}x${i}xx`, body: `bench ${k}-${i}`, signMessage: false, userId: job.userId, sentAt: new Date().toISOString() },
        timestamp: Date.now(),
      });
      wake?.();
      if (made < job.perClient) setTimeout(type, every);
      else done();
    };
    setTimeout(type, Math.random() * every);
  });
  let typed = false;
  void typing.then(() => (typed = true));
  // The client: pushes what is pending, one push at a time.
  while (!typed || pending.length > 0) {
    if (pending.length === 0) {
      await new Promise<void>((r) => (wake = r));
      wake = undefined;
      continue;
    }
    const mutations = pending.splice(0, 100);
    const at = performance.now();
    // Rejects on any status but 2xx, which ends the run.
    await post(`${job.url}/sync/push`, 'POST', { authorization: `Bearer ${job.token}` }, { pushVersion: 1, schemaVersion: '', profileID: 'bench', clientGroupID: group, mutations });
    latencies.push(performance.now() - at);
    batchSizes.push(mutations.length);
    accepted += mutations.length;
  }
  return accepted;
}

const started = performance.timeOrigin + performance.now();
const latencies: number[] = [];
const batchSizes: number[] = [];
const counts = await Promise.all(Array.from({ length: job.clients }, (_, k) => runClient(k, latencies, batchSizes)));
const ended = performance.timeOrigin + performance.now();
const cpu = process.cpuUsage();
console.log(JSON.stringify({ started, ended, accepted: counts.reduce((a, b) => a + b, 0), latencies, batchSizes, cpuSeconds: (cpu.user + cpu.system) / 1e6 }));
