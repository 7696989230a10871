// One delivery attempt: the payload POSTed with its signature, under a deadline. Same headers as
// the assistants' webhook adapter (assistants/adapters/webhook.ts), so one receiver code checks both:
//
//   X-Zapdesk-Event: ticket.created
//   X-Zapdesk-Delivery: <event id>    the same on every attempt (de-duplicate on it)
//   X-Zapdesk-Timestamp: <unix seconds>
//   X-Zapdesk-Signature: sha256=<hex HMAC-SHA256 of `${timestamp}.${raw body}` under the secret>
//
// Any 2xx is delivered; anything else (an error status, no answer, the deadline) is retried.
import { signPayload } from '../assistants/adapters/webhook.ts';
import type { Outcome } from './deliveries.ts';

export async function postDelivery(d: { url: string; secret: string; event: string; eventId: string; payload: string }, timeoutMs: number, signal: AbortSignal): Promise<Outcome & { ok: boolean }> {
  const timestamp = Math.floor(Date.now() / 1000);
  const started = performance.now();
  const duration = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(d.url, {
      method: 'POST',
      body: d.payload,
      redirect: 'manual',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'zapdesk-webhooks/1',
        'x-zapdesk-event': d.event,
        'x-zapdesk-delivery': d.eventId,
        'x-zapdesk-timestamp': String(timestamp),
        'x-zapdesk-signature': signPayload(d.secret, timestamp, d.payload),
      },
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    });
    // The body is not used, but read so the connection goes back to the pool.
    await res.arrayBuffer().catch(() => undefined);
    const ok = res.status >= 200 && res.status < 300;
    return { ok, responseStatus: res.status, durationMs: duration(), error: ok ? null : `answered ${res.status}` };
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : err instanceof Error ? err.message : String(err);
    return { ok: false, responseStatus: null, durationMs: duration(), error: cause.slice(0, 300) };
  }
}
