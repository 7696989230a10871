// A local webhook receiver (node:http) for tests, the e2e test and the benchmark: records every
// request (headers, raw body, whether its signature checks out), answers with the statuses it is
// told to (then 200), optionally after a delay.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { event: string; delivery: string; timestamp: string; signature: string; body: string; json: { id: string; event: string; companyId: number; timestamp: string; data: unknown }; status: number; at: number };

export function verifySignature(secret: string, r: Pick<Received, 'timestamp' | 'signature' | 'body'>): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${r.timestamp}.${r.body}`).digest('hex')}`);
  const got = Buffer.from(r.signature);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

export async function startReceiver(opts: { latencyMs?: number } = {}) {
  const received: Received[] = [];
  // Statuses to answer next, in order; 200 when empty.
  const answers: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const status = answers.shift() ?? 200;
      const h = (name: string) => String(req.headers[name] ?? '');
      received.push({ event: h('x-zapdesk-event'), delivery: h('x-zapdesk-delivery'), timestamp: h('x-zapdesk-timestamp'), signature: h('x-zapdesk-signature'), body, json: JSON.parse(body) as Received['json'], status, at: Date.now() });
      const answer = () => res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      if (opts.latencyMs) setTimeout(answer, opts.latencyMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    /** The next requests get these statuses (then 200 again). */
    answerNext: (...statuses: number[]) => void answers.push(...statuses),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
