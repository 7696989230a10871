// Local fakes of the services assistants talk to, on the loopback (nothing in tests reaches the
// internet): OpenAI's chat completions and audio transcriptions, Typebot's startChat/continueChat,
// a webhook receiver that checks the signature, Google's token endpoint and Dialogflow ES
// detectIntent, and a file server. Each route answers through a handler the test sets, and every
// request is recorded. `latencyMs` delays every answer (the benchmark's slow AI).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeRequest = { method: string; path: string; headers: IncomingMessage['headers']; raw: Buffer; json: unknown };
export type FakeAnswer = { status?: number; json?: unknown; body?: Buffer | string; headers?: Record<string, string>; delayMs?: number };
export type FakeHandler = (req: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

export type FakeServices = {
  url: string;
  /** Every request, in arrival order. */
  requests: FakeRequest[];
  /** Answers requests whose path matches (the first matching route wins; later `on` calls go first). */
  on(pattern: RegExp, handler: FakeHandler): void;
  latencyMs: number;
  close(): Promise<void>;
};

export async function startFakeServices(): Promise<FakeServices> {
  const routes: { pattern: RegExp; handler: FakeHandler }[] = [];
  const requests: FakeRequest[] = [];
  const fake: FakeServices = {
    url: '',
    requests,
    latencyMs: 0,
    on: (pattern, handler) => void routes.unshift({ pattern, handler }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    let json: unknown;
    try {
      json = raw.length && String(req.headers['content-type']).includes('json') ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {
      json = undefined;
    }
    const path = (req.url ?? '/').split('?')[0]!;
    const request: FakeRequest = { method: req.method ?? 'GET', path, headers: req.headers, raw, json };
    requests.push(request);
    const route = routes.find((r) => r.pattern.test(path));
    const answer: FakeAnswer = route ? await route.handler(request) : { status: 404, json: { error: 'no such fake route' } };
    const delay = answer.delayMs ?? fake.latencyMs;
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (res.destroyed) return;
    const body = answer.json !== undefined ? JSON.stringify(answer.json) : (answer.body ?? '');
    res.writeHead(answer.status ?? 200, { ...(answer.json !== undefined ? { 'content-type': 'application/json' } : {}), ...answer.headers });
    res.end(body);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  // Idle sockets stay open longer than clients keep them (undici: 4 s), as real services do; a
  // server that closed them first would race the client's reuse (a reset, then the SDK's retry).
  // close() ends them all.
  server.keepAliveTimeout = 65_000;
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = fake.close;
  fake.close = async () => {
    server.closeAllConnections();
    await close();
  };
  return fake;
}

/** A chat completion as OpenAI answers it: text, or a tool call. */
export function completion(opts: { text?: string | null; toolCall?: { name: string; args: Record<string, unknown> }; model?: string; promptTokens?: number; completionTokens?: number }) {
  const toolCalls = opts.toolCall ? [{ id: 'call_1', type: 'function', function: { name: opts.toolCall.name, arguments: JSON.stringify(opts.toolCall.args) } }] : undefined;
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: opts.model ?? 'gpt-4o-mini',
    choices: [{ index: 0, finish_reason: toolCalls ? 'tool_calls' : 'stop', message: { role: 'assistant', content: opts.text ?? null, refusal: null, ...(toolCalls ? { tool_calls: toolCalls } : {}) } }],
    usage: { prompt_tokens: opts.promptTokens ?? 50, completion_tokens: opts.completionTokens ?? 10, total_tokens: (opts.promptTokens ?? 50) + (opts.completionTokens ?? 10) },
  };
}
