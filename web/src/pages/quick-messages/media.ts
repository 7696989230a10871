// The attachment of a quick message or a schedule: uploaded after the row is saved (the upload
// route needs its id), removed through the same path with DELETE.
import { api } from '../../api/client.ts';

/** What the form asks: keep the attachment, replace it with a file, or remove it. */
export type MediaChange = { kind: 'keep' } | { kind: 'replace'; file: File } | { kind: 'remove' };

export async function applyMediaChange<R>(base: string, id: number, change: MediaChange, fields: Record<string, string> = {}): Promise<R | undefined> {
  if (change.kind === 'keep') return undefined;
  if (change.kind === 'remove') return api.delete<R>(`${base}/${id}/media-upload`);
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', change.file);
  return api.post<R>(`${base}/${id}/media-upload`, form);
}
