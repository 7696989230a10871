// WebSocket GET /sync/ws?token=<access token>: pokes and the few non-data events (auth, payment).
// The token is checked like requireAuth does (signature, expiry, live session). A refused socket
// is still accepted long enough to say why: `{"type":"auth","reason":…}` then a close code the
// client acts on (4001 expired: refresh and reconnect; 4003 ended: sign out).
//
// The client may also send its Replicache pulls here (`{"type":"pull","id":n,"body":<PullRequest>}`,
// answered `{"type":"pull","id":n,"ok":…,"body":…}`): after a poke every connected client pulls at
// once, and on the open socket a pull skips the HTTP request's parsing and objects on both sides.
// Each pull is the same as POST /sync/pull (sync/service.ts): the socket's token checked again
// (expired: the answer is the error and the socket closes with 4001) and the session read.
//
// Once a client has pulled here, a poke carries the answer to its next pull: the socket keeps the
// client's last request (with the cookie it was answered), runs that pull itself when poked and
// sends `{"type":"poke","pull":{"request":…,"response":…}}`. The client still pulls (Replicache
// asks its puller), and the puller takes the answer when its request starts from the same cookie;
// otherwise (it pulled elsewhere meanwhile) it asks as before. So after a change every poked client
// gets its patch in the one message, and the server answers the whole company's pulls in one pass.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '@zapdesk/sync';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { verifyAccessToken } from '../auth/tokens.ts';
import type { AppDeps } from '../context.ts';
import { INSTANCE_HEADER } from '../http/instance.ts';
import type { PullAnswer } from '../sync/pull-thread.ts';
import { syncServiceOf } from '../sync/service.ts';
import { CLOSE_SESSION_ENDED, CLOSE_TOKEN_EXPIRED, type ServerEvent } from './hub.ts';
import { createLiveChannels } from './channels.ts';
import { createPresence, type PresenceOptions } from './presence.ts';

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

/** The largest message a client may send: a pull request (ids and a cookie). */
const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;

type ClientMessage = { type: 'pull'; id: number; body: unknown } | { type: 'join' | 'leave'; channel: unknown };

/** A well-formed pull, join or leave message, else undefined (ignored). */
function messageOf(data: RawData): ClientMessage | undefined {
  try {
    const m = JSON.parse(String(data)) as { type?: unknown; id?: unknown; body?: unknown; channel?: unknown } | null;
    if (!m) return undefined;
    if (m.type === 'pull' && Number.isSafeInteger(m.id)) return { type: 'pull', id: m.id as number, body: m.body };
    if (m.type === 'join' || m.type === 'leave') return { type: m.type, channel: m.channel };
    return undefined;
  } catch {
    return undefined;
  }
}

