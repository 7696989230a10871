// The pushing clients of the outbox benchmark (outbox.bench.ts), in a process of their own so that
// their HTTP work does not share an event loop with the coordinator's probe. Each client speaks the
// Replicache push protocol as a client would (its own client group, mutation ids from 1), one
// `sendMessage` mutation per push, one push after the other; all clients push at once. Started by
// fork() with a JSON job on argv; prints one JSON line with the push timings and what was accepted.
export {};

type Job = { url: string; token: string; userId: number; clients: number; perClient: number; tickets: number[][] };

const job = JSON.parse(process.argv[2]!) as Job;

async function runClient(k: number, latencies: number[]): Promise<number> {
  const group = `bench-group-${k}`;
  const client = `bench-client-${k}`;
  let accepted = 0;
  for (let i = 0; i < job.perClient; i++) {
    const tickets = job.tickets[k]!;
    const ticketId = tickets[i % tickets.length]!;
    const body = {
      pushVersion: 1,
      schemaVersion: '',
      profileID: 'bench',
      clientGroupID: group,
      mutations: [
        {
          id: i + 1,
          clientID: client,
          name: 'sendMessage',
          args: { ticketId, localId: `bench${k}x${i}xx`, body: `bench ${k}-${i}`, signMessage: false, userId: job.userId, sentAt: new Date().toISOString() },
          timestamp: Date.now(),
        },
      ],
    };
    const at = performance.now();
    const res = await fetch(`${job.url}/sync/push`, { method: 'POST', headers: { authorization: `Bearer ${job.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await res.text();
    latencies.push(performance.now() - at);
    if (res.status !== 200) throw new Error(`push ${k}/${i}: ${res.status}`);
    accepted++;
  }
  return accepted;
}

const started = performance.timeOrigin + performance.now();
const latencies: number[] = [];
const counts = await Promise.all(Array.from({ length: job.clients }, (_, k) => runClient(k, latencies)));
const ended = performance.timeOrigin + performance.now();
console.log(JSON.stringify({ started, ended, accepted: counts.reduce((a, b) => a + b, 0), latencies }));
