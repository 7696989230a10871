// Contacts over REST (README.md): each form write is one transaction opened here (db/write.ts);
// imports commit batch by batch, each batch a write of its own (import.ts).
import {
  AppError,
  contactCreateSchema,
  contactImportRowsSchema,
  contactListQuerySchema,
  contactOptionsQuerySchema,
  contactUpdateSchema,
  contactUploadSchema,
  pickContactFields,
  type ContactImportIssue,
  type ContactUploadResult,
} from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth, requirePermission } from '../../auth/middleware.ts';
import { inSlices } from '../../db/slices.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { importContacts } from './import.ts';
import { exportContactsCsv, findContactOptions, findContactsPage } from './list.ts';
import { importPhoneContacts } from './phone-import.ts';
import { refreshProfilePicture } from './profile-picture.ts';
import { createContact, deleteContact, deleteContactTicketsSlice, emptyContactSlice, getContact, TICKET_SLICE_ROWS, updateContact } from './service.ts';
import { openSpreadsheetUpload, streamImportReport } from './import-upload.ts';

const toErrorBag = (issues: ContactImportIssue[]): ContactUploadResult['errorBag'] =>
  issues.map((i) => ({ contactName: i.name || i.number, row: i.row, error: { message: i.reason, code: i.code } }));

// Every user of the company works the contact list; deleting is reserved (contacts-page:deleteContact).
// Fixed paths come before /contacts/:id.
export function contactsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .on('GET', ['/contacts', '/contacts/'], auth, async (c) => {
      const query = parseQuery(c, contactListQuerySchema);
      return c.json(await findContactsPage(deps.db, deps.dialect, c.get('actor').companyId, query));
    })
    .get('/contacts/list', auth, async (c) => {
      const { name } = parseQuery(c, contactOptionsQuerySchema);
      return c.json(await findContactOptions(deps.db, deps.dialect, c.get('actor').companyId, name));
    })
    .get('/contacts/export', auth, (c) => {
      const chunks = exportContactsCsv(deps.db, c.get('actor').companyId);
      const encoder = new TextEncoder();
      const csv = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        },
        async cancel() {
          await chunks.return(undefined);
        },
      });
      c.header('content-type', 'text/csv; charset=utf-8');
      c.header('content-disposition', 'attachment; filename="contatos.csv"');
      return c.body(csv);
    })
    .post('/contacts/upload', auth, async (c) => {
      const records = await parseBody(c, contactUploadSchema);
      const rows = records.map((record, i) => ({ row: i + 2, fields: pickContactFields(record) }));
      const result: ContactUploadResult = { newContacts: [], errorBag: [] };
      const companyId = c.get('actor').companyId;
      await importContacts(deps, companyId, rows, {
        onBatch: (batch) => {
          result.newContacts.push(...batch.created.map((x) => ({ contactId: x.id, contactName: x.name })));
          result.errorBag.push(...toErrorBag(batch.issues));
        },
      });
      return c.json(result);
    })
    .post('/contacts/import', auth, async (c) => {
      const companyId = c.get('actor').companyId;
      return c.json(await importPhoneContacts(deps, companyId));
    })
    .post('/contacts/import/rows', auth, async (c) => {
      const input = await parseBody(c, contactImportRowsSchema);
      const rows = input.rows.map((record, i) => ({ row: input.firstRow + i, fields: pickContactFields(record) }));
      const issues: ContactImportIssue[] = [];
      const companyId = c.get('actor').companyId;
      const summary = await importContacts(deps, companyId, rows, {
        importId: input.importId,
        batchSize: rows.length || 1,
        onBatch: (batch) => issues.push(...batch.issues),
      });
      return c.json({ ...summary, issues });
    })
    .post('/contacts/import/file', auth, async (c) => {
      const companyId = c.get('actor').companyId;
      const importId = c.req.query('importId') || undefined;
      if (importId !== undefined && !/^[\w.:-]{1,64}$/.test(importId)) throw new AppError('ERR_VALIDATION', 'importId: Invalid');
      const upload = await openSpreadsheetUpload(c);
      return streamImportReport(c, deps, upload, (rows, onEvent) => importContacts(deps, companyId, rows, { importId, onEvent }));
    })
    .get('/contacts/:id', auth, async (c) => c.json(await getContact(deps.db, c.get('actor'), parseId(c, 'id', 'ERR_NO_CONTACT_FOUND'))))
    .on('POST', ['/contacts', '/contacts/'], auth, async (c) => {
      const input = await parseBody(c, contactCreateSchema);
      const created = await write(deps, (tx) => createContact(tx, c.get('actor'), input));
      // Committed: its picture is asked of the channel in the background, never inside the write.
      void refreshProfilePicture(deps, { companyId: c.get('actor').companyId, contactId: created.id });
      return c.json(created, 201);
    })
    .put('/contacts/:id', auth, async (c) => {
      const contactId = parseId(c, 'id', 'ERR_NO_CONTACT_FOUND');
      const input = await parseBody(c, contactUpdateSchema);
      return c.json(await write(deps, (tx) => updateContact(tx, c.get('actor'), contactId, input)));
    })
    .delete('/contacts/:id', auth, requirePermission('contacts-page:deleteContact'), async (c) => {
      const contactId = parseId(c, 'id', 'ERR_NO_CONTACT_FOUND');
      const actor = c.get('actor');
      // Its messages first, then its tickets, a slice per write (db/slices.ts), then the contact in
      // a write of its own, which finds only what came meanwhile.
      await inSlices(deps, (tx, limit) => emptyContactSlice(tx, actor.companyId, contactId, limit));
      await inSlices(deps, (tx, limit) => deleteContactTicketsSlice(tx, actor.companyId, contactId, limit), TICKET_SLICE_ROWS);
      await write(deps, (tx) => deleteContact(tx, actor, contactId));
      return c.json({ message: 'Contact deleted' });
    });
}
