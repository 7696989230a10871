// Calls between server instances (DESIGN §11): a command for a connection whose session runs on
// another instance travels there over the realtime bus (LISTEN/NOTIFY) and its answer comes back the
// same way. A NOTIFY payload holds under 8000 bytes, so a call or an answer is JSON in base64 (no
// escaping can grow it) cut into parts; the receiver puts the parts together. Nothing is retried
// here: the caller decides (it knows whether the call is safe to repeat).
import { randomUUID } from 'node:crypto';
import { AppError, type ErrorCode } from '@zapdesk/sync';
import type { Bus, BusMessage } from '../realtime/bus.ts';

/** Under the 8000-byte NOTIFY limit with the envelope around it. */
const PART_CHARS = 6000;
/**
 * A live instance says at once that it got a call (a reply of no parts), before running it: one
 * that does not within this time is taken for dead, however long the call itself may take.
 */
const RECEIVED_MS = 3_000;

export type RemoteHandler = (op: string, args: unknown) => Promise<unknown>;

export type RemoteCalls = {
  /** This instance's name on the bus (the connection leases' owner). */
  readonly self: string;
  /** Runs `op` on the instance `target`; rejects with its error, or ERR_WAPP_NOT_INITIALIZED when no answer came in time. */
  call<T>(target: string, op: string, args: unknown, timeoutMs: number): Promise<T>;
  /** Tells every other instance (no answer): settings of the simulated phones. */
  broadcast(op: string, args: unknown): Promise<void>;
  /** What this instance answers to calls addressed to it (one handler). */
  serve(handler: RemoteHandler): void;
  close(): void;
};

type Part = Extract<BusMessage, { kind: 'call' | 'reply' }>;
type Answer = { ok: true; value: unknown } | { ok: false; code?: string; message: string; details?: Record<string, unknown> };

export function createRemoteCalls(bus: Bus, self: string): RemoteCalls {
  let handler: RemoteHandler | undefined;
  const waiting = new Map<string, { resolve: (a: Answer) => void; received: () => void }>();
  // Parts received so far, by message id (a call and its reply share the id but not the kind), with
  // when the first came: the parts of a sender that died midway are dropped after a minute.
  const assembling = new Map<string, { parts: string[]; since: number }>();

  const send = async (kind: 'call' | 'reply', target: string, id: string, body: unknown) => {
    const data = Buffer.from(JSON.stringify(body)).toString('base64');
    const parts = Math.max(1, Math.ceil(data.length / PART_CHARS));
    for (let part = 0; part < parts; part++) {
      await bus.publish({ origin: self, kind, target, id, part, parts, data: data.slice(part * PART_CHARS, (part + 1) * PART_CHARS) });
    }
  };

  /** The whole body once its last part came (parts of one message arrive in order: one sender, one connection). */
  const assemble = (m: Part): unknown => {
    const key = `${m.kind}:${m.id}`;
    const now = Date.now();
    for (const [k, v] of assembling) if (now - v.since > 60_000) assembling.delete(k);
    const got = assembling.get(key) ?? { parts: [], since: now };
    got.parts[m.part] = m.data;
    if (got.parts.filter((p) => p !== undefined).length < m.parts) {
      assembling.set(key, got);
      return undefined;
    }
    assembling.delete(key);
    return JSON.parse(Buffer.from(got.parts.join(''), 'base64').toString('utf8'));
  };

  const answer = async (m: Part, body: { op: string; args: unknown }) => {
    if (m.target !== '*') await bus.publish({ origin: self, kind: 'reply', target: m.origin, id: m.id, part: 0, parts: 0, data: '' }).catch(() => undefined);
    let reply: Answer;
    try {
      if (!handler) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'This server instance is starting.');
      reply = { ok: true, value: await handler(body.op, body.args) };
    } catch (err) {
      reply = err instanceof AppError ? { ok: false, code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } : { ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    if (m.target !== '*') await send('reply', m.origin, m.id, reply).catch(() => undefined);
  };

  const unsubscribe = bus.subscribe((m) => {
    if ((m.kind !== 'call' && m.kind !== 'reply') || m.origin === self) return;
    if (m.target !== self && !(m.kind === 'call' && m.target === '*')) return;
    if (m.kind === 'reply' && m.parts === 0) return waiting.get(m.id)?.received();
    const body = assemble(m);
    if (body === undefined) return;
    if (m.kind === 'call') void answer(m, body as { op: string; args: unknown });
    else waiting.get(m.id)?.resolve(body as Answer);
  });

  return {
    self,
    async call<T>(target: string, op: string, args: unknown, timeoutMs: number): Promise<T> {
      const id = randomUUID();
      let timer: NodeJS.Timeout | undefined;
      const reply = new Promise<Answer | undefined>((resolve) => {
        const received = () => {
          clearTimeout(timer);
          timer = setTimeout(() => resolve(undefined), timeoutMs);
        };
        waiting.set(id, { resolve, received });
        timer = setTimeout(() => resolve(undefined), Math.min(RECEIVED_MS, timeoutMs));
      });
      try {
        // The bus reconnecting: nobody can be asked now, as if nobody answered.
        await send('call', target, id, { op, args }).catch(() => {
          throw new NoAnswer();
        });
        const a = await reply;
        if (!a) throw new NoAnswer();
        if (a.ok) return a.value as T;
        if (a.code) throw new AppError(a.code as ErrorCode, a.message, a.details ? { details: a.details } : {});
        throw new Error(a.message);
      } finally {
        clearTimeout(timer);
        waiting.delete(id);
      }
    },
    broadcast: (op, args) =>
      send('call', '*', randomUUID(), { op, args }).catch(() => {
        throw new NoAnswer();
      }),
    serve(h) {
      handler = h;
    },
    close: () => void unsubscribe(),
  };
}

/** The instance named did not answer in time (it may have died): the caller may look again. */
export class NoAnswer extends AppError {
  constructor() {
    super('ERR_WAPP_NOT_INITIALIZED', 'The server instance running this connection did not answer; try again.');
  }
}
