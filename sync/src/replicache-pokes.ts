// The poke subscription: a WebSocket to /sync/ws that says "pull now". It reconnects with
// exponential backoff (at once when woken, e.g. the browser is back online) and says so on every
// (re)open (`onOpen`: catch up on the pokes it missed, push what waited), refreshes the
// access token when the server says it expired, and hands `auth` events (the session was replaced
// or revoked) to the app, which signs the user out. While it is open, pulls can travel on it too
// (`pull()`): the same request and response as POST /sync/pull, without an HTTP request each.
// A poke may bring the answer to the pull it asks for (the server ran the client's last request
// from the cookie it answered): it is handed to `onPoke`, which applies it or, if it does not fit
// the client's state, pulls.
import { AppError, isErrorCode } from './errors.ts';
import type { ApiClient } from './client.ts';

/** The part of the WebSocket API we use: the browser's, or the `ws` package's in Node. */
export type WebSocketLike = {
  readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  close(code?: number, reason?: string): void;
  send(data: string): void;
};
export type WebSocketFactory = (url: string) => WebSocketLike;

/** The answer a poke brought: the pull request the server ran for the client, and its response. */
export type BroughtPull = { request: { clientGroupID: string; cookie: unknown }; response: unknown };

export type PokeSubscriptionOptions = {
  api: ApiClient;
  createSocket: WebSocketFactory;
  /** Pull now; `brought` is the answer to that pull when the poke carried one. */
  onPoke: (brought?: BroughtPull) => void;
  /**
   * The server registered the socket, the first time or after a drop: the pokes sent meanwhile are
   * lost, and the network is back. Default: `onPoke()` (one pull catches up).
   */
  onOpen?: () => void;
  onAuth?: (reason: string) => void;
  /** A non-data event of the user's company (`payment` with action CONCLUIDA, spec/03 §4). */
  onEvent?: (channel: string, data: unknown) => void;
  /** First reconnect delay; doubles up to maxDelayMs, with jitter. */
  minDelayMs?: number;
  maxDelayMs?: number;
};

/** A well-formed answer carried by a poke, else undefined (the poke is then a plain one). */
function broughtPull(v: unknown): BroughtPull | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  const { request, response } = v as { request?: unknown; response?: unknown };
  if (request === null || typeof request !== 'object' || response === null || typeof response !== 'object') return undefined;
  const { clientGroupID } = request as { clientGroupID?: unknown };
  if (typeof clientGroupID !== 'string' || !('cookie' in request)) return undefined;
  return { request: request as BroughtPull['request'], response };
}

const CLOSE_TOKEN_EXPIRED = 4001;
const CLOSE_SESSION_ENDED = 4003;

