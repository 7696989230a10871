// The chat's pure rules (spec/02 §2.2, §4): ticks by ack, the queued and failed sends of the
// outbox (DESIGN §12), date separators (dd/MM/yyyy), the "conversation started/closed" marks,
// bubbles of one side grouped, REST pages merged with the synced newest messages, and the
// location body format.
import type { Message } from '@zapdesk/sync';

export type Tick = 'clock' | 'sent' | 'delivered' | 'read';

/** Ack 0: not sent yet (clock); 1 one tick; 2 delivered (double); 3 and above double; 4 and 5 coloured (read). */
export function tickOf(ack: number): Tick {
  if (ack <= 0) return 'clock';
  if (ack === 1) return 'sent';
  if (ack >= 4) return 'read';
  return 'delivered';
}

/** The catalogue code of a send that failed and said nothing more. */
const FALLBACK_SEND_ERROR = 'ERR_SENDING_WAPP_MSG';
/** The server stopped mid-send (DESIGN §12): the message may have left; a resend may duplicate it. */
export const SEND_UNCONFIRMED = 'ERR_SEND_UNCONFIRMED';

/**
 * What goes where the ticks go on one of our messages (DESIGN §12): `queued` waits in the outbox
 * (clock), `tick` is the network's ack, `failed` carries the catalogue code that words the reason.
 * Inbound messages have none.
 */
export type SendMark =
  | { kind: 'queued' }
  | { kind: 'tick'; tick: Tick }
  | { kind: 'failed'; code: string; unconfirmed: boolean };

export function sendMarkOf(m: Pick<Message, 'fromMe' | 'ack' | 'sendStatus' | 'sendError'>): SendMark | null {
  if (!m.fromMe) return null;
  if (m.sendStatus === 'failed') {
    const code = m.sendError || FALLBACK_SEND_ERROR;
    return { kind: 'failed', code, unconfirmed: code === SEND_UNCONFIRMED };
  }
  // Queued again after a resend, whatever ack the row held before.
  if (m.sendStatus === 'queued') return { kind: 'queued' };
  return { kind: 'tick', tick: tickOf(m.ack) };
}

/** dd/MM/yyyy in the viewer's time zone. */
export function dayLabel(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

export function timeLabel(iso: string): string {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** A row of the chat: a day separator, a mark, or a message (first of a run of one side or not). */
export type ChatRow =
  | { kind: 'day'; key: string; label: string }
  | { kind: 'mark'; key: string; mark: 'started' | 'closed' }
  | { kind: 'message'; key: string; message: Message; first: boolean };

/** The key of a message row: the local bubble keeps its own until the server's message replaces it. */
export const messageRowKey = (m: Message) => (m.id < 0 ? m.wid : `m${m.id}`);

/**
 * Rows in drawing order. `hasOlder` false means the first message is the conversation's start;
 * `closed` adds the closing mark after the last message.
 */
export function buildChatRows(messages: readonly Message[], opts: { hasOlder: boolean; closed: boolean }): ChatRow[] {
  const rows: ChatRow[] = [];
  if (!opts.hasOlder && messages.length) rows.push({ kind: 'mark', key: 'started', mark: 'started' });
  let day = '';
  let prev: Message | undefined;
  for (const m of messages) {
    const label = dayLabel(m.createdAt);
    if (label !== day) {
      rows.push({ kind: 'day', key: `d${label}`, label });
      day = label;
      prev = undefined;
    }
    rows.push({ kind: 'message', key: messageRowKey(m), message: m, first: !prev || prev.fromMe !== m.fromMe });
    prev = m;
  }
  if (opts.closed && messages.length) rows.push({ kind: 'mark', key: 'closed', mark: 'closed' });
  return rows;
}

const byTime = (a: Message, b: Message) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id;

/**
 * The chat's messages, oldest first: REST pages and the synced rows by id (the synced row wins, it
 * is the fresher), the optimistic local ones last in their time order.
 */
export function mergeMessages(paged: readonly Message[], synced: readonly Message[]): Message[] {
  const byId = new Map<string, Message>();
  for (const m of paged) byId.set(messageRowKey(m), m);
  for (const m of synced) byId.set(messageRowKey(m), m);
  return [...byId.values()].sort(byTime);
}

/** A location body is "image|link|description" (the description optional). */
export function parseLocation(body: string): { image: string; link: string; description: string } {
  const [image = '', link = '', ...rest] = body.split('|');
  return { image, link, description: rest.join('|') };
}

/** The name and phone numbers of a vCard body. */
export function parseVcard(body: string): { name: string; numbers: string[] } {
  const name = /^FN[^:]*:(.*)$/m.exec(body)?.[1]?.trim() ?? '';
  const numbers = [...body.matchAll(/^TEL[^:]*:(.*)$/gm)].map((m) => m[1]!.trim()).filter(Boolean);
  return { name, numbers };
}
