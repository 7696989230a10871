import type { Message } from '@zapdesk/sync';
import { describe, expect, it } from 'vitest';
import { keepRecording, MIN_AUDIO_BYTES, pickAudioFormat, timerLabel } from './audio.ts';
import { matchQuickAnswers, newLocalId, quickLabel } from './compose.ts';
import { buildChatRows, dayLabel, mergeMessages, parseLocation, parseVcard, sendMarkOf, tickOf } from './messages.ts';

let seq = 0;
const msg = (over: Partial<Message>): Message => ({
  id: ++seq,
  wid: `w${seq}`,
  ticketId: 1,
  contactId: 1,
  contact: null,
  body: 'hi',
  mediaType: null,
  mediaUrl: null,
  fromMe: false,
  isDeleted: false,
  isEdited: false,
  ack: 0,
  sendStatus: null,
  sendError: null,
  read: true,
  quotedMsgId: null,
  quotedMsg: null,
  createdAt: '2026-03-01T12:00:00',
  updatedAt: '2026-03-01T12:00:00',
  version: 1,
  ...over,
});

describe('ticks by ack (spec/02 §4)', () => {
  it('0 is a clock, 1 one tick, 2 and 3 delivered, 4 and 5 read', () => {
    expect([0, 1, 2, 3, 4, 5].map(tickOf)).toEqual(['clock', 'sent', 'delivered', 'delivered', 'read', 'read']);
  });
});

describe('the mark of a sent message (DESIGN §12: outbox states)', () => {
  it('draws nothing on a contact’s message', () => {
    expect(sendMarkOf(msg({ fromMe: false, ack: 3 }))).toBeNull();
  });

  it('is a clock while queued, even for a message queued again after a resend', () => {
    expect(sendMarkOf(msg({ fromMe: true, ack: 0, sendStatus: 'queued' }))).toEqual({ kind: 'queued' });
    expect(sendMarkOf(msg({ fromMe: true, ack: 1, sendStatus: 'queued' }))).toEqual({ kind: 'queued' });
  });

  it('follows the ack once sent, and for our messages that predate the outbox', () => {
    expect(sendMarkOf(msg({ fromMe: true, ack: 1, sendStatus: 'sent' }))).toEqual({ kind: 'tick', tick: 'sent' });
    expect(sendMarkOf(msg({ fromMe: true, ack: 4, sendStatus: 'sent' }))).toEqual({ kind: 'tick', tick: 'read' });
    expect(sendMarkOf(msg({ fromMe: true, ack: 2, sendStatus: null }))).toEqual({ kind: 'tick', tick: 'delivered' });
    expect(sendMarkOf(msg({ fromMe: true, ack: 0, sendStatus: null }))).toEqual({ kind: 'tick', tick: 'clock' });
  });

  it('fails with the catalogue code of the row, a generic sending error when it has none', () => {
    expect(sendMarkOf(msg({ fromMe: true, sendStatus: 'failed', sendError: 'ERR_WAPP_INVALID_CONTACT' }))).toEqual({ kind: 'failed', code: 'ERR_WAPP_INVALID_CONTACT', unconfirmed: false });
    expect(sendMarkOf(msg({ fromMe: true, sendStatus: 'failed', sendError: null }))).toEqual({ kind: 'failed', code: 'ERR_SENDING_WAPP_MSG', unconfirmed: false });
  });

  it('marks a send the server could not confirm, whose resend may duplicate it', () => {
    expect(sendMarkOf(msg({ fromMe: true, sendStatus: 'failed', sendError: 'ERR_SEND_UNCONFIRMED' }))).toEqual({ kind: 'failed', code: 'ERR_SEND_UNCONFIRMED', unconfirmed: true });
  });
});

