// A fake of OpenAI's chat completions in a process of its own, for the AI benchmark: the real
// service is on another machine, and a fake sharing the server's event loop is served only when
// that loop gets round to it (its accept and reads waited behind the server's work: up to 2 s of
// "AI latency" that no real deployment has). Answers each question after BENCH_AI_LATENCY_MS with
// its text, Pergunta → Resposta; GET /held tells how long each question was held (ms), by its text.
// Prints its URL on the first line of stdout.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completion } from '../server/test/fakes/services.ts';

const LATENCY_MS = Number(process.env.BENCH_AI_LATENCY_MS ?? 500);
const held: Record<string, number> = {};

const server = createServer((req, res) => {
  const received = performance.now();
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.url === '/held') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(held));
      return;
    }
    const question = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: { content: string }[] }).messages.at(-1)!.content;
    setTimeout(() => {
      held[question] = performance.now() - received;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion({ text: question.replace('Pergunta', 'Resposta') })));
    }, LATENCY_MS);
  });
});
// Idle sockets outlive the client's keep-alive, as a real service's do.
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => process.exit(0));
