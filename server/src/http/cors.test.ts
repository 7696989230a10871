// The answer's headers on a real socket (@hono/node-server, whose lightweight answers the
// middleware writes its headers onto): CORS for the web app's origins only, with credentials, on
// preflights, successes, errors and not-found alike, and the answering instance on every one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveApp, type LiveApp } from '../../test/live.ts';
import { seedSuper } from '../../test/seed.ts';

const WEB = 'http://zapdesk-web.test:3000';

describe('answer headers on a real connection', () => {
  let t: LiveApp;
  let url: string;
  let token: string;
  beforeAll(async () => {
    t = await startLiveApp('sqlite', { webOrigins: [WEB] });
    token = (await seedSuper(t)).session.token;
    url = t.url;
  });
  afterAll(() => t.close());

  const cors = (res: Response) => ({
    origin: res.headers.get('access-control-allow-origin'),
    credentials: res.headers.get('access-control-allow-credentials'),
    vary: res.headers.get('vary'),
    instance: res.headers.get('x-zapdesk-instance'),
  });

  it('lets the web app in on successes, errors and unknown paths, with the body intact', async () => {
    const ok = await fetch(`${url}/plans/all`, { headers: { origin: WEB, authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(cors(ok)).toEqual({ origin: WEB, credentials: 'true', vary: 'Origin', instance: t.deps.instanceId });
    expect(Array.isArray(await ok.json())).toBe(true);

    const denied = await fetch(`${url}/plans/all`, { headers: { origin: WEB } });
    expect(denied.status).toBe(401);
    expect(cors(denied)).toEqual({ origin: WEB, credentials: 'true', vary: 'Origin', instance: t.deps.instanceId });
    expect(await denied.json()).toMatchObject({ error: 'ERR_SESSION_EXPIRED' });

    const unknown = await fetch(`${url}/no-such-route`, { headers: { origin: WEB } });
    expect(unknown.status).toBe(404);
    expect(cors(unknown)).toMatchObject({ origin: WEB, instance: t.deps.instanceId });
  });

  it('names no origin for a site that is not the web app, and still says which instance answered', async () => {
    const res = await fetch(`${url}/health`, { headers: { origin: 'http://elsewhere.test' } });
    expect(res.status).toBe(200);
    expect(cors(res)).toEqual({ origin: null, credentials: 'true', vary: 'Origin', instance: t.deps.instanceId });
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers a preflight with the methods and the asked headers, and no body', async () => {
    const res = await fetch(`${url}/messages/1`, { method: 'OPTIONS', headers: { origin: WEB, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' } });
    expect(res.status).toBe(204);
    expect(cors(res)).toEqual({ origin: WEB, credentials: 'true', vary: 'Origin, Access-Control-Request-Headers', instance: t.deps.instanceId });
    expect(res.headers.get('access-control-allow-methods')).toBe('GET,HEAD,PUT,POST,DELETE,PATCH');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type,authorization');
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toBe('');
  });
});
