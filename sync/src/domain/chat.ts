import { z } from 'zod';
import { listQuerySchema, namedRefSchema, timestampSchema } from './common.ts';
import { refIdSchema } from './tag.ts';

// Internal chat (spec/02 §3, §5): chats between users of one company, unread counts per member.
// `chatSchema` and `chatMessageSchema` are what every client reads (REST answers and chat/<id>,
// chatMessage/<chatId>/<id> of the client view alike).

const chatUsersSchema = z
  .array(z.object({ id: refIdSchema }).loose(), { error: 'Required' })
  .min(1, 'Choose at least one user')
  .max(500)
  .transform((users) => [...new Set(users.map((u) => u.id))]);

export const chatTitleSchema = z.string({ error: 'Required' }).trim().min(1, 'Required').max(200, 'Too Long!');

export const chatCreateSchema = z.object({ title: chatTitleSchema, users: chatUsersSchema });
export type ChatCreateInput = z.infer<typeof chatCreateSchema>;

export const chatUpdateSchema = z.object({ title: chatTitleSchema.optional(), users: chatUsersSchema.optional() });
export type ChatUpdateInput = z.infer<typeof chatUpdateSchema>;

/** A blank message (after trimming) is never sent (spec/02 §5). */
export const chatMessageCreateSchema = z.object({
  message: z.string({ error: 'Required' }).trim().min(1, 'Required').max(10_000, 'Too Long!'),
});
export type ChatMessageCreateInput = z.infer<typeof chatMessageCreateSchema>;

export const chatListQuerySchema = listQuerySchema;
export const chatMessagesQuerySchema = listQuerySchema.pick({ pageNumber: true });

export const chatMemberSchema = z.object({
  userId: z.number().int().positive(),
  unreads: z.number().int().nonnegative().describe('Messages of the others this member has not read yet.'),
  user: namedRefSchema,
});
export type ChatMember = z.infer<typeof chatMemberSchema>;

/** One chat as the server sends it: GET /chats/{id}, the pages of GET /chats, chat/<id> in the client view (members only). */
export const chatSchema = z.object({
  id: z.number().int().positive(),
  uuid: z.uuid().describe('The public id: the web opens /chats/{uuid}.'),
  title: z.string(),
  ownerId: z.number().int().positive().nullable().describe('Who manages title and members; null once their account is deleted.'),
  lastMessage: z.string().describe('Preview of the newest message (at most 255 characters).'),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  users: z.array(chatMemberSchema).describe('Every member with their unread count, by name.'),
});
export type Chat = z.infer<typeof chatSchema>;

/** One chat message as the server sends it: GET /chats/{id}/messages, POST answers, chatMessage/<chatId>/<id> in the client view. */
export const chatMessageSchema = z.object({
  id: z.number().int().positive(),
  chatId: z.number().int().positive(),
  message: z.string(),
  senderId: z.number().int().positive().nullable().describe('null once the sender\'s account is deleted.'),
  sender: namedRefSchema.nullable(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  createdAt: timestampSchema,
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatKey = (id: number) => `chat/${id}`;
export const chatMessageKey = (chatId: number, id: number) => `chatMessage/${chatId}/${id}`;
