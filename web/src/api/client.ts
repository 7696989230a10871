// The web's one HTTP entry point. Every screen calls `api`; the session rules of spec/01 §4 live
// here: a 403 ERR_TOKEN_EXPIRED triggers one refresh (concurrent calls wait for it and retry), a 401
// or a failed refresh logs out. To be backed by the shared sync/ client once it lands.
import { readStoredJson, writeStoredJson } from '../session/storage.ts';
import { apiBaseUrl } from './config.ts';

export type Query = Record<string, string | number | boolean | undefined | null>;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly body: Record<string, unknown>;
  constructor(status: number, body: Record<string, unknown>) {
    const code = typeof body.error === 'string' ? body.error : undefined;
    super(typeof body.message === 'string' ? body.message : (code ?? `HTTP ${status}`));
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

type Hooks = { onLoggedOut: () => void; onRefreshed: (session: unknown) => void };
let hooks: Hooks = { onLoggedOut: () => {}, onRefreshed: () => {} };
export function setSessionHooks(next: Hooks): void {
  hooks = next;
}

let refreshing: Promise<boolean> | null = null;

/** One refresh at a time; everyone who hit a 403 meanwhile awaits the same promise. */
export function refreshToken(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      const res = await fetch(`${apiBaseUrl()}/auth/refresh_token`, { method: 'POST', credentials: 'include' });
      if (!res.ok) return false;
      const session = (await res.json()) as { token: string };
      writeStoredJson('token', session.token);
      hooks.onRefreshed(session);
      return true;
    } catch {
      return false;
    } finally {
      setTimeout(() => (refreshing = null), 0);
    }
  })();
  return refreshing;
}

function url(path: string, query?: Query): string {
  const u = new URL(`${apiBaseUrl()}${path}`);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) u.searchParams.set(k, String(v));
  return u.toString();
}

async function send<T>(method: string, path: string, opts: { body?: unknown; query?: Query; auth?: boolean } = {}, retried = false): Promise<T> {
  const auth = opts.auth !== false;
  const headers: Record<string, string> = {};
  const token = auth ? readStoredJson<string>('token') : null;
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url(path, opts.query), {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    credentials: auth ? 'include' : 'omit',
  });
  const text = await res.text();
  const body = text ? (JSON.parse(text) as unknown) : undefined;
  if (res.ok) return body as T;
  const error = new ApiError(res.status, (body && typeof body === 'object' ? body : {}) as Record<string, unknown>);
  if (auth && token && res.status === 403 && error.code === 'ERR_TOKEN_EXPIRED' && !retried) {
    if (await refreshToken()) return send<T>(method, path, opts, true);
    hooks.onLoggedOut();
  } else if (auth && token && res.status === 401) {
    hooks.onLoggedOut();
  }
  throw error;
}

export const api = {
  get: <T>(path: string, query?: Query) => send<T>('GET', path, { query }),
  post: <T>(path: string, body?: unknown) => send<T>('POST', path, { body }),
  put: <T>(path: string, body?: unknown) => send<T>('PUT', path, { body }),
  delete: <T>(path: string) => send<T>('DELETE', path),
  /** The second client of spec/01 §7: no credentials, for the public plan list and sign-up. */
  publicGet: <T>(path: string, query?: Query) => send<T>('GET', path, { query, auth: false }),
  publicPost: <T>(path: string, body?: unknown) => send<T>('POST', path, { body, auth: false }),
};