export function attachSyncSocket(server: Server, deps: AppDeps, opts: { pingIntervalMs?: number; presence?: PresenceOptions } = {}) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES });
  // The upgrade names the instance like every HTTP answer (http/instance.ts).
  wss.on('headers', (headers) => headers.push(`${INSTANCE_HEADER}: ${deps.instanceId}`));
  const sync = syncServiceOf(deps);
  // users.online: set while a socket of the user is open here or on another instance (presence.ts).
  const presence = createPresence(deps, opts.presence);
  // The per-company live channels a socket joins by name (channels.ts).
  const channels = createLiveChannels(deps);
  const alive = new WeakMap<WebSocket, boolean>();
  // A failure that is not a catalogue error is a bug: logged with its stack.
  const logUnexpected = (what: string, err: unknown) => deps.log.error(what, { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });

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
    const sendText = (text: string) => {
      if (ws.readyState === ws.OPEN) ws.send(text);
    };
    const send = (m: ServerEvent) => sendText(JSON.stringify(m));
    // What the client sends while its token is checked (a join sent on `open`) waits for the
    // handler below instead of being dropped.
    const early: RawData[] = [];
    const hold = (data: RawData) => void (early.length < 64 && early.push(data));
    ws.on('message', hold);
    const auth = await authenticate(deps, token).catch(() => 'invalid' as const);
    if (typeof auth === 'string') {
      send({ type: 'auth', reason: auth });
      ws.close(auth === 'expired' ? CLOSE_TOKEN_EXPIRED : CLOSE_SESSION_ENDED, auth);
      return;
    }
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));
    const live = { companyId: auth.companyId, userId: auth.userId, send };
    channels.opened(live);
    // Anything a client sends proves it is alive; a pull, join or leave is answered, anything else ignored.
    const onMessage = (data: RawData) => {
      alive.set(ws, true);
      const m = messageOf(data);
      if (m?.type === 'pull') void answerPull(m.id, m.body);
      else if (m?.type === 'join') void channels.join(live, m.channel);
      else if (m?.type === 'leave') channels.leave(live, m.channel);
    };
    ws.off('message', hold);
    ws.on('message', onMessage);
    // The client's last pull here, with the cookie of the answer it got: what a poke runs for it.
    let nextPull: Record<string, unknown> | undefined;
    const remember = (request: unknown, answer: PullAnswer) => {
      nextPull = answer.cookie !== undefined && request && typeof request === 'object' ? { ...request, cookie: answer.cookie } : undefined;
    };
    async function answerPull(id: number, body: unknown) {
      try {
        const answer = await sync.pull(token, body);
        remember(body, answer);
        // The answer is JSON text already (ServerEvent's pull, its body put in as it is).
        sendText(`{"type":"pull","id":${id},"ok":true,"body":${answer.text}}`);
      } catch (err) {
        const e = err instanceof AppError ? err : new AppError('ERR_INTERNAL_SERVER_ERROR');
        if (!(err instanceof AppError)) logUnexpected('sync pull over the socket failed', err);
        send({ type: 'pull', id, ok: false, body: e.toBody() });
        if (e.code === 'ERR_TOKEN_EXPIRED') ws.close(CLOSE_TOKEN_EXPIRED, 'expired');
      }
    }
    // Gone while its token was checked: no close event will come to unregister it.
    if (ws.readyState !== ws.OPEN) return channels.closed(live);
    for (const data of early.splice(0)) onMessage(data);
    // A poke runs the client's next pull and carries its answer; pokes that come while it runs
    // are folded into one more run after it. Any failure sends the bare poke: the client pulls
    // itself and meets the error (expired token, revoked session) on its own request.
    let prefetching = false;
    let pokedAgain = false;
    const unexpected = (err: unknown) => {
      if (!(err instanceof AppError)) logUnexpected('sync pull for a poke failed', err);
      return undefined;
    };
    async function poke() {
      if (prefetching) {
        pokedAgain = true;
        return;
      }
      prefetching = true;
      try {
        do {
          pokedAgain = false;
          const request = nextPull;
          if (!request) {
            send({ type: 'poke' });
            continue;
          }
          const answer = await sync.pull(token, request).catch(unexpected);
          if (answer && answer.cookie !== undefined) {
            remember(request, answer);
            sendText(`{"type":"poke","pull":{"request":${JSON.stringify(request)},"response":${answer.text}}}`);
          } else {
            nextPull = undefined;
            send({ type: 'poke' });
          }
          // A socket that closed meanwhile has nobody to run pulls for.
        } while (pokedAgain && ws.readyState === ws.OPEN);
      } finally {
        prefetching = false;
      }
    }
    const unregister = deps.realtime.register({
      ...auth,
      send: (m) => (m.type === 'poke' ? void poke() : send(channels.renamed(live, m))),
      close: (code, reason) => ws.close(code, reason),
    });
    const present = presence.opened(auth.companyId, auth.userId);
    ws.on('close', () => {
      unregister();
      channels.closed(live);
      presence.closed(auth.companyId, auth.userId);
    });
    ws.on('error', () => ws.terminate());
    // Ready once the user is marked online, so the client's first pull already shows it.
    await present;
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
    presence.heartbeat();
  }, opts.pingIntervalMs ?? PING_INTERVAL_MS);
  heartbeat.unref();

  server.on('upgrade', onUpgrade);
  return {
    async close() {
      clearInterval(heartbeat);
      channels.close();
      server.off('upgrade', onUpgrade);
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await presence.close();
    },
  };
}
