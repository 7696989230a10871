// The shared API client (sync/src/client.ts) against the real server: refresh rules of spec/01 §4.
import { createApiClient } from '@zapdesk/sync/client';
import { AppError } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../auth/tokens.ts';
import { memoryRefreshStore, startLiveApp, type LiveApp } from '../../test/live.ts';
import { seedCompany, seedUser } from '../../test/seed.ts';

describe('API client', () => {
  let live: LiveApp;
  beforeAll(async () => {
    live = await startLiveApp('sqlite');
  });
  afterAll(() => live.close());

  it('on a 403 refreshes once while concurrent requests wait, then all retry', async () => {
    const company = await seedCompany(live);
    const user = await seedUser(live, company.id);
    const store = memoryRefreshStore();
    let refreshes = 0;
    const counting: typeof fetch = (input, init) => {
      if (String(input).includes('/auth/refresh_token')) refreshes++;
      return fetch(input, init);
    };
    const api = createApiClient({ baseUrl: live.url, refreshTokenStore: store, fetch: counting });
    const session = await api.login(user.email, user.password);
    expect(store.value).toBeTruthy();
    // An access token that has already expired: the server answers 403 ERR_TOKEN_EXPIRED.
    const claims = JSON.parse(Buffer.from(session.token.split('.')[1]!, 'base64url').toString()) as { sub: number; cid: number; sid: string };
    api.setToken(await signAccessToken(claims, live.deps.config.jwtSecret, -10));
    const results = await Promise.all([api.get<{ id: number }>('/auth/me'), api.get<{ id: number }>('/auth/me'), api.get<{ id: number }>('/auth/me')]);
    expect(results.map((r) => r.id)).toEqual([user.id, user.id, user.id]);
    expect(refreshes).toBe(1);
  });

  it('does not refresh for a 403 that is a refusal, not an expired token: the session stays', async () => {
    const company = await seedCompany(live);
    const user = await seedUser(live, company.id, { profile: 'user' });
    let refreshes = 0;
    const counting: typeof fetch = (input, init) => {
      if (String(input).includes('/auth/refresh_token')) refreshes++;
      return fetch(input, init);
    };
    // No refresh token to fall back on, as the CLI with ZAPDESK_TOKEN: a refresh would end the session.
    const loggedOut: string[] = [];
    const api = createApiClient({ baseUrl: live.url, fetch: counting, onLogout: (e) => void loggedOut.push(e.code) });
    const session = await api.login(user.email, user.password);
    const refused = await api.get('/users').catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'ERR_NO_PERMISSION' });
    expect([refreshes, loggedOut, api.getToken()]).toEqual([0, [], session.token]);
    expect((await api.get<{ id: number }>('/auth/me')).id).toBe(user.id);
  });

  it('signs out when the refresh fails, and returns catalogue errors as AppError', async () => {
    const company = await seedCompany(live);
    const user = await seedUser(live, company.id);
    const loggedOut: string[] = [];
    const tokens: (string | null)[] = [];
    const api = createApiClient({ baseUrl: live.url, refreshTokenStore: memoryRefreshStore(), onLogout: (e) => void loggedOut.push(e.code), onToken: (t) => void tokens.push(t) });
    await expect(api.login(user.email, 'wrong-password')).rejects.toMatchObject({ code: 'ERR_INVALID_CREDENTIALS' });
    const session = await api.login(user.email, user.password);
    const claims = JSON.parse(Buffer.from(session.token.split('.')[1]!, 'base64url').toString()) as { sub: number; cid: number; sid: string };
    // Another login of the account revokes this session: the refresh fails and the client signs out.
    await live.request('POST', '/auth/login', { body: { email: user.email, password: user.password } });
    api.setToken(await signAccessToken(claims, live.deps.config.jwtSecret, -10));
    const err = await api.get('/auth/me').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('ERR_SESSION_EXPIRED');
    expect(loggedOut).toEqual(['ERR_SESSION_EXPIRED']);
    expect(api.getToken()).toBeNull();
    expect(tokens.at(-1)).toBeNull();
  });
  it('sends a FormData body as multipart (file uploads)', async () => {
    const company = await seedCompany(live);
    const user = await seedUser(live, company.id);
    const api = createApiClient({ baseUrl: live.url, refreshTokenStore: memoryRefreshStore() });
    await api.login(user.email, user.password);
    const quick = await api.post<{ id: number }>('/quick-messages', { shortcode: 'price', message: 'Our prices', geral: true });
    const form = new FormData();
    form.append('typeArch', 'quickMessage');
    form.append('file', new File(['a price list'], 'prices.txt', { type: 'text/plain' }));
    const saved = await api.post<{ mediaName: string | null }>(`/quick-messages/${quick.id}/media-upload`, form);
    expect(saved.mediaName).toBe('prices.txt');
  });
});
