// n8n and generic webhooks (queue integration types `n8n`, `webhook`): each customer message is
// POSTed as JSON to the integration's URL with the company, connection, ticket, contact and message
// (ids, text, a link to download its media), signed so the receiver can trust it:
//
//   X-Zapdesk-Event: message.received
//   X-Zapdesk-Delivery: <id>          the same on every retry of one delivery (de-duplicate on it)
//   X-Zapdesk-Timestamp: <unix seconds>
//   X-Zapdesk-Signature: sha256=<hex HMAC-SHA256 of `${timestamp}.${raw body}` under the signing secret>
//
// The answer may carry what to say: `{"reply": "text"}`, `{"replies": ["a", "b"]}` (or objects
// `{"text", "mediaUrl"}`), and `{"handover": true}` (or `{"handover": {"queueId": 3}}`) to hand the
// customer to people. An empty 2xx answer says nothing. A 5xx, a 429 or no answer is retried with
// backoff (the runtime); a 4xx is not.
import { createHmac } from 'node:crypto';
import { postJson } from './http.ts';
import type { Reply, TurnContext, TurnOutcome } from './types.ts';

export type WebhookConfig = { type: 'n8n' | 'webhook'; url: string; secret: string | null };

export function signPayload(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export function webhookPayload(ctx: TurnContext) {
  const m = ctx.message;
  return {
    event: 'message.received',
    deliveryId: ctx.deliveryId,
    company: ctx.company,
    connection: ctx.connection,
    ticket: ctx.ticket,
    contact: ctx.contact,
    message: m ? { id: m.id, body: m.body, mediaType: m.mediaType, mediaUrl: m.mediaUrl, fromMe: m.fromMe, createdAt: m.createdAt } : null,
  };
}

export async function answerWithWebhook(cfg: WebhookConfig, ctx: TurnContext): Promise<TurnOutcome> {
  const body = JSON.stringify(webhookPayload(ctx));
  const timestamp = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'user-agent': 'zapdesk-webhooks/1',
    'x-zapdesk-event': 'message.received',
    'x-zapdesk-delivery': ctx.deliveryId,
    'x-zapdesk-timestamp': String(timestamp),
  };
  if (cfg.secret) headers['x-zapdesk-signature'] = signPayload(cfg.secret, timestamp, body);
  const answer = await postJson(cfg.url, body, { headers, signal: ctx.signal, targets: ctx.targets });
  return outcomeOf(answer.body);
}

function outcomeOf(body: unknown): TurnOutcome {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { replies: [] };
  const b = body as { reply?: unknown; replies?: unknown; text?: unknown; handover?: unknown };
  const replies: Reply[] = [];
  const add = (r: unknown) => {
    if (typeof r === 'string' && r.trim()) replies.push({ text: r });
    else if (r && typeof r === 'object') {
      const o = r as { text?: unknown; mediaUrl?: unknown };
      const text = typeof o.text === 'string' ? o.text : '';
      if (typeof o.mediaUrl === 'string' && /^https?:\/\//.test(o.mediaUrl)) replies.push({ text, media: { url: o.mediaUrl, kind: 'file' } });
      else if (text.trim()) replies.push({ text });
    }
  };
  add(b.reply ?? b.text);
  if (Array.isArray(b.replies)) b.replies.slice(0, 20).forEach(add);
  const h = b.handover;
  const queueId = h && typeof h === 'object' && Number.isInteger((h as { queueId?: unknown }).queueId) ? ((h as { queueId: number }).queueId) : null;
  return h ? { replies, handOver: { queueId, reason: 'the webhook handed over' } } : { replies };
}
