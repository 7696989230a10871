// The OpenAPI documents of the tags routes: the schemas their handlers parse (http/openapi/README.md).
import { kanbanQuerySchema, messageAnswerSchema, pageSchema, tagCreateSchema, tagListQuerySchema, tagSchema, tagSyncSchema, tagUpdateSchema, tagWithCountSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { area } from '../../http/openapi/types.ts';
import type { KanbanLane, KanbanTicket } from './kanban.ts';
import type { TicketTagsResult } from './service.ts';

const ticketTagRefSchema = tagSchema.pick({ id: true, name: true, color: true, kanban: true });
const ticketTagsSchema: z.ZodType<TicketTagsResult> = z.object({ ticketId: z.number().int(), tags: z.array(ticketTagRefSchema) });

const kanbanTicketSchema: z.ZodType<KanbanTicket> = z.object({
  id: z.number().int(),
  uuid: z.string(),
  status: z.string(),
  lastMessage: z.string(),
  unreadMessages: z.number().int(),
  updatedAt: z.string(),
  queueId: z.number().int().nullable(),
  userId: z.number().int().nullable(),
  whatsappId: z.number().int().nullable(),
  contactId: z.number().int(),
  contact: z.object({ id: z.number().int(), name: z.string(), number: z.string(), profilePicUrl: z.string().nullable() }),
  tags: z.array(ticketTagRefSchema),
});
const kanbanLaneSchema: z.ZodType<KanbanLane> = z.object({
  id: z.string(),
  tagId: z.number().int().nullable(),
  title: z.string().nullable(),
  color: z.string().nullable(),
  ticketIds: z.array(z.number().int()),
});

export const tagsDocs = area('Tags', "The company's shared labels for tickets; kanban tags are the lanes of the kanban board.", {
  'GET /tags': { summary: 'A page of tags with how many tickets carry each', auth: ['bearer'], query: tagListQuerySchema, answer: pageSchema('tags', tagWithCountSchema) },
  'GET /tags/list': { summary: 'Every tag of the company', auth: ['bearer'], answer: z.array(tagSchema) },
  'GET /tags/kanban': { summary: 'The kanban tags', auth: ['bearer'], plan: 'kanban', answer: z.object({ lista: z.array(tagSchema) }) },
  'POST /tags/sync': { summary: "Set a ticket's tags", auth: ['bearer'], body: tagSyncSchema, answer: ticketTagsSchema, errors: ['ERR_NO_TICKET_FOUND', 'ERR_NOT_FOUND'] },
  'GET /tags/:id': { summary: 'One tag', auth: ['bearer'], answer: tagSchema },
  'POST /tags': { summary: 'Create a tag', auth: ['bearer'], body: tagCreateSchema, status: 201, answer: tagSchema, errors: ['ERR_NO_PERMISSION'] },
  'PUT /tags/:id': { summary: 'Change a tag', auth: ['bearer'], body: tagUpdateSchema, answer: tagSchema, errors: ['ERR_NO_PERMISSION'] },
  'DELETE /tags/:id': { summary: 'Delete a tag (tickets lose it)', auth: ['bearer'], answer: messageAnswerSchema },
  'PUT /ticket-tags/:ticketId/:tagId': { summary: 'Put a ticket in a kanban lane', auth: ['bearer'], params: { ticketId: 'ERR_NO_TICKET_FOUND' }, plan: 'kanban', answer: ticketTagsSchema },
  'DELETE /ticket-tags/:ticketId': { summary: "Take a ticket out of the kanban lanes (its other tags stay)", auth: ['bearer'], params: { ticketId: 'ERR_NO_TICKET_FOUND' }, plan: 'kanban', answer: ticketTagsSchema },
  'GET /ticket/kanban': {
    summary: 'The kanban board: tickets and lanes',
    auth: ['bearer'],
    query: kanbanQuerySchema,
    plan: 'kanban',
    answer: z.object({ tickets: z.array(kanbanTicketSchema), lanes: z.array(kanbanLaneSchema) }),
  },
});
