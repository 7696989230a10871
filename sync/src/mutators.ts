// Replicache mutators: the optimistic client half. Each mutator's arguments have one zod schema in
// `mutatorArgs`; the server parses every pushed mutation with the same schema and runs the
// authoritative service (server/src/sync/mutators.ts), so what a mutator writes locally is only a
// guess that the next pull confirms or replaces.
import type { WriteTransaction } from 'replicache';
import { z } from 'zod';
import { idSchema, personNameSchema } from './domain/common.ts';
import type { Message } from './domain/message.ts';
import type { Queue } from './domain/queue.ts';
import type { QuickMessage } from './domain/quick-message.ts';
import { settingKeySchema, type Setting } from './domain/setting.ts';
import type { Ticket } from './domain/ticket.ts';
import { languageSchema, type User } from './domain/user.ts';
import { syncKey, syncPrefix } from './keys.ts';

export const mutatorArgs = {
  /** PUT /settings/{key} as a mutation (admins). */
  updateSetting: z.object({ key: settingKeySchema, value: z.string().max(100) }),
  /** The signed-in user's interface language. */
  setMyLanguage: z.object({ userId: z.number().int().positive(), language: languageSchema }),
  /** The signed-in user's display name. */
  updateMyName: z.object({ userId: z.number().int().positive(), name: personNameSchema }),
  /** A pending (or another's open) ticket becomes the user's, open (PUT /tickets/{id} status open). */
  acceptTicket: z.object({ ticketId: idSchema, userId: idSchema }),
  /**
   * POST /messages/{ticketId} (text). `localId` keys the optimistic bubble; `sentAt` is the client's
   * clock, for its place in the chat. `quickMessageId`: a quick answer whose attachment goes too (the
   * server has the file), so the body may then be blank.
   */
  sendMessage: z
    .object({
      ticketId: idSchema,
      localId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
      body: z.string().max(65_536),
      quotedMsgId: idSchema.nullable().optional(),
      quickMessageId: idSchema.nullable().optional(),
      signMessage: z.boolean(),
      userId: idSchema,
      sentAt: z.iso.datetime(),
    })
    .refine((m) => m.body.trim() !== '' || m.quickMessageId, { path: ['body'], message: 'Required' }),
  /**
   * The holder has the ticket's chat in front of them: what arrives is read at once (unread count 0,
   * read receipts), as GET /messages/{ticketId} does on opening it. Anyone else's call changes nothing.
   */
  markTicketRead: z.object({ ticketId: idSchema }),
  /** POST /messages/{id}/resend: a failed message goes back to its connection's queue. */
  resendMessage: z.object({ ticketId: idSchema, messageId: idSchema }),
  /** PUT /tickets/{id} status closed; `farewell` false closes without the queue's or connection's closing message. */
  resolveTicket: z.object({ ticketId: idSchema, userId: idSchema, farewell: z.boolean().optional().default(true) }),
  /** PUT /tickets/{id} status pending: back to the queue, no user. */
  returnTicket: z.object({ ticketId: idSchema }),
  /** PUT /tickets/{id} with a queue, optionally a user and a connection (spec/02 §4 transfer). */
  transferTicket: z.object({ ticketId: idSchema, queueId: idSchema, userId: idSchema.nullable(), whatsappId: idSchema.nullable() }),
};

export type MutatorName = keyof typeof mutatorArgs;
export type MutatorArgs<N extends MutatorName> = z.input<(typeof mutatorArgs)[N]>;

async function patchUser(tx: WriteTransaction, userId: number, patch: Partial<User>) {
  const key = syncKey('user', userId);
  const user = (await tx.get(key)) as User | undefined;
  if (user) await tx.set(key, { ...user, ...patch });
}

async function patchTicket(tx: WriteTransaction, ticketId: number, patch: (t: Ticket) => Partial<Ticket>) {
  const key = syncKey('ticket', ticketId);
  const ticket = (await tx.get(key)) as Ticket | undefined;
  if (ticket) await tx.set(key, { ...ticket, ...patch(ticket), updatedAt: new Date().toISOString() });
}

async function userRef(tx: WriteTransaction, userId: number | null): Promise<Ticket['user']> {
  if (userId === null) return null;
  const user = (await tx.get(syncKey('user', userId))) as User | undefined;
  return user ? { id: user.id, name: user.name } : null;
}

/** The key of a message the server has not confirmed yet; the next pull replaces it by the real one. */
export function localMessageKey(ticketId: number, localId: string): string {
  return `${syncPrefix('message')}${ticketId}/local-${localId}`;
}

