// The optimistic mutators write ticket/ and message/ values the UI reads like pulled ones: what they
// write must be valid under the same wire schemas the server answers with.
import type { WriteTransaction } from 'replicache';
import { describe, expect, it } from 'vitest';
import { messageSchema, type Message } from './domain/message.ts';
import { ticketSchema, type Ticket } from './domain/ticket.ts';
import { syncKey } from './keys.ts';
import { localMessageKey, mutators } from './mutators.ts';

/** Just enough of a Replicache write transaction: a sorted map with get, set and a prefix scan. */
function memoryTx(entries: Record<string, unknown>) {
  const store = new Map<string, unknown>(Object.entries(entries));
  const tx = {
    get: async (key: string) => store.get(key),
    set: async (key: string, value: unknown) => void store.set(key, value),
    scan: ({ prefix }: { prefix: string }) => ({
      values: () => ({ toArray: async () => [...store.keys()].sort().filter((k) => k.startsWith(prefix)).map((k) => store.get(k)) }),
    }),
  };
  return { tx: tx as unknown as WriteTransaction, store };
}

const at = '2026-11-22T10:00:00.000Z';
const ticket: Ticket = {
  id: 42,
  uuid: '6f1c1d52-4a3e-4d7b-9a57-0c2b8f1e9d10',
  status: 'pending',
  userId: null,
  user: null,
  queueId: 3,
  queue: { id: 3, name: 'Sales', color: '#00aa00' },
  whatsappId: 2,
  whatsapp: { id: 2, name: 'Line', status: 'CONNECTED' },
  contactId: 9,
  contact: { id: 9, name: 'Rita', number: '5521999990000', email: '', profilePicUrl: null, isGroup: false, disableBot: false },
  isGroup: false,
  chatbot: true,
  queueOptionId: null,
  lastMessage: 'hello',
  unreadMessages: 2,
  awaitingRating: false,
  useIntegration: false,
  promptId: null,
  integrationId: null,
  code: null,
  tags: [],
  lastInteractionAt: at,
  closedAt: null,
  createdAt: at,
  updatedAt: at,
  version: 4,
};
const inbound: Message = {
  id: 900,
  wid: 'WA-900',
  ticketId: 42,
  contactId: 9,
  contact: { id: 9, name: 'Rita' },
  body: 'hello',
  mediaType: null,
  mediaUrl: null,
  fromMe: false,
  isDeleted: false,
  isEdited: false,
  ack: 0,
  sendStatus: null,
  sendError: null,
  read: false,
  quotedMsgId: null,
  quotedMsg: null,
  createdAt: at,
  updatedAt: at,
  version: 1,
};
const me = { id: 5, name: 'Ana' };

function desk() {
  return memoryTx({
    [syncKey('ticket', 42)]: ticket,
    [syncKey('message', '42/900')]: inbound,
    [syncKey('user', 5)]: me,
    [syncKey('queue', 7)]: { id: 7, name: 'Support', color: '#0000aa' },
  });
}

describe('optimistic mutators', () => {
  it('sendMessage writes a message valid under messageSchema, quoting and signing as the server will', async () => {
    const { tx, store } = desk();
    await mutators.sendMessage(tx, { ticketId: 42, localId: 'abcdefgh12', body: 'On my way', quotedMsgId: 900, signMessage: true, userId: 5, sentAt: '2026-11-22T10:05:00.000Z' });
    const written = store.get(localMessageKey(42, 'abcdefgh12'));
    expect(messageSchema.parse(written)).toEqual(written);
    expect(written).toMatchObject({ body: '*Ana*:\nOn my way', fromMe: true, ack: 0, sendStatus: 'queued', quotedMsg: { id: 900, body: 'hello' } });
    expect((written as Message).id).toBeLessThan(0);
    expect(ticketSchema.parse(store.get(syncKey('ticket', 42)))).toMatchObject({ lastMessage: '*Ana*:\nOn my way', lastInteractionAt: '2026-11-22T10:05:00.000Z' });
  });

  it('the ticket mutators leave a ticket valid under ticketSchema', async () => {
    const { tx, store } = desk();
    const current = () => ticketSchema.parse(store.get(syncKey('ticket', 42)));
    await mutators.acceptTicket(tx, { ticketId: 42, userId: 5 });
    expect(current()).toMatchObject({ status: 'open', user: me, unreadMessages: 0, chatbot: false });
    await mutators.transferTicket(tx, { ticketId: 42, queueId: 7, userId: null, whatsappId: null });
    expect(current()).toMatchObject({ status: 'pending', user: null, queue: { id: 7, name: 'Support' } });
    await mutators.returnTicket(tx, { ticketId: 42 });
    await mutators.resolveTicket(tx, { ticketId: 42, userId: 5 });
    expect(current()).toMatchObject({ status: 'closed', user: me });
    expect(current().closedAt).not.toBeNull();
  });

  it('resendMessage puts a failed message back in the queue, still valid', async () => {
    const { tx, store } = memoryTx({ [syncKey('message', '42/901')]: { ...inbound, id: 901, fromMe: true, sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG' } });
    await mutators.resendMessage(tx, { ticketId: 42, messageId: 901 });
    expect(messageSchema.parse(store.get(syncKey('message', '42/901')))).toMatchObject({ sendStatus: 'queued', sendError: null });
  });
});
