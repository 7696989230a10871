// POST /contact-lists/{id}/upload: the spreadsheet goes up as multipart and the answer is the
// import's NDJSON report (server contacts/README.md "For the CLI"); the typed client reads JSON only,
// so this fetches with the same bearer token and session rule (sendWithSession).
import type { ContactImportEvent, ContactImportIssue } from '@zapdesk/sync';
import { sendWithSession } from '@zapdesk/sync/client';
import { api } from '../../api/client.ts';

export type ListImportResult = {
  rows: number;
  imported: number;
  skipped: number;
  rejected: number;
  issues: ContactImportIssue[];
  failure?: { error: string; message: string };
};

export async function uploadListSpreadsheet(listId: number, file: File): Promise<ListImportResult> {
  const res = await sendWithSession(api, (token) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return fetch(`${api.baseUrl}/contact-lists/${listId}/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token ?? ''}` }, credentials: 'include' });
  });
  const result: ListImportResult = { rows: 0, imported: 0, skipped: 0, rejected: 0, issues: [] };
  for (const line of (await res.text()).split('\n')) {
    if (!line.trim()) continue;
    const event = JSON.parse(line) as ContactImportEvent;
    if (event.type === 'issue') result.issues.push(event);
    else if (event.type === 'progress' || event.type === 'done' || event.type === 'failed') {
      Object.assign(result, { rows: event.rows, imported: event.imported, skipped: event.skipped, rejected: event.rejected });
      if (event.type === 'failed') result.failure = { error: event.error, message: event.message };
    }
  }
  return result;
}