export function subscribePokes(opts: PokeSubscriptionOptions) {
  const min = opts.minDelayMs ?? 500;
  const max = opts.maxDelayMs ?? 30_000;
  let attempt = 0;
  let socket: WebSocketLike | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let open = false;
  // Woken while a try was under way: if that try fails, the next one starts at once.
  let wokenDuringTry = false;
  const openWaiters = new Set<() => void>();
  // Waiting for the try under way to end, opened (true) or not (false).
  const settleWaiters = new Set<(opened: boolean) => void>();
  const settle = (opened: boolean) => {
    for (const w of settleWaiters) w(opened);
    settleWaiters.clear();
  };
  // Pulls sent on the socket, by id, until their answer (or the socket's end) settles them.
  const pulls = new Map<number, { resolve: (body: unknown) => void; reject: (err: unknown) => void }>();
  let lastPullId = 0;

  function failPulls() {
    for (const p of pulls.values()) p.reject(new Error('the sync socket closed'));
    pulls.clear();
  }

  function connect() {
    timer = undefined;
    const token = opts.api.getToken();
    if (stopped || !token) return; // no token, no socket (spec/01 §4)
    const url = new URL('/sync/ws', opts.api.baseUrl.replace(/^http/, 'ws') + '/');
    url.searchParams.set('token', token);
    const ws = opts.createSocket(url.toString());
    socket = ws;
    let ended = false;
    ws.onopen = () => {};
    ws.onmessage = (ev) => {
      let m: { type?: string; reason?: string; channel?: unknown; data?: unknown; id?: number; ok?: boolean; body?: { error?: unknown; message?: string }; pull?: unknown };
      try {
        m = JSON.parse(String(ev.data)) as typeof m;
      } catch {
        return;
      }
      if (m.type === 'ready') {
        // Authenticated and registered: pokes will come from now on.
        attempt = 0;
        open = true;
        for (const w of openWaiters) w();
        openWaiters.clear();
        settle(true);
        if (opts.onOpen) opts.onOpen();
        else opts.onPoke();
      } else if (m.type === 'poke') opts.onPoke(broughtPull(m.pull));
      else if (m.type === 'pull' && typeof m.id === 'number') {
        const p = pulls.get(m.id);
        pulls.delete(m.id);
        if (m.ok) p?.resolve(m.body);
        else p?.reject(isErrorCode(m.body?.error) ? new AppError(m.body.error, m.body.message) : new Error('the sync socket refused the pull'));
      }
      else if (m.type === 'event' && typeof m.channel === 'string') opts.onEvent?.(m.channel, m.data);
      else if (m.type === 'auth' && m.reason !== 'expired') {
        ended = true;
        opts.onAuth?.(m.reason ?? 'revoked');
      }
    };
    ws.onerror = () => {};
    ws.onclose = (ev) => {
      if (socket !== ws) return; // replaced by reconnect()
      socket = undefined;
      open = false;
      failPulls();
      settle(false);
      const woken = wokenDuringTry;
      wokenDuringTry = false;
      if (stopped || ended || ev.code === CLOSE_SESSION_ENDED) return;
      if (ev.code === CLOSE_TOKEN_EXPIRED) {
        // A fresh token first; a failed refresh signs out (the API client calls onLogout).
        opts.api.refresh().then(() => schedule(0), () => {});
        return;
      }
      schedule(woken ? 0 : undefined);
    };
  }

  function schedule(delay?: number) {
    if (stopped || timer) return;
    const wait = delay ?? Math.min(max, min * 2 ** attempt++) * (0.75 + Math.random() * 0.5);
    timer = setTimeout(connect, wait);
  }

  connect();
  return {
    isOpen: () => open,
    /** Sends a pull request on the open socket; rejects if it is not open or closes first. */
    pull(body: unknown): Promise<unknown> {
      const ws = socket;
      if (!open || !ws) return Promise.reject(new Error('the sync socket is not open'));
      const id = ++lastPullId;
      return new Promise((resolve, reject) => {
        pulls.set(id, { resolve, reject });
        try {
          ws.send(JSON.stringify({ type: 'pull', id, body }));
        } catch (err) {
          pulls.delete(id);
          reject(err);
        }
      });
    },
    /** Resolves once the server has registered the socket (tests and the benchmark wait for it). */
    whenOpen: () => (open ? Promise.resolve() : new Promise<void>((resolve) => openWaiters.add(resolve))),
    /**
     * Resolves once the try under way ends: true when the server registered the socket (by then it
     * has marked the user online, so a read made after it shows them online), false when the try
     * failed. At once when open (true) or when no try is under way (false: waiting out a delay,
     * closed, or no token).
     */
    settled(): Promise<boolean> {
      if (open) return Promise.resolve(true);
      if (!socket || stopped) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => settleWaiters.add(resolve));
    },
    /**
     * The network is back: connects now if the socket is waiting out its reconnect delay; if a try
     * is under way (it may have started before the network came back), the next one, should it
     * fail, starts at once instead of after the backoff. Open or closed for good: nothing.
     */
    wake() {
      if (stopped || open) return;
      attempt = 0;
      if (timer) {
        clearTimeout(timer);
        connect();
      } else if (socket) wokenDuringTry = true;
    },
    /** Reconnects now, e.g. after the user or company changed or the token was renewed. */
    reconnect() {
      const old = socket;
      socket = undefined;
      open = false;
      failPulls();
      old?.close(1000, 'reconnect');
      if (timer) clearTimeout(timer);
      timer = undefined;
      attempt = 0;
      connect();
    },
    close() {
      stopped = true;
      failPulls();
      settle(false);
      if (timer) clearTimeout(timer);
      socket?.close(1000, 'bye');
    },
  };
}
