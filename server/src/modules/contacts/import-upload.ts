// The HTTP side of a spreadsheet import, shared by POST /contacts/import/file and
// POST /contact-lists/{id}/upload: the uploaded file is opened (and refused before any row when
// unusable), then the import's report streams back as NDJSON while the upload still arrives.
import { AppError, type ContactImportEvent } from '@zapdesk/sync';
import type { Context } from 'hono';
import { stream } from 'hono/streaming';
import type { AppDeps } from '../../context.ts';
import type { NumberedRow } from './import-batch.ts';
import { detectFormat, readSpreadsheet } from './spreadsheet.ts';
import { multipartBoundary, openUploadedFile, tooLarge } from './upload.ts';

/** Largest spreadsheet an import takes (a 100,000-row xlsx is about 4 MB). */
export const MAX_IMPORT_FILE_BYTES = 50 * 1024 * 1024;

const ONLY_SPREADSHEETS = 'Only .xlsx, .xls and .csv spreadsheets can be imported';

/**
 * The file of a multipart request (field `file`), refused before any row is read when unusable. Its
 * bytes stream on (upload.ts): the import starts while the upload is still arriving.
 */
export async function openSpreadsheetUpload(c: Context) {
  const boundary = multipartBoundary(c.req.header('content-type') ?? '');
  if (!boundary) {
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Send the spreadsheet as multipart/form-data in the field "file".');
  }
  if (Number(c.req.header('content-length') ?? 0) > MAX_IMPORT_FILE_BYTES) throw tooLarge(MAX_IMPORT_FILE_BYTES);
  const file = await openUploadedFile(c.req.raw.body, boundary, 'file', MAX_IMPORT_FILE_BYTES);
  if (!file) throw new AppError('ERR_VALIDATION', 'file: Required', { issues: [{ path: 'file', message: 'Required' }] });
  const format = detectFormat(c.req.query('format') ? `x.${c.req.query('format')}` : file.fileName, file.contentType);
  if (!format) throw new AppError('ERR_VALIDATION', `file: ${ONLY_SPREADSHEETS}`, { issues: [{ path: 'file', message: ONLY_SPREADSHEETS }] });
  return { file, format };
}

/**
 * Answers 200 with the import's NDJSON report (README "For the CLI"): `run` reads `rows` and calls
 * `onEvent` for every line. A failure is already reported as the `failed` line.
 */
export function streamImportReport(
  c: Context,
  deps: AppDeps,
  upload: Awaited<ReturnType<typeof openSpreadsheetUpload>>,
  run: (rows: AsyncGenerator<NumberedRow>, onEvent: (event: ContactImportEvent) => Promise<void>) => Promise<unknown>,
) {
  c.header('content-type', 'application/x-ndjson; charset=utf-8');
  return stream(c, async (out) => {
    const rows = readSpreadsheet(upload.file.chunks, upload.format);
    await run(rows, (event) => out.write(`${JSON.stringify(event)}\n`).then(() => undefined)).catch((err: unknown) => {
      // Already reported as the `failed` line; the status (200) left with the first line.
      if (!(err instanceof AppError)) deps.log.error('spreadsheet import failed', { error: String(err) });
    });
  });
}