export const mutators = {
  async updateSetting(tx: WriteTransaction, args: MutatorArgs<'updateSetting'>) {
    const { key, value } = mutatorArgs.updateSetting.parse(args);
    await tx.set(syncKey('setting', key), { key, value } satisfies Setting);
  },
  async setMyLanguage(tx: WriteTransaction, args: MutatorArgs<'setMyLanguage'>) {
    const { userId, language } = mutatorArgs.setMyLanguage.parse(args);
    await patchUser(tx, userId, { language });
  },
  async updateMyName(tx: WriteTransaction, args: MutatorArgs<'updateMyName'>) {
    const { userId, name } = mutatorArgs.updateMyName.parse(args);
    await patchUser(tx, userId, { name });
  },
  async acceptTicket(tx: WriteTransaction, args: MutatorArgs<'acceptTicket'>) {
    const { ticketId, userId } = mutatorArgs.acceptTicket.parse(args);
    const user = await userRef(tx, userId);
    await patchTicket(tx, ticketId, () => ({ status: 'open', userId, user, unreadMessages: 0, chatbot: false }));
  },
  async sendMessage(tx: WriteTransaction, args: MutatorArgs<'sendMessage'>) {
    const { ticketId, localId, body, quotedMsgId, quickMessageId, signMessage, userId, sentAt } = mutatorArgs.sendMessage.parse(args);
    const ticket = (await tx.get(syncKey('ticket', ticketId))) as Ticket | undefined;
    if (!ticket) return;
    const me = await userRef(tx, userId);
    const signed = signMessage && me && body.trim() !== '' ? `*${me.name}*:\n${body}` : body;
    // A quick answer's file shows by its name until the server's message (with the file) replaces the bubble.
    const quick = quickMessageId ? ((await tx.get(syncKey('quickMessage', quickMessageId))) as QuickMessage | undefined) : undefined;
    const text = quick?.mediaName ? [signed, `📎 ${quick.mediaName}`].filter((p) => p.trim() !== '').join('\n') : signed;
    const quoted = quotedMsgId ? ((await tx.scan({ prefix: `${syncPrefix('message')}${ticketId}/` }).values().toArray()) as Message[]).find((m) => m.id === quotedMsgId) : undefined;
    const message: Message = {
      // Negative: never an id the server hands out.
      id: -Date.parse(sentAt),
      wid: `local:${localId}`,
      ticketId,
      contactId: ticket.contactId,
      contact: null,
      body: text,
      mediaType: null,
      mediaUrl: null,
      fromMe: true,
      isDeleted: false,
      isEdited: false,
      ack: 0,
      sendStatus: 'queued',
      sendError: null,
      read: true,
      quotedMsgId: quotedMsgId ?? null,
      quotedMsg: quoted ? { id: quoted.id, body: quoted.body, fromMe: quoted.fromMe, mediaType: quoted.mediaType, mediaUrl: quoted.mediaUrl, isDeleted: quoted.isDeleted } : null,
      createdAt: sentAt,
      updatedAt: sentAt,
      version: 0,
    };
    await tx.set(localMessageKey(ticketId, localId), message);
    await patchTicket(tx, ticketId, () => ({ lastMessage: text, lastInteractionAt: sentAt }));
  },
  async markTicketRead(tx: WriteTransaction, args: MutatorArgs<'markTicketRead'>) {
    const { ticketId } = mutatorArgs.markTicketRead.parse(args);
    const ticket = (await tx.get(syncKey('ticket', ticketId))) as Ticket | undefined;
    // Nothing to write (and no new updatedAt to reorder the lists) when it is read already.
    if (ticket && ticket.unreadMessages > 0) await tx.set(syncKey('ticket', ticketId), { ...ticket, unreadMessages: 0 });
  },
  async resendMessage(tx: WriteTransaction, args: MutatorArgs<'resendMessage'>) {
    const { ticketId, messageId } = mutatorArgs.resendMessage.parse(args);
    const key = `${syncPrefix('message')}${ticketId}/${messageId}`;
    const message = (await tx.get(key)) as Message | undefined;
    if (message?.sendStatus === 'failed') await tx.set(key, { ...message, sendStatus: 'queued', sendError: null });
  },
  async resolveTicket(tx: WriteTransaction, args: MutatorArgs<'resolveTicket'>) {
    const { ticketId, userId } = mutatorArgs.resolveTicket.parse(args);
    const user = await userRef(tx, userId);
    await patchTicket(tx, ticketId, () => ({ status: 'closed', userId, user, unreadMessages: 0, closedAt: new Date().toISOString() }));
  },
  async returnTicket(tx: WriteTransaction, args: MutatorArgs<'returnTicket'>) {
    const { ticketId } = mutatorArgs.returnTicket.parse(args);
    await patchTicket(tx, ticketId, (t) => (t.status === 'open' ? { status: 'pending', userId: null, user: null } : {}));
  },
  async transferTicket(tx: WriteTransaction, args: MutatorArgs<'transferTicket'>) {
    const { ticketId, queueId, userId, whatsappId } = mutatorArgs.transferTicket.parse(args);
    const queue = (await tx.get(syncKey('queue', queueId))) as Queue | undefined;
    const user = await userRef(tx, userId);
    await patchTicket(tx, ticketId, (t) => ({
      // With a queue and no user the ticket waits in that queue (spec/02 §4).
      status: userId === null ? 'pending' : 'open',
      userId,
      user,
      queueId,
      queue: queue ? { id: queue.id, name: queue.name, color: queue.color } : t.queue,
      whatsappId: whatsappId ?? t.whatsappId,
      chatbot: false,
    }));
  },
} satisfies { [N in MutatorName]: (tx: WriteTransaction, args: MutatorArgs<N>) => Promise<void> };

export type M = typeof mutators;
