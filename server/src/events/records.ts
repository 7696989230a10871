// The record of an event, the same shape the entity's REST GET answers (the modules' dto/view
// functions), read as the company's admin would. Undefined when the row is gone (deleted since the
// event, or never seen by this reader): the caller sends nothing for a record it cannot show.
import { AppError } from '@zapdesk/sync';
import type { Actor } from '../context.ts';
import type { SecretBox } from '../auth/secret-box.ts';
import type { Database } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';
import { toCampaignDto } from '../modules/campaigns/dto.ts';
import { getCampaignRow } from '../modules/campaigns/service.ts';
import { toChatDtos } from '../modules/chats/dto.ts';
import { findContactList } from '../modules/contact-lists/queries.ts';
import { getContactListItem } from '../modules/contact-lists/service.ts';
import { toContactDtos } from '../modules/contacts/dto.ts';
import { getContact } from '../modules/contacts/service.ts';
import { toContactListItemDto } from '../modules/contact-lists/dto.ts';
import { findFileList } from '../modules/files/queries.ts';
import { toMessageDtos } from '../modules/messages/dto.ts';
import { getPrompt } from '../modules/prompts/service.ts';
import { getIntegration } from '../modules/queue-integrations/service.ts';
import { getQueue } from '../modules/queues/service.ts';
import { findTicketRow, toTicketDto } from '../modules/tickets/dto.ts';
import { findUser } from '../modules/users/dto.ts';
import { getConnection } from '../modules/whatsapps/service.ts';
import type { DomainEvent } from './types.ts';

export type RecordReader = { db: Database; secrets?: SecretBox | undefined };

/** The company's admin: every record of the company, secrets masked as an admin's GET shows them. */
const adminOf = (companyId: number): Actor => ({ userId: 0, companyId, profile: 'admin', super: false, sessionId: '' });

type Render = (r: RecordReader, companyId: number, id: number) => Promise<unknown>;

const renderers: Partial<Record<DomainEvent['entity'], Render>> = {
  whatsapp: (r, companyId, id) => getConnection(r.db, adminOf(companyId), companyId, id, true),
  whatsappSession: (r, companyId, id) => getConnection(r.db, adminOf(companyId), companyId, id, true),
  // As the user reads their own row (with `language`): a language change is then visible.
  user: (r, companyId, id) => findUser(r.db, companyId, id, id),
  chat: async (r, companyId, id) => {
    const row = await tenant(r.db, companyId).selectFrom('chats').selectAll('chats').where('chats.id', '=', id).executeTakeFirst();
    return row ? (await toChatDtos(r.db, companyId, [row]))[0] : undefined;
  },
  ticket: async (r, companyId, id) => {
    const row = await findTicketRow(r.db, companyId, id);
    return row ? toTicketDto(r.db, companyId, row) : undefined;
  },
  appMessage: async (r, companyId, id) => {
    const row = await tenant(r.db, companyId).selectFrom('messages').selectAll('messages').where('messages.id', '=', id).executeTakeFirst();
    return row ? (await toMessageDtos(r.db, companyId, [row]))[0] : undefined;
  },
  contact: (r, companyId, id) => getContact(r.db, adminOf(companyId), id),
  file: (r, companyId, id) => findFileList(r.db, companyId, id),
  prompt: (r, companyId, id) => (r.secrets ? getPrompt(r.db, r.secrets, adminOf(companyId), id) : Promise.resolve(undefined)),
  queueIntegration: (r, companyId, id) => (r.secrets ? getIntegration(r.db, r.secrets, adminOf(companyId), id) : Promise.resolve(undefined)),
  queue: (r, companyId, id) => getQueue(r.db, companyId, id),
  ContactList: (r, companyId, id) => findContactList(r.db, companyId, id),
  ContactListItem: (r, companyId, id) => getContactListItem(r.db, adminOf(companyId), id),
  campaign: async (r, companyId, id) => toCampaignDto(r.db, companyId, await getCampaignRow(r.db, companyId, id)),
};

/** The event's record now: its data when it carries one, `{id}` for a delete, else the REST shape. */
export async function renderRecord(r: RecordReader, e: DomainEvent): Promise<unknown> {
  if (e.data !== undefined) return e.data;
  if (e.action === 'delete') return { id: e.id };
  const render = renderers[e.entity];
  if (!render) return undefined;
  try {
    return (await render(r, e.companyId, e.id)) ?? undefined;
  } catch (err) {
    // Gone meanwhile (a later write deleted it): its delete event follows.
    if (err instanceof AppError) return undefined;
    throw err;
  }
}

type RenderMany = (r: RecordReader, companyId: number, ids: number[]) => Promise<unknown[]>;

/** Batches (imports) are read in one query per entity, not a query per row. */
const manyRenderers: Partial<Record<DomainEvent['entity'], RenderMany>> = {
  contact: async (r, companyId, ids) => {
    const rows = await tenant(r.db, companyId).selectFrom('contacts').selectAll('contacts').where('contacts.id', 'in', ids).orderBy('contacts.id').execute();
    return toContactDtos(r.db, companyId, rows);
  },
  ContactListItem: async (r, companyId, ids) => {
    const rows = await tenant(r.db, companyId).selectFrom('contactListItems').selectAll('contactListItems').where('contactListItems.id', 'in', ids).orderBy('contactListItems.id').execute();
    return rows.map(toContactListItemDto);
  },
};

/** The records of a batch event still there (a row deleted since is left out), read in slices. */
export async function renderRecords(r: RecordReader, e: DomainEvent): Promise<unknown[]> {
  const ids = e.batch ?? [e.id];
  if (e.action === 'delete') return ids.map((id) => ({ id }));
  const many = manyRenderers[e.entity];
  const out: unknown[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const slice = ids.slice(i, i + 500);
    if (many) out.push(...(await many(r, e.companyId, slice)));
    else for (const id of slice) {
      const { batch: _batch, ...single } = e;
      const one = await renderRecord(r, { ...single, id });
      if (one !== undefined) out.push(one);
    }
  }
  return out;
}
