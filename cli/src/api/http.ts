// The CLI's HTTP transport until sync/'s typed client lands (issue 3), written to the same contract
// so the swap is local to session.ts: bearer token, one refresh on a 403 (concurrent requests wait
// for it and retry), the stored session dropped on a 401 or a failed refresh, catalogue errors
// thrown as AppError.
import { AppError, isErrorCode, type ValidationIssue } from '@zapdesk/sync';
import { NetworkError } from '../errors.ts';

/** Where the refresh token lives: the browser keeps it in an httpOnly cookie, the CLI in its config. */
export type TokenStore = {
  accessToken(): string | undefined;
  refreshToken(): string | undefined;
  save(tokens: { accessToken: string; refreshToken: string | undefined }): void;
  clear(): void;
};

export type Query = Record<string, string | number | boolean | undefined>;
export type RequestOptions = { body?: unknown; query?: Query; auth?: boolean };

export type Api = {
  baseUrl: string;
  request<T>(method: string, path: string, opts?: RequestOptions): Promise<T>;
  /** POST /auth/login: the refresh cookie of the answer is handed to the store. */
  login<T>(email: string, password: string): Promise<T>;
  logout(): Promise<void>;
};

export const REFRESH_COOKIE = 'jrt';

export function createHttpApi(baseUrl: string, store: TokenStore): Api {
  let refreshing: Promise<boolean> | undefined;

  async function send(method: string, path: string, opts: RequestOptions, token: string | undefined, cookie?: string) {
    const url = new URL(path, `${baseUrl}/`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'zapdesk-cli' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (cookie) headers.cookie = `${REFRESH_COOKIE}=${cookie}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await fetch(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    } catch (err) {
      throw new NetworkError(baseUrl, err);
    }
  }

  /** One refresh at a time; every request that met a 403 meanwhile waits for the same outcome. */
  function refreshOnce(): Promise<boolean> {
    refreshing ??= (async () => {
      const presented = store.refreshToken();
      if (!presented) return false;
      const res = await send('POST', '/auth/refresh_token', {}, undefined, presented);
      if (!res.ok) return false;
      const body = (await res.json()) as { token: string };
      store.save({ accessToken: body.token, refreshToken: readRefreshCookie(res) ?? presented });
      return true;
    })().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  }

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const auth = opts.auth !== false;
    if (auth && !store.accessToken() && store.refreshToken()) await refreshOnce();
    let res = await send(method, path, opts, auth ? store.accessToken() : undefined);
    if (auth && res.status === 403 && (await peekCode(res)) === 'ERR_TOKEN_EXPIRED') {
      if (!(await refreshOnce())) {
        store.clear();
        throw new AppError('ERR_SESSION_EXPIRED');
      }
      res = await send(method, path, opts, store.accessToken());
    }
    if (auth && res.status === 401) store.clear();
    return readBody<T>(res);
  }

  return {
    baseUrl,
    request,
    async login<T>(email: string, password: string) {
      const res = await send('POST', '/auth/login', { body: { email, password } }, undefined);
      const body = await readBody<T & { token: string }>(res);
      store.save({ accessToken: body.token, refreshToken: readRefreshCookie(res) });
      return body;
    },
    async logout() {
      const token = store.accessToken();
      const cookie = store.refreshToken();
      try {
        if (token || cookie) await send('DELETE', '/auth/logout', {}, token, cookie);
      } finally {
        store.clear();
      }
    },
  };
}

function readRefreshCookie(res: Response): string | undefined {
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${REFRESH_COOKIE}=`));
  const value = set?.split(';')[0]?.slice(REFRESH_COOKIE.length + 1);
  return value || undefined;
}

async function peekCode(res: Response): Promise<string | undefined> {
  try {
    return ((await res.clone().json()) as { error?: string }).error;
  } catch {
    return undefined;
  }
}

type ErrorBody = { error?: unknown; message?: unknown; issues?: ValidationIssue[] } & Record<string, unknown>;

async function readBody<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (res.ok) return body as T;
  const err = (body ?? {}) as ErrorBody;
  const code = isErrorCode(err.error) ? err.error : res.status >= 500 ? 'ERR_INTERNAL_SERVER_ERROR' : undefined;
  if (code) {
    const { error: _e, message, issues, ...details } = err;
    throw new AppError(code, typeof message === 'string' ? message : undefined, { issues, details });
  }
  // A code this build does not know (a newer server): shown as is, as the web does (spec/01 §8).
  throw Object.assign(new Error(typeof err.error === 'string' ? err.error : `HTTP ${res.status}`), {
    code: typeof err.error === 'string' ? err.error : undefined,
  });
}
