// The OpenAPI documents of the chats routes: the schemas their handlers parse (http/openapi/README.md).
import { chatCreateSchema, chatListQuerySchema, chatMessageCreateSchema, chatMessageSchema, chatMessagesQuerySchema, chatSchema, chatUpdateSchema, messageAnswerSchema, pageSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';

export const chatsDocs = area('Chats', "The internal chat between the company's users (needs the plan's internal chat).", {
  'GET /chats': { summary: 'A page of the chats the user is in', answer: pageSchema('records', chatSchema), auth: ['bearer'], query: chatListQuerySchema, plan: 'internalChat' },
  'GET /chats/:id': { summary: 'One chat (by id or uuid)', params: { id: z.string().describe('The chat id or its uuid') }, answer: chatSchema, errors: ['ERR_NOT_FOUND'], auth: ['bearer'], plan: 'internalChat' },
  'POST /chats': { summary: 'Start a chat with users', answer: chatSchema, auth: ['bearer'], body: chatCreateSchema, status: 201, plan: 'internalChat', errors: ['ERR_NO_USER_FOUND'] },
  'PUT /chats/:id': { summary: 'Rename a chat or change its members', answer: chatSchema, auth: ['bearer'], body: chatUpdateSchema, plan: 'internalChat', errors: ['ERR_NO_USER_FOUND'] },
  'DELETE /chats/:id': { summary: 'Delete a chat', auth: ['bearer'], answer: messageAnswerSchema, plan: 'internalChat' },
  'GET /chats/:id/messages': { summary: 'A page of the messages of a chat', answer: pageSchema('records', chatMessageSchema), auth: ['bearer'], query: chatMessagesQuerySchema, plan: 'internalChat' },
  'POST /chats/:id/messages': { summary: 'Write in a chat', answer: chatMessageSchema, auth: ['bearer'], body: chatMessageCreateSchema, status: 201, plan: 'internalChat' },
  'POST /chats/:id/read': { summary: 'Mark a chat read for the user', answer: chatSchema, auth: ['bearer'], plan: 'internalChat' },
});
