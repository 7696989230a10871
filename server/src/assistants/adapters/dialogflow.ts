// Dialogflow ES (queue integration type `dialogflow`): `detectIntent` on the agent of the pasted
// service-account JSON (stored sealed), one session per contact, in the integration's language
// (pt-BR, en, es). The access token comes from the account's key: a JWT signed RS256 exchanged at its
// `token_uri` (kept until a minute before it expires). The fulfilment texts are sent; an intent
// that ends the interaction (`endInteraction`, or the live-agent handoff message) hands over.
// DIALOGFLOW_BASE_URL (config) points it elsewhere; tests use a local fake for both calls.
import { createSign } from 'node:crypto';
import type { TargetPolicy } from '../../webhooks/target.ts';
import { fetchTarget, postJson } from './http.ts';
import type { Reply, TurnContext, TurnOutcome } from './types.ts';

export type ServiceAccount = { project_id: string; client_email: string; private_key: string; token_uri?: string };
export type DialogflowConfig = { account: ServiceAccount; language: string; baseUrl: string };

const SCOPE = 'https://www.googleapis.com/auth/dialogflow';
const tokens = new Map<string, { token: string; until: number }>();

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

async function accessToken(account: ServiceAccount, signal: AbortSignal, targets: TargetPolicy): Promise<string> {
  const tokenUri = account.token_uri ?? 'https://oauth2.googleapis.com/token';
  const cacheKey = `${tokenUri}\n${account.client_email}`;
  const cached = tokens.get(cacheKey);
  if (cached && cached.until > Date.now()) return cached.token;
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))}.${b64url(JSON.stringify({ iss: account.client_email, scope: SCOPE, aud: tokenUri, iat: now, exp: now + 3600 }))}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(account.private_key);
  // The key's token URI is the pasted JSON's: guarded as any URL a tenant typed.
  const res = await fetchTarget(
    tokenUri,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: `${unsigned}.${b64url(signature)}` }).toString(),
      signal,
    },
    targets,
  );
  const body = (await res.json().catch(() => ({}))) as { access_token?: string; expires_in?: number };
  if (!res.ok || !body.access_token) throw new Error(`Dialogflow credentials refused (${res.status})`);
  tokens.set(cacheKey, { token: body.access_token, until: Date.now() + Math.max(60, (body.expires_in ?? 3600) - 60) * 1000 });
  return body.access_token;
}

type DetectAnswer = {
  queryResult?: {
    fulfillmentText?: string;
    fulfillmentMessages?: { text?: { text?: string[] }; liveAgentHandoff?: unknown; endInteraction?: unknown }[];
    intent?: { displayName?: string; endInteraction?: boolean; liveAgentHandoff?: boolean };
  };
};

export async function answerWithDialogflow(cfg: DialogflowConfig, ctx: TurnContext, text: string): Promise<TurnOutcome> {
  const token = await accessToken(cfg.account, ctx.signal, ctx.targets);
  const session = `zapdesk-${ctx.company.id}-${ctx.contact.id}`;
  const url = `${cfg.baseUrl.replace(/\/+$/, '')}/v2/projects/${encodeURIComponent(cfg.account.project_id)}/agent/sessions/${session}:detectIntent`;
  const answer = await postJson(url, JSON.stringify({ queryInput: { text: { text: text.slice(0, 256), languageCode: cfg.language } } }), {
    headers: { authorization: `Bearer ${token}` },
    signal: ctx.signal,
  });
  const result = (answer.body as DetectAnswer | undefined)?.queryResult ?? {};
  const messages = result.fulfillmentMessages ?? [];
  const texts = messages.flatMap((m) => m.text?.text ?? []).filter((t) => t.trim() !== '');
  const replies: Reply[] = (texts.length > 0 ? texts : result.fulfillmentText ? [result.fulfillmentText] : []).map((t) => ({ text: t }));
  const ends = result.intent?.endInteraction === true || result.intent?.liveAgentHandoff === true || messages.some((m) => m.liveAgentHandoff !== undefined || m.endInteraction !== undefined);
  return ends ? { replies, handOver: { queueId: null, reason: `intent ${result.intent?.displayName ?? ''} ends the conversation`.trim() } } : { replies };
}

/** The pasted JSON, checked: a service account's key with its project. */
export function parseServiceAccount(json: string): ServiceAccount | undefined {
  try {
    const v = JSON.parse(json) as Partial<ServiceAccount>;
    if (typeof v.project_id === 'string' && typeof v.client_email === 'string' && typeof v.private_key === 'string') {
      return { project_id: v.project_id, client_email: v.client_email, private_key: v.private_key, token_uri: typeof v.token_uri === 'string' ? v.token_uri : undefined };
    }
  } catch {
    // not JSON
  }
  return undefined;
}