describe('chat rows', () => {
  it('puts a dd/MM/yyyy separator before each day and groups runs of one side', () => {
    const a = msg({ createdAt: '2026-03-01T09:00:00', fromMe: false });
    const b = msg({ createdAt: '2026-03-01T09:01:00', fromMe: false });
    const c = msg({ createdAt: '2026-03-01T09:02:00', fromMe: true });
    const d = msg({ createdAt: '2026-03-02T08:00:00', fromMe: true });
    const rows = buildChatRows([a, b, c, d], { hasOlder: true, closed: false });
    expect(rows.map((r) => (r.kind === 'message' ? `${r.message.id}${r.first ? '*' : ''}` : r.kind === 'day' ? r.label : r.mark))).toEqual([
      '01/03/2026',
      `${a.id}*`,
      `${b.id}`,
      `${c.id}*`,
      '02/03/2026',
      `${d.id}*`,
    ]);
  });

  it('marks the start when no older page exists and the close of a closed ticket', () => {
    const rows = buildChatRows([msg({})], { hasOlder: false, closed: true });
    expect(rows[0]).toMatchObject({ kind: 'mark', mark: 'started' });
    expect(rows.at(-1)).toMatchObject({ kind: 'mark', mark: 'closed' });
    expect(buildChatRows([], { hasOlder: false, closed: true })).toEqual([]);
  });

  it('formats the day in local time', () => {
    expect(dayLabel('2026-12-31T10:00:00')).toBe('31/12/2026');
  });
});

describe('merging REST pages with synced messages', () => {
  it('keeps one row per message, the synced one winning, oldest first, the optimistic bubble in time order', () => {
    const old = msg({ id: 10, createdAt: '2026-03-01T08:00:00', ack: 1 });
    const fresh = { ...old, ack: 4 };
    const later = msg({ id: 11, createdAt: '2026-03-01T09:00:00' });
    const local = msg({ id: -5, wid: 'local:abc', createdAt: '2026-03-01T10:00:00', fromMe: true });
    const merged = mergeMessages([old, later], [fresh, local]);
    expect(merged.map((m) => m.id)).toEqual([10, 11, -5]);
    expect(merged[0]!.ack).toBe(4);
  });
});

describe('media bodies', () => {
  it('reads a location as image|link|description', () => {
    expect(parseLocation('data:image/png;base64,AA|https://maps.google.com/?q=1,2|Main St | 10')).toEqual({
      image: 'data:image/png;base64,AA',
      link: 'https://maps.google.com/?q=1,2',
      description: 'Main St | 10',
    });
  });
  it('reads the name and numbers of a vCard', () => {
    expect(parseVcard('BEGIN:VCARD\nVERSION:3.0\nFN:Ana Lima\nTEL;type=CELL:+55 11 99999-0000\nEND:VCARD')).toEqual({ name: 'Ana Lima', numbers: ['+55 11 99999-0000'] });
  });
});

describe('audio recording (spec/02 §4, §9)', () => {
  it('discards recordings under 10,000 bytes', () => {
    expect(MIN_AUDIO_BYTES).toBe(10_000);
    expect(keepRecording(9_999)).toBe(false);
    expect(keepRecording(10_000)).toBe(true);
  });
  it('records in the first format the browser supports, or none', () => {
    expect(pickAudioFormat((m) => m.startsWith('audio/webm'))?.ext).toBe('webm');
    expect(pickAudioFormat(() => true)?.ext).toBe('ogg');
    expect(pickAudioFormat(() => false)).toBeUndefined();
  });
  it('shows the timer as mm:ss', () => {
    expect(timerLabel(0)).toBe('00:00');
    expect(timerLabel(75)).toBe('01:15');
  });
});

describe('quick answers on a leading slash', () => {
  const q = (id: number, shortcode: string, over: object = {}) => ({ id, shortcode, message: `text ${shortcode}`, mediaPath: null, mediaName: null, geral: false, status: true, userId: 7, ...over });
  const all = [q(1, 'hello'), q(2, 'help', { geral: true, userId: 9 }), q(3, 'hours', { userId: 9 }), q(4, 'helpdesk', { status: false })];

  it('needs "/" and more than one character, and offers my own and the shared ones', () => {
    expect(matchQuickAnswers('/', all, 7)).toEqual([]);
    expect(matchQuickAnswers('hel', all, 7)).toEqual([]);
    expect(matchQuickAnswers('/hel', all, 7).map((x) => x.shortcode)).toEqual(['hello', 'help']);
    expect(matchQuickAnswers('/ho', all, 7)).toEqual([]);
  });
  it('cuts labels at 35 characters', () => {
    expect(quickLabel('x'.repeat(40))).toBe(`${'x'.repeat(35)}…`);
    expect(quickLabel('short')).toBe('short');
  });
  it('makes local ids the sendMessage schema accepts', () => {
    expect(newLocalId()).toMatch(/^[0-9a-f]{16}$/);
    expect(newLocalId()).not.toBe(newLocalId());
  });
});
