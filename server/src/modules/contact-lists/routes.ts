// Contact lists and their items over REST (spec/03 §7; README.md). Each form write is one
// transaction opened here (db/write.ts); an upload commits batch by batch (contacts/import.ts).
// After a write that may add unchecked numbers, the WhatsApp check starts in the background,
// outside any transaction (whatsapp-check.ts). Fixed paths come before /:id.
import {
  contactListCreateSchema,
  contactListItemCreateSchema,
  contactListItemQuerySchema,
  contactListItemUpdateSchema,
  contactListOptionsQuerySchema,
  contactListPageQuerySchema,
  contactListUpdateSchema,
} from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth, requirePermission } from '../../auth/middleware.ts';
import { inSlices } from '../../db/slices.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { openSpreadsheetUpload, streamImportReport } from '../contacts/import-upload.ts';
import { importContactListItems } from './import.ts';
import { findAllContactLists, findContactListItemsPage, findContactListsPage } from './queries.ts';
import {
  assertContactListDeletable,
  createContactList,
  createContactListItem,
  deleteContactList,
  deleteContactListItem,
  emptyContactListSlice,
  getContactList,
  getContactListItem,
  updateContactList,
  updateContactListItem,
} from './service.ts';
import { checkContactListNumbers } from './whatsapp-check.ts';

// The lists are screens of the admin area (with campaigns); deleting an item, and so a whole list,
// follows the contacts rule (spec/03 §6: contacts-page:deleteContact).
export function contactListsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const admin = requirePermission('drawer-admin-items:view');
  const mayDelete = requirePermission('contacts-page:deleteContact');
  const check = (companyId: number, listId: number) => void checkContactListNumbers(deps, companyId, listId);
  return new Hono<AppEnv>()
    .on('GET', ['/contact-lists', '/contact-lists/'], auth, admin, async (c) => {
      const query = parseQuery(c, contactListPageQuerySchema);
      return c.json(await findContactListsPage(deps.db, c.get('actor').companyId, query.searchParam, query.pageNumber));
    })
    .get('/contact-lists/list', auth, admin, async (c) => {
      parseQuery(c, contactListOptionsQuerySchema);
      return c.json(await findAllContactLists(deps.db, c.get('actor').companyId));
    })
    .get('/contact-lists/:id', auth, admin, async (c) => c.json(await getContactList(deps.db, c.get('actor'), parseId(c, 'id'))))
    .on('POST', ['/contact-lists', '/contact-lists/'], auth, admin, async (c) => {
      const input = await parseBody(c, contactListCreateSchema);
      return c.json(await write(deps, (tx) => createContactList(tx, c.get('actor'), input)), 201);
    })
    .put('/contact-lists/:id', auth, admin, async (c) => {
      const listId = parseId(c, 'id');
      const input = await parseBody(c, contactListUpdateSchema);
      return c.json(await write(deps, (tx) => updateContactList(tx, c.get('actor'), listId, input)));
    })
    .delete('/contact-lists/:id', auth, admin, mayDelete, async (c) => {
      const listId = parseId(c, 'id');
      await assertContactListDeletable(deps.db, c.get('actor'), listId);
      await inSlices(deps, (tx, limit) => emptyContactListSlice(tx, c.get('actor').companyId, listId, limit));
      await write(deps, (tx) => deleteContactList(tx, c.get('actor'), listId));
      return c.json({ message: 'Contact list deleted' });
    })
    .post('/contact-lists/:id/upload', auth, admin, async (c) => {
      const listId = parseId(c, 'id');
      const actor = c.get('actor');
      // Refused before the body is read: another company's list does not wait for its upload.
      await getContactList(deps.db, actor, listId);
      const upload = await openSpreadsheetUpload(c);
      return streamImportReport(c, deps, upload, async (rows, onEvent) => {
        try {
          return await importContactListItems(deps, actor.companyId, listId, rows, { onEvent });
        } finally {
          check(actor.companyId, listId);
        }
      });
    })
    .on('GET', ['/contact-list-items', '/contact-list-items/'], auth, admin, async (c) => {
      const query = parseQuery(c, contactListItemQuerySchema);
      const companyId = c.get('actor').companyId;
      await getContactList(deps.db, c.get('actor'), query.contactListId);
      return c.json(await findContactListItemsPage(deps.db, companyId, query.contactListId, query.searchParam, query.pageNumber));
    })
    .get('/contact-list-items/:id', auth, admin, async (c) => c.json(await getContactListItem(deps.db, c.get('actor'), parseId(c, 'id'))))
    .on('POST', ['/contact-list-items', '/contact-list-items/'], auth, admin, async (c) => {
      const input = await parseBody(c, contactListItemCreateSchema);
      const created = await write(deps, (tx) => createContactListItem(tx, c.get('actor'), input));
      check(created.companyId, created.contactListId);
      return c.json(created, 201);
    })
    .put('/contact-list-items/:id', auth, admin, async (c) => {
      const itemId = parseId(c, 'id');
      const input = await parseBody(c, contactListItemUpdateSchema);
      const updated = await write(deps, (tx) => updateContactListItem(tx, c.get('actor'), itemId, input));
      if (updated.isWhatsappValid === null) check(updated.companyId, updated.contactListId);
      return c.json(updated);
    })
    .delete('/contact-list-items/:id', auth, admin, mayDelete, async (c) => {
      const itemId = parseId(c, 'id');
      await write(deps, (tx) => deleteContactListItem(tx, c.get('actor'), itemId));
      return c.json({ message: 'Contact list item deleted' });
    });
}
