// The OpenAPI documents of the chats routes: the schemas their handlers parse (http/openapi/README.md).
import { chatCreateSchema, chatListQuerySchema, chatMessageCreateSchema, chatMessagesQuerySchema, chatUpdateSchema, messageAnswerSchema } from '@zapdesk/sync';
import { area } from '../../http/openapi/types.ts';

export const chatsDocs = area('Chats', '', {
  'GET /chats': { auth: ['bearer'], query: chatListQuerySchema, plan: 'internalChat' },
  'GET /chats/:id': { auth: ['bearer'], plan: 'internalChat' },
  'POST /chats': { auth: ['bearer'], body: chatCreateSchema, status: 201, plan: 'internalChat', errors: ['ERR_NO_USER_FOUND'] },
  'PUT /chats/:id': { auth: ['bearer'], body: chatUpdateSchema, plan: 'internalChat', errors: ['ERR_NO_USER_FOUND'] },
  'DELETE /chats/:id': { auth: ['bearer'], answer: messageAnswerSchema, plan: 'internalChat' },
  'GET /chats/:id/messages': { auth: ['bearer'], query: chatMessagesQuerySchema, plan: 'internalChat' },
  'POST /chats/:id/messages': { auth: ['bearer'], body: chatMessageCreateSchema, status: 201, plan: 'internalChat' },
  'POST /chats/:id/read': { auth: ['bearer'], plan: 'internalChat' },
});
