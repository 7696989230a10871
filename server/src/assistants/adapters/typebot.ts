// Typebot (queue integration type `typebot`): its chat API, `startChat` on the integration's
// server and slug, then `continueChat` with the session kept per ticket. Text, image, audio and
// video bubbles become messages; a choice input is shown as numbered options, and a reply naming a
// number (or an option's text) answers it. The integration's fields: delay between messages,
// session expiry in minutes (0: never), a keyword that ends the bot (the customer goes to people),
// a keyword that restarts it (with its restart message), and the message for a reply that picks no
// option. Rules in ../README.md.
import { postJson } from './http.ts';
import type { Reply, TurnContext, TurnOutcome } from './types.ts';

export type TypebotConfig = {
  url: string;
  slug: string;
  delayMs: number;
  expiresMinutes: number;
  keywordFinish: string | null;
  keywordRestart: string | null;
  restartMessage: string | null;
  unknownMessage: string | null;
};

/** What we keep of a session: Typebot's id, and the options of the choice it waits for. */
export type TypebotSession = { id: string; choices: string[] };

type Bubble = { type?: string; content?: { type?: string; markdown?: string; richText?: unknown; plainText?: string; url?: string } };
type ChatAnswer = { sessionId?: string; messages?: Bubble[]; input?: { type?: string; items?: { id?: string; content?: string }[] } };

const same = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

export async function answerWithTypebot(cfg: TypebotConfig, ctx: TurnContext, session: TypebotSession | undefined): Promise<TurnOutcome> {
  const text = ctx.message?.body.trim() ?? '';
  const gapMs = cfg.delayMs;
  if (cfg.keywordFinish && text && same(text, cfg.keywordFinish)) {
    return { replies: [], session: null, handOver: { queueId: null, reason: 'finish keyword' } };
  }
  if (cfg.keywordRestart && text && same(text, cfg.keywordRestart)) {
    return { replies: cfg.restartMessage ? [{ text: cfg.restartMessage }] : [], session: null };
  }
  const expiresAt = cfg.expiresMinutes > 0 ? new Date(Date.now() + cfg.expiresMinutes * 60_000).toISOString() : null;
  const base = cfg.url.replace(/\/+$/, '');
  if (!session) {
    const answer = await postJson(
      `${base}/api/v1/typebots/${encodeURIComponent(cfg.slug)}/startChat`,
      JSON.stringify({
        message: text ? { type: 'text', text } : undefined,
        isStreamEnabled: false,
        textBubbleContentFormat: 'markdown',
        prefilledVariables: { name: ctx.contact.name, number: ctx.contact.number, email: ctx.contact.email, ticketId: String(ctx.ticket.id), protocol: ctx.ticket.uuid },
      }),
      { signal: ctx.signal, targets: ctx.targets },
    );
    const chat = (answer.body ?? {}) as ChatAnswer;
    if (!chat.sessionId) throw new Error('Typebot answered no sessionId');
    return outcomeOf(chat, chat.sessionId, expiresAt, gapMs);
  }
  // A choice is answered with the option's own text, as Typebot matches it.
  let reply = text;
  if (session.choices.length > 0) {
    const n = /^\s*(\d{1,3})\s*\.?\s*$/.exec(text);
    const picked = n ? session.choices[Number(n[1]) - 1] : session.choices.find((c) => same(c, text));
    if (!picked) {
      const unknown = cfg.unknownMessage ? [{ text: cfg.unknownMessage }] : [];
      return { replies: [...unknown, { text: optionsText(session.choices) }], gapMs, session: { id: session.id, data: session.choices, expiresAt } };
    }
    reply = picked;
  }
  const answer = await postJson(
    `${base}/api/v1/sessions/${encodeURIComponent(session.id)}/continueChat`,
    JSON.stringify({ message: { type: 'text', text: reply }, textBubbleContentFormat: 'markdown' }),
    { signal: ctx.signal, targets: ctx.targets },
  );
  return outcomeOf((answer.body ?? {}) as ChatAnswer, session.id, expiresAt, gapMs);
}

function outcomeOf(chat: ChatAnswer, sessionId: string, expiresAt: string | null, gapMs: number): TurnOutcome {
  const replies: Reply[] = [];
  for (const bubble of chat.messages ?? []) {
    const reply = replyOf(bubble);
    if (reply) replies.push(reply);
  }
  const choices = chat.input?.type === 'choice input' ? (chat.input.items ?? []).map((i) => i.content ?? '').filter((c) => c !== '') : [];
  if (choices.length > 0) replies.push({ text: optionsText(choices) });
  // No input awaited: the bot's conversation is over, and people take it from here.
  if (!chat.input) return { replies, gapMs, session: null, handOver: { queueId: null, reason: 'the Typebot conversation ended' } };
  return { replies, gapMs, session: { id: sessionId, data: choices, expiresAt } };
}

function replyOf(bubble: Bubble): Reply | undefined {
  const c = bubble.content ?? {};
  switch (bubble.type) {
    case 'text': {
      const text = (c.markdown ?? c.plainText ?? plainOfRichText(c.richText)).trim();
      return text ? { text: whatsappMarkdown(text) } : undefined;
    }
    case 'image':
    case 'audio':
    case 'video':
      return c.url ? { text: '', media: { url: c.url, kind: bubble.type } } : undefined;
    case 'embed':
      return c.url ? { text: c.url } : undefined;
    default:
      return undefined;
  }
}

/** Typebot's markdown bold and italics in WhatsApp's own marks. */
export const whatsappMarkdown = (md: string) => md.replace(/\*\*(.+?)\*\*|\*([^*\n]+)\*/g, (_, bold?: string, italic?: string) => (bold !== undefined ? `*${bold}*` : `_${italic}_`));

function plainOfRichText(rich: unknown): string {
  if (!Array.isArray(rich)) return '';
  const walk = (n: unknown): string => {
    if (!n || typeof n !== 'object') return '';
    const node = n as { text?: string; children?: unknown[] };
    return (node.text ?? '') + (node.children ?? []).map(walk).join('');
  };
  return rich.map(walk).join('\n');
}

export const optionsText = (choices: string[]) => choices.map((c, i) => `*${i + 1}* - ${c}`).join('\n');
