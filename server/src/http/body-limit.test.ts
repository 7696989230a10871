// An oversize body on a real socket (issue 13): the client gets its 413 ERR_PAYLOAD_TOO_LARGE, and
// its next request on the same keep-alive agent gets an answer too. The server answers such a body
// with `Connection: close` (it will not read the rest), so the client opens a fresh socket instead
// of reusing one the server is about to drop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/harness.ts';
import { startLiveApp, type LiveApp } from '../../test/live.ts';
import { seedSuper } from '../../test/seed.ts';

describe.each(DIALECTS)('an oversize body on a real connection (%s)', (dialect) => {
  let t: LiveApp;
  let url: string;
  let token: string;
  beforeAll(async () => {
    t = await startLiveApp(dialect, { maxJsonBytes: 64 * 1024 });
    token = (await seedSuper(t)).session.token;
    url = t.url;
  });
  afterAll(() => t.close());

  const post = (body: string | Uint8Array<ArrayBuffer>, type = 'application/json') =>
    fetch(`${url}/plans`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body });

  it.each([
    ['a JSON body of 2 MB', 'application/json', 2 * 1024 * 1024],
    ['a JSON body of 20 MB', 'application/json', 20 * 1024 * 1024],
    ['a multipart body over the upload ceiling', 'multipart/form-data; boundary=x', 101 * 1024 * 1024],
  ])("answers %s with 413, and Node's fetch on its keep-alive agent then gets its next answers", async (_what, type, size) => {
    const big = await post(new Uint8Array(size).fill(0x61), type);
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: string }).error).toBe('ERR_PAYLOAD_TOO_LARGE');
    expect(big.headers.get('connection')).toBe('close');
    // Past the server's drain window (500 ms): a socket kept alive would have been dropped by now.
    await new Promise((r) => setTimeout(r, 700));
    for (let i = 0; i < 3; i++) {
      const next = await fetch(`${url}/health`);
      expect(next.status).toBe(200);
      expect(await next.json()).toEqual({ status: 'ok' });
    }
    // A body within the limit keeps its connection alive as before.
    const small = await post('{}');
    expect(small.status).toBe(400);
    expect(small.headers.get('connection')).not.toBe('close');
    await small.text();
  });

  // A chunked body declares no size: it is counted as it is read (Hono's bodyLimit), not let through.
  const chunked = (size: number) => {
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= size) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    return fetch(`${url}/plans`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
  };

  it('answers a chunked JSON body over the limit with 413, and reads one within it', async () => {
    const big = await chunked(2 * 1024 * 1024);
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: string }).error).toBe('ERR_PAYLOAD_TOO_LARGE');
    const small = await fetch(`${url}/plans`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"name": 5}'));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    // Read and validated: a wrong type, not a refused body.
    expect(small.status).toBe(400);
    expect(((await small.json()) as { error: string }).error).toBe('ERR_VALIDATION');
  });
});
