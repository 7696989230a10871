// One delivery attempt: the payload POSTed with its signature, under a deadline. Same headers as
// the assistants' webhook adapter (assistants/adapters/webhook.ts), so one receiver code checks both:
//
//   X-Zapdesk-Event: ticket.created
//   X-Zapdesk-Delivery: <event id>    the same on every attempt (de-duplicate on it)
//   X-Zapdesk-Timestamp: <unix seconds>
//   X-Zapdesk-Signature: sha256=<hex HMAC-SHA256 of `${timestamp}.${raw body}` under the secret>
//
// Any 2xx is delivered; anything else (an error status, no answer, the deadline) is retried.
// node:http(s) with keep-alive agents rather than fetch: at a thousand posts a second, fetch's own
// cost per request was most of the worker's CPU time.
import http from 'node:http';
import https from 'node:https';
import { signPayload } from '../assistants/adapters/webhook.ts';
import type { Outcome } from './deliveries.ts';
import { ForbiddenTargetError, guardedLookup, staticTargetProblem, type TargetPolicy } from './target.ts';

const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 256 }), https: new https.Agent({ keepAlive: true, maxSockets: 256 }) };

/** `permanent`: the target is forbidden (SSRF guard, target.ts): failed at once, never retried. */
export type PostResult = Outcome & { ok: boolean; permanent?: boolean };

export function postDelivery(
  d: { url: string; secret: string; event: string; eventId: string; payload: string },
  timeoutMs: number,
  signal: AbortSignal,
  policy: TargetPolicy = { allowPrivate: false },
): Promise<PostResult> {
  const timestamp = Math.floor(Date.now() / 1000);
  const started = performance.now();
  const duration = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(d.url);
    } catch {
      return resolve({ ok: false, responseStatus: null, durationMs: 0, error: 'invalid URL' });
    }
    // Checked again at each delivery: the rules (or the setting) may have changed since it was registered.
    const problem = staticTargetProblem(d.url, policy);
    if (problem) return resolve({ ok: false, permanent: true, responseStatus: null, durationMs: 0, error: `refused: ${problem}` });
    const secure = url.protocol === 'https:';
    const body = Buffer.from(d.payload);
    const req = (secure ? https : http).request(url, {
      method: 'POST',
      agent: secure ? agents.https : agents.http,
      signal,
      timeout: timeoutMs,
      // The address the socket connects to is checked after resolution (a name that resolves to
      // 127.0.0.1, or DNS rebinding since the registration).
      ...(policy.allowPrivate ? {} : { lookup: guardedLookup(policy) }),
      headers: {
        'content-type': 'application/json',
        'content-length': body.length,
        'user-agent': 'zapdesk-webhooks/1',
        'x-zapdesk-event': d.event,
        'x-zapdesk-delivery': d.eventId,
        'x-zapdesk-timestamp': String(timestamp),
        'x-zapdesk-signature': signPayload(d.secret, timestamp, d.payload),
      },
    });
    let settled = false;
    const fail = (error: string, permanent = false) => {
      if (settled) return;
      settled = true;
      resolve({ ok: false, ...(permanent ? { permanent } : {}), responseStatus: null, durationMs: duration(), error: error.slice(0, 300) });
    };
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err) => (err instanceof ForbiddenTargetError ? fail(`refused: ${err.message}`, true) : fail(err.message)));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      // The body is not used, but read so the socket goes back to the pool.
      res.resume();
      res.on('end', () => {
        if (settled) return;
        settled = true;
        const ok = status >= 200 && status < 300;
        resolve({ ok, responseStatus: status, durationMs: duration(), error: ok ? null : `answered ${status}` });
      });
      res.on('error', (err) => fail(err.message));
    });
    req.end(body);
  });
}
