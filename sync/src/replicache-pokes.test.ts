// The answers pokes bring, as the poke subscription hands them on. A scripted socket stands in for
// the server (the real one: server/src/realtime/socket-pull.test.ts; real Replicache clients
// applying them: server/src/sync/sync.test.ts).
import { describe, expect, it } from 'vitest';
import { createApiClient } from './client.ts';
import { subscribePokes, type WebSocketLike } from './replicache-pokes.ts';

function scriptedSocket() {
  const sockets: (WebSocketLike & { sent: string[]; receive(m: unknown): void })[] = [];
  const createSocket = () => {
    const ws = {
      readyState: 1,
      onopen: null,
      onmessage: null,
      onclose: null,
      onerror: null,
      sent: [] as string[],
      send(data: string) {
        ws.sent.push(data);
      },
      close() {},
      receive(m: unknown) {
        ws.onmessage?.({ data: JSON.stringify(m) });
      },
    } as WebSocketLike & { sent: string[]; receive(m: unknown): void };
    sockets.push(ws);
    return ws;
  };
  return { sockets, createSocket };
}

const request = (order: number | null) => ({ pullVersion: 1, clientGroupID: 'g1', cookie: order === null ? null : { order }, profileID: 'p1', schemaVersion: '' });
const answer = (order: number) => ({ cookie: { order }, lastMutationIDChanges: {}, patch: [{ op: 'put', key: 'tag/1', value: { order } }] });

function subscribe() {
  const { sockets, createSocket } = scriptedSocket();
  const api = createApiClient({ baseUrl: 'http://127.0.0.1:9', token: 'a-token' });
  const pokes: unknown[] = [];
  const sub = subscribePokes({ api, createSocket, onPoke: (brought) => void pokes.push(brought), minDelayMs: 60_000 });
  sockets[0]!.receive({ type: 'ready' });
  return { sub, socket: sockets[0]!, pokes };
}

describe('answers brought by pokes', () => {
  it('hands the answer a poke brings to onPoke, and sends nothing', () => {
    const { sub, socket, pokes } = subscribe();
    socket.receive({ type: 'poke', pull: { request: request(3), response: answer(4) } });
    socket.receive({ type: 'poke', pull: { request: request(null), response: answer(1) } });
    expect(pokes).toEqual([undefined, { request: request(3), response: answer(4) }, { request: request(null), response: answer(1) }]);
    expect(socket.sent).toEqual([]);
    sub.close();
  });

  it('treats a bare or malformed answer as a plain poke', () => {
    const { sub, socket, pokes } = subscribe();
    socket.receive({ type: 'poke' });
    socket.receive({ type: 'poke', pull: 'nonsense' });
    socket.receive({ type: 'poke', pull: { request: 'not a request', response: answer(2) } });
    socket.receive({ type: 'poke', pull: { request: request(1) } });
    socket.receive({ type: 'poke', pull: { request: { cookie: { order: 1 } }, response: answer(2) } });
    socket.receive({ type: 'poke', pull: { request: { clientGroupID: 'g1' }, response: answer(2) } });
    expect(pokes).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
    sub.close();
  });
});

describe('settling the try under way', () => {
  it('answers true once the server says ready, false when the try fails first, and at once when nothing is trying', async () => {
    const { sockets, createSocket } = scriptedSocket();
    const api = createApiClient({ baseUrl: 'http://127.0.0.1:9', token: 'a-token' });
    const sub = subscribePokes({ api, createSocket, onPoke: () => {}, minDelayMs: 60_000 });
    const first = sub.settled();
    sockets[0]!.receive({ type: 'ready' });
    await expect(first).resolves.toBe(true);
    await expect(sub.settled()).resolves.toBe(true);

    sockets[0]!.onclose?.({ code: 1006, reason: '' });
    // Waiting out its delay (a minute here): no try to wait for.
    await expect(sub.settled()).resolves.toBe(false);
    sub.wake();
    const refused = sub.settled();
    sockets[1]!.onclose?.({ code: 1011, reason: 'refused' });
    await expect(refused).resolves.toBe(false);

    sub.wake();
    const closing = sub.settled();
    sub.close();
    await expect(closing).resolves.toBe(false);
  });
});

describe('reopening', () => {
  it('calls onOpen on every open, and after a drop connects again at once when woken', () => {
    const { sockets, createSocket } = scriptedSocket();
    const api = createApiClient({ baseUrl: 'http://127.0.0.1:9', token: 'a-token' });
    const events: string[] = [];
    const sub = subscribePokes({ api, createSocket, onPoke: () => void events.push('poke'), onOpen: () => void events.push('open'), minDelayMs: 60_000 });
    sockets[0]!.receive({ type: 'ready' });
    sub.wake(); // open: nothing to do
    expect(sockets).toHaveLength(1);

    sockets[0]!.onclose?.({ code: 1006, reason: '' });
    expect(sockets).toHaveLength(1); // waiting out its delay (a minute here)
    sub.wake();
    expect(sockets).toHaveLength(2);
    sockets[1]!.receive({ type: 'ready' });
    sockets[1]!.receive({ type: 'poke' });
    expect(events).toEqual(['open', 'open', 'poke']);

    sub.close();
    sub.wake();
    expect(sockets).toHaveLength(2);
  });

  it('woken while a try is under way, tries again at once if that try fails, and only then', async () => {
    const { sockets, createSocket } = scriptedSocket();
    const api = createApiClient({ baseUrl: 'http://127.0.0.1:9', token: 'a-token' });
    const sub = subscribePokes({ api, createSocket, onPoke: () => {}, minDelayMs: 60_000 });
    const ticks = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    sub.wake(); // the first try is under way (no `ready` yet): it started before the network came back
    expect(sockets).toHaveLength(1);
    sockets[0]!.onclose?.({ code: 1006, reason: '' });
    await ticks(5);
    expect(sockets).toHaveLength(2); // at once, not after the minute's backoff
    // Not woken this time: a second failure waits out the backoff.
    sockets[1]!.onclose?.({ code: 1006, reason: '' });
    await ticks(20);
    expect(sockets).toHaveLength(2);
    sub.close();
  });
});

describe('company events', () => {
  it('hands `event` messages (payment CONCLUIDA) to onEvent, not to onPoke; a nameless one is dropped', () => {
    const { sockets, createSocket } = scriptedSocket();
    const api = createApiClient({ baseUrl: 'http://127.0.0.1:9', token: 'a-token' });
    const pokes: unknown[] = [];
    const events: [string, unknown][] = [];
    const sub = subscribePokes({ api, createSocket, onPoke: (b) => void pokes.push(b), onEvent: (channel, data) => void events.push([channel, data]), minDelayMs: 60_000 });
    const socket = sockets[0]!;
    socket.receive({ type: 'ready' });
    socket.receive({ type: 'event', channel: 'payment', data: { action: 'CONCLUIDA', invoiceId: 7, dueDate: '2027-01-05T00:00:00.000Z' } });
    socket.receive({ type: 'event', data: { action: 'CONCLUIDA' } });
    expect(events).toEqual([['payment', { action: 'CONCLUIDA', invoiceId: 7, dueDate: '2027-01-05T00:00:00.000Z' }]]);
    expect(pokes).toEqual([undefined]);
    sub.close();
  });
});
