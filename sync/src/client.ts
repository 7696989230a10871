// The typed API client of web and CLI. Session rules (spec/01 §4): a 403 triggers one token
// refresh (POST /auth/refresh_token) that concurrent requests wait for, then each retries once; a
// 401, or a refresh that fails, signs the user out through `onLogout`. Errors come back as AppError
// with the catalogue code. In the browser the refresh token is an httpOnly cookie (credentials:
// 'include'); in Node there are no cookies, so a `refreshTokenStore` keeps the cookie's value and
// the client sends it as a Cookie header itself.
import type { SessionAnswer } from './domain/auth.ts';
import { AppError, isErrorCode, type ValidationIssue } from './errors.ts';

export const REFRESH_COOKIE = 'jrt';
/** The endpoints that read the refresh cookie and answer for the session themselves (no refresh-and-retry). */
const SESSION_PATHS = new Set(['/auth/login', '/auth/refresh_token', '/auth/logout']);

type MaybePromise<T> = T | Promise<T>;

export type RefreshTokenStore = {
  get(): MaybePromise<string | null | undefined>;
  /** `expiresAt` (ISO): when the cookie's Max-Age or Expires says the token runs out, when it says. */
  set(value: string | null, expiresAt?: string): MaybePromise<void>;
};


export type ApiClientOptions = {
  baseUrl: string;
  token?: string | null;
  /** Called with each new access token (login, refresh) and with null on logout: persist it. */
  onToken?: (token: string | null) => void;
  /** The session is over (401, failed refresh): clear local state, show the login. */
  onLogout?: (reason: AppError) => void;
  refreshTokenStore?: RefreshTokenStore;
  fetch?: typeof fetch;
};

export type RequestOptions = { query?: Record<string, string | number | boolean | undefined>; signal?: AbortSignal; headers?: Record<string, string> };

export type ApiClient = ReturnType<typeof createApiClient>;

/** The catalogue code of an error answer, read from a copy (the answer's own body stays unread). */
async function errorCodeOf(res: Response): Promise<unknown> {
  try {
    return ((await res.clone().json()) as { error?: unknown } | null)?.error;
  } catch {
    return undefined;
  }
}

