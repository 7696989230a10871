// A raw WebSocket consumer of the live channels (realtime/README.md, "Live channels"), as an
// external integrator would write one with the `ws` package: wait for `ready`, join and leave by
// name, and await the events of a channel.
import WebSocket from 'ws';
import { liveEventProblem } from './openapi-check.ts';

/** Events that did not match their documented schema (x-zapdesk-live-channels): a test file asserts none. */
export const liveProblems: string[] = [];

/** How long one awaited message may take: well under the test's own timeout. */
const WAIT_MS = 15_000;

export type Msg = { type: string; channel?: string; data?: Record<string, unknown>; error?: string };

export async function consumer(live: { url: string }, token: string) {
  const ws = new WebSocket(`${live.url.replace(/^http/, 'ws')}/sync/ws?token=${encodeURIComponent(token)}`);
  const got: Msg[] = [];
  const waiters: { test: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  ws.on('message', (raw) => {
    const m = JSON.parse(String(raw)) as Msg;
    if (m.type === 'event' && m.channel?.startsWith('company-')) {
      const problem = liveEventProblem(m.channel, m.data);
      if (problem) liveProblems.push(problem);
    }
    got.push(m);
    for (const w of [...waiters]) if (w.test(m)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(m);
    }
  });
  /**
   * The first message (already received or coming) that passes `test`. One that has not come
   * within `WAIT_MS` fails with the test's source and the messages received and not taken, so a
   * missing event names itself instead of timing the whole test out.
   */
  const next = (test: (m: Msg) => boolean) => {
    const seen = got.find(test);
    if (seen) {
      got.splice(got.indexOf(seen), 1);
      return Promise.resolve(seen);
    }
    return new Promise<Msg>((resolve, reject) => {
      const waiter = {
        test: (m: Msg) => (test(m) ? (got.splice(got.indexOf(m), 1), true) : false),
        resolve: (m: Msg) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(`no message passed ${String(test)} within ${WAIT_MS} ms; received and not taken: ${JSON.stringify(got.slice(-20))}`));
      }, WAIT_MS);
      waiters.push(waiter);
    });
  };
  await next((m) => m.type === 'ready');
  const send = (m: unknown) => ws.send(JSON.stringify(m));
  return {
    ws,
    got,
    next,
    async join(channel: string) {
      send({ type: 'join', channel });
      return next((m) => (m.type === 'joined' || m.type === 'error') && m.channel === channel);
    },
    async leave(channel: string) {
      send({ type: 'leave', channel });
      return next((m) => m.type === 'left' && m.channel === channel);
    },
    event: (channel: string, action?: string) => next((m) => m.type === 'event' && m.channel === channel && (!action || m.data?.action === action)),
    events: (channel: string) => got.filter((m) => m.type === 'event' && m.channel === channel),
  };
}

