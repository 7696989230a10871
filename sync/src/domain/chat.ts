import { z } from 'zod';
import { listQuerySchema } from './common.ts';
import { refIdSchema } from './tag.ts';

// Internal chat (spec/02 §3, §5): chats between users of one company, unread counts per member.

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

export type ChatMemberDto = { userId: number; unreads: number; user: { id: number; name: string } };
export type ChatDto = {
  id: number;
  uuid: string;
  title: string;
  ownerId: number | null;
  lastMessage: string;
  createdAt: string;
  updatedAt: string;
  users: ChatMemberDto[];
};
export type ChatMessageDto = {
  id: number;
  chatId: number;
  message: string;
  senderId: number | null;
  sender: { id: number; name: string } | null;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: string;
};

export const chatKey = (id: number) => `chat/${id}`;
export const chatMessageKey = (chatId: number, id: number) => `chatMessage/${chatId}/${id}`;
