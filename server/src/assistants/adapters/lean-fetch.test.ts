import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leanFetch } from './lean-fetch.ts';

describe('leanFetch', () => {
  let server: Server;
  let base: string;
  const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2_000);
        if (req.url === '/empty') return void res.writeHead(204).end();
        if (req.url === '/reset') return void req.socket.destroy();
        res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json', 'x-request-id': 'abc', 'set-cookie': ['a=1', 'b=2'] });
        res.end(JSON.stringify({ echo: Buffer.concat(chunks).toString('utf8') || null }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('posts a string body with its headers and answers a Response', async () => {
    const res = await leanFetch(`${base}/v1/chat?x=1`, { method: 'POST', body: '{"q":"olá"}', headers: new Headers({ 'content-type': 'application/json', authorization: 'Bearer k' }) });
    expect(res.status).toBe(200);
    expect(res.ok).toBe(true);
    expect(res.headers.get('x-request-id')).toBe('abc');
    expect(res.headers.get('set-cookie')).toBe('a=1, b=2');
    expect(await res.json()).toEqual({ echo: '{"q":"olá"}' });
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ method: 'POST', url: '/v1/chat?x=1', body: '{"q":"olá"}' });
    expect(last.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer k' });
  });

  it('answers the status of a refusal and no body for a 204', async () => {
    const missing = await leanFetch(`${base}/missing`, { headers: { accept: 'application/json' } });
    expect(missing.status).toBe(404);
    expect(missing.ok).toBe(false);
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/missing', body: '' });
    const empty = await leanFetch(`${base}/empty`, { method: 'DELETE' });
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
  });

  it('rejects with the signal’s reason when it aborts, before or during the request', async () => {
    const before = AbortSignal.abort(new Error('gave up'));
    await expect(leanFetch(`${base}/slow`, { signal: before })).rejects.toThrow('gave up');
    const started = performance.now();
    const err = await leanFetch(`${base}/slow`, { signal: AbortSignal.timeout(50) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DOMException);
    expect((err as DOMException).name).toBe('TimeoutError');
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('rejects as fetch does when the connection is refused or reset', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await leanFetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TypeError);
    expect(((refused as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
    const reset = await leanFetch(`${base}/reset`, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    expect(reset).toBeInstanceOf(TypeError);
    expect((reset as TypeError).cause).toBeInstanceOf(Error);
  });

  it('leaves a form body to the global fetch', async () => {
    const form = new FormData();
    form.append('model', 'whisper-1');
    const res = await leanFetch(`${base}/form`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    const last = seen.at(-1)!;
    expect(last.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(last.body).toContain('whisper-1');
  });
});