export function createApiClient(opts: ApiClientOptions) {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const doFetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
  let token = opts.token ?? null;
  let refreshing: Promise<string> | undefined;

  const setToken = (next: string | null) => {
    token = next;
    opts.onToken?.(next);
  };

  async function send(method: string, path: string, body: unknown, ro: RequestOptions, withCookie: boolean): Promise<Response> {
    const url = new URL(baseUrl + path, (globalThis as { location?: { href: string } }).location?.href);
    for (const [k, v] of Object.entries(ro.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...ro.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    // A FormData body (file uploads) is sent as multipart with the boundary fetch writes itself.
    const multipart = typeof FormData !== 'undefined' && body instanceof FormData;
    if (body !== undefined && !multipart) headers['content-type'] = 'application/json';
    if (withCookie && opts.refreshTokenStore) {
      const value = await opts.refreshTokenStore.get();
      if (value) headers.cookie = `${REFRESH_COOKIE}=${value}`;
    }
    const res = await doFetch(url, { method, headers, body: body === undefined ? undefined : multipart ? body : JSON.stringify(body), credentials: 'include', signal: ro.signal });
    if (opts.refreshTokenStore) await keepRefreshCookie(res, opts.refreshTokenStore);
    return res;
  }

  /** One refresh at a time: whoever comes while it runs waits for the same outcome. */
  function refresh(): Promise<string> {
    refreshing ??= (async () => {
      try {
        const res = await send('POST', '/auth/refresh_token', undefined, {}, true);
        if (!res.ok) throw await toAppError(res);
        const session = (await res.json()) as SessionAnswer;
        setToken(session.token);
        return session.token;
      } catch (err) {
        const reason = err instanceof AppError ? err : new AppError('ERR_SESSION_EXPIRED');
        endSession(reason);
        throw reason;
      } finally {
        refreshing = undefined;
      }
    })();
    return refreshing;
  }

  function endSession(reason: AppError) {
    setToken(null);
    void opts.refreshTokenStore?.set(null);
    opts.onLogout?.(reason);
  }

  async function request<T>(method: string, path: string, body?: unknown, ro: RequestOptions = {}): Promise<T> {
    if (refreshing) await refreshing.catch(() => {});
    const withCookie = SESSION_PATHS.has(path);
    let res = await send(method, path, body, ro, withCookie);
    // Only an expired access token (403 ERR_TOKEN_EXPIRED) is refreshed: a permission or plan
    // refusal is also 403, and refreshing for it rotated the session for nothing (and, with no
    // refresh token, as the CLI's ZAPDESK_TOKEN, ended it). The auth endpoints answer for themselves.
    if (res.status === 403 && !withCookie && (await errorCodeOf(res)) === 'ERR_TOKEN_EXPIRED') {
      await refresh();
      res = await send(method, path, body, ro, withCookie);
    }
    if (res.status === 401 && path !== '/auth/login') {
      const err = await toAppError(res);
      endSession(err);
      throw err;
    }
    if (!res.ok) throw await toAppError(res);
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  return {
    baseUrl,
    getToken: () => token,
    setToken,
    refresh,
    request,
    get: <T>(path: string, ro?: RequestOptions) => request<T>('GET', path, undefined, ro),
    post: <T>(path: string, body?: unknown, ro?: RequestOptions) => request<T>('POST', path, body, ro),
    put: <T>(path: string, body?: unknown, ro?: RequestOptions) => request<T>('PUT', path, body, ro),
    delete: <T>(path: string, ro?: RequestOptions) => request<T>('DELETE', path, undefined, ro),
    async login(email: string, password: string): Promise<SessionAnswer> {
      const session = await request<SessionAnswer>('POST', '/auth/login', { email, password });
      setToken(session.token);
      return session;
    },
    async logout(): Promise<void> {
      try {
        await send('DELETE', '/auth/logout', undefined, {}, true);
      } finally {
        setToken(null);
        await opts.refreshTokenStore?.set(null);
      }
    },
  };
}

/**
 * A request the typed client cannot make (a multipart upload read as NDJSON, a file download, a
 * stream): `send` with the client's token (`token`, else its current one) and the same session
 * rule: an expired token (403 ERR_TOKEN_EXPIRED) is refreshed once and the request sent again
 * (`send` must be callable twice). Any other error answer is thrown as its AppError; the answer of
 * a 2xx comes back with its body unread.
 */
export async function sendWithSession(api: ApiClient, send: (token: string | null) => Promise<Response>, token: string | null = api.getToken()): Promise<Response> {
  let res = await send(token);
  if (res.status === 403 && (await errorCodeOf(res)) === 'ERR_TOKEN_EXPIRED') {
    await res.body?.cancel();
    res = await send(await api.refresh());
  }
  if (!res.ok) throw await toAppError(res);
  return res;
}

async function keepRefreshCookie(res: Response, store: RefreshTokenStore) {
  const cookies = typeof res.headers.getSetCookie === 'function' ? res.headers.getSetCookie() : [];
  for (const c of cookies) {
    const [pair, ...attrs] = c.split(';');
    const eq = pair!.indexOf('=');
    if (pair!.slice(0, eq).trim() !== REFRESH_COOKIE) continue;
    const value = decodeURIComponent(pair!.slice(eq + 1).trim());
    const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
    await store.set(value && !expired ? value : null, value && !expired ? cookieExpiry(attrs) : undefined);
  }
}

/** When a Set-Cookie's attributes say it runs out (Max-Age wins over Expires, as in browsers), as ISO. */
function cookieExpiry(attrs: string[]): string | undefined {
  const attr = (name: string) => attrs.find((a) => a.trim().toLowerCase().startsWith(`${name}=`))?.split('=').slice(1).join('=').trim();
  const maxAge = Number(attr('max-age'));
  if (attr('max-age') && Number.isFinite(maxAge)) return new Date(Date.now() + maxAge * 1000).toISOString();
  const expires = Date.parse(attr('expires') ?? '');
  return Number.isNaN(expires) ? undefined : new Date(expires).toISOString();
}

/** A response's `{error, message, issues}` as an AppError; an unknown code keeps its text in the message. */
export async function toAppError(res: Response): Promise<AppError> {
  let body: { error?: unknown; message?: unknown; issues?: ValidationIssue[] } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // not JSON: fall through to a generic error
  }
  const message = typeof body.message === 'string' ? body.message : undefined;
  if (isErrorCode(body.error)) {
    // Fields beside error/message/issues (the expiry refusal's dueDate, a ticket holder…) stay as details.
    const { error, message: _m, issues, ...details } = body as Record<string, unknown> & { error: typeof body.error };
    return new AppError(error, message, { issues: issues as ValidationIssue[] | undefined, details: Object.keys(details).length ? details : undefined });
  }
  if (res.status === 401) return new AppError('ERR_SESSION_EXPIRED', message);
  return new AppError('ERR_INTERNAL_SERVER_ERROR', message ?? (typeof body.error === 'string' ? body.error : `HTTP ${res.status}`), {
    details: { status: res.status, ...(typeof body.error === 'string' ? { error: body.error } : {}) },
  });
}
