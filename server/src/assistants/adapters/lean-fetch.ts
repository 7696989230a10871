// `fetch` for the adapters' JSON calls (the OpenAI SDK's, postJson's) over node:http(s) with
// keep-alive agents, the answer read whole. Node's own fetch (undici's WHATWG streams) costs
// 1.3 ms of this thread per chat completion against a local fake; this one 0.8 ms, and an
// assistant's turn is on the thread that stores every inbound message. A body that is not a string
// (the transcription's form data) or a Request goes to the global fetch. A refused or reset
// connection rejects with a TypeError whose `cause` is the socket's error, as fetch's does; an
// aborted signal rejects with its reason.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/** `lookup`: the sockets' resolver (a guarded one refuses forbidden addresses: webhooks/target.ts). */
export function leanFetch(input: string | URL | Request, init: RequestInit & { lookup?: LookupFunction } = {}): Promise<Response> {
  const { body, signal } = init;
  if (input instanceof Request || (body != null && typeof body !== 'string')) return fetch(input, init);
  const url = new URL(input);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fetch(input, init);
  if (signal?.aborted) return Promise.reject(signal.reason);
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const onAbort = () => req.destroy(signal!.reason instanceof Error ? signal!.reason : new DOMException('This operation was aborted', 'AbortError'));
    const done = () => signal?.removeEventListener('abort', onAbort);
    const fail = (err: Error) => {
      done();
      reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: err }));
    };
    const req = client.request(url, { method: init.method ?? 'GET', headers, agent: agents[url.protocol as keyof typeof agents], ...(init.lookup ? { lookup: init.lookup } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', fail);
      res.on('end', () => {
        done();
        const answer = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) answer.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        const status = res.statusCode ?? 502;
        const empty = status === 204 || status === 304 || init.method === 'HEAD';
        resolve(new Response(empty ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage, headers: answer }));
      });
    });
    req.on('error', fail);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.end(body ?? undefined);
  });
}
