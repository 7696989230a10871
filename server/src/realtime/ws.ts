// WebSocket GET /sync/ws?token=<access token>: pokes and the few non-data events (auth, payment).
// The token is checked like requireAuth does (signature, expiry, live session). A refused socket
// is still accepted long enough to say why: `{"type":"auth","reason":…}` then a close code the
// client acts on (4001 expired: refresh and reconnect; 4003 ended: sign out).
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { verifyAccessToken } from '../auth/tokens.ts';
import type { AppDeps } from '../context.ts';
import { CLOSE_SESSION_ENDED, CLOSE_TOKEN_EXPIRED, type ServerEvent } from './hub.ts';

export const SYNC_WS_PATH = '/sync/ws';
/** Ping interval (spec/01 §9: ping interval and timeout 18 s); a socket that misses one pong is dropped. */
export const PING_INTERVAL_MS = 18_000;

type Claims = { userId: number; companyId: number; sessionId: string };

async function authenticate(deps: AppDeps, token: string | null): Promise<Claims | 'expired' | 'invalid'> {
  if (!token) return 'invalid';
  const verified = await verifyAccessToken(token, deps.config.jwtSecret);
  if (!verified.ok) return verified.reason;
  const { sub, cid, sid } = verified.claims;
  const row = await deps.db
    .selectFrom('userSessions')
    .innerJoin('users', 'users.id', 'userSessions.userId')
    .select(['users.companyId'])
    .where('userSessions.id', '=', sid)
    .where('userSessions.revokedAt', 'is', null)
    .where('users.id', '=', sub)
    .executeTakeFirst();
  if (!row || row.companyId !== cid) return 'invalid';
  return { userId: sub, companyId: cid, sessionId: sid };
}

export function attachSyncSocket(server: Server, deps: AppDeps, opts: { pingIntervalMs?: number } = {}) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const alive = new WeakMap<WebSocket, boolean>();

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== SYNC_WS_PATH) {
      socket.write('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => void onConnection(ws, url.searchParams.get('token')));
  };

  async function onConnection(ws: WebSocket, token: string | null) {
    const send = (m: ServerEvent) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
    };
    const auth = await authenticate(deps, token).catch(() => 'invalid' as const);
    if (typeof auth === 'string') {
      send({ type: 'auth', reason: auth });
      ws.close(auth === 'expired' ? CLOSE_TOKEN_EXPIRED : CLOSE_SESSION_ENDED, auth);
      return;
    }
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));
    // Clients send nothing we act on; anything they send only proves they are alive.
    ws.on('message', () => alive.set(ws, true));
    const unregister = deps.realtime.register({ ...auth, send, close: (code, reason) => ws.close(code, reason) });
    ws.on('close', unregister);
    ws.on('error', () => ws.terminate());
    send({ type: 'ready' });
  }

  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, opts.pingIntervalMs ?? PING_INTERVAL_MS);
  heartbeat.unref();

  server.on('upgrade', onUpgrade);
  return {
    async close() {
      clearInterval(heartbeat);
      server.off('upgrade', onUpgrade);
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
