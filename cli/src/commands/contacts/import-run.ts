// Uploading a spreadsheet to an import endpoint and following its NDJSON report with a progress
// view: `contacts import` (POST /contacts/import/file) and `contact-lists import`
// (POST /contact-lists/{id}/upload) answer the same report, so they share this.
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Ctx } from '../../context.ts';
import { fileError, UsageError, UserError } from '../../errors.ts';
import { sendRaw } from '../../raw.ts';
import { followReport, openErrorsFile, type ImportOutcome, type ReasonTally } from './import-report.ts';
import { createImportScreen } from './import-screen.ts';

export const FORMATS = ['csv', 'xlsx', 'xls'] as const;

export type ImportFileOptions = { errors?: string; format?: (typeof FORMATS)[number]; json: boolean };

/** Sends `file` to `endpoint` and follows the report to its end; a failed import is a UserError. */
export async function importSpreadsheet(ctx: Ctx, endpoint: string, file: string, options: ImportFileOptions) {
  const format = options.format ?? formatOf(file);
  const size = await fileSize(file);
  if (options.errors && path.resolve(options.errors) === path.resolve(file)) throw new UsageError('--errors names the file being imported: give another file');
  const api = ctx.api();
  // The file goes up as a file-backed Blob: undici streams it from disk as the body is sent.
  const form = new FormData();
  form.append('file', await openAsBlob(file), `${path.basename(file, path.extname(file))}.${format}`);

  const json = options.json;
  const errors = options.errors ? await openErrorsFile(options.errors) : undefined;
  const started = Date.now();
  // The upload starts while the progress view loads (Ink takes a moment); events wait in the stream.
  const upload = sendRaw(api, endpoint, { method: 'POST', body: form, query: { format } });
  upload.catch(() => undefined);
  let outcome: ImportOutcome | undefined;
  const screen = await createImportScreen(ctx, { file, label: path.basename(file), format, live: ctx.interactive && !json, started });
  try {
    const res = await upload;
    outcome = await followReport(res.body!, { errors, onProgress: (c) => screen.update(c) });
  } finally {
    screen.close(Boolean(outcome && !outcome.failure));
    await errors?.close();
  }
  if (outcome.failure) {
    const why = outcome.failure.message.replace(/\.$/, '');
    if (outcome.rows === 0) throw new UserError(`the import failed: ${why}`);
    throw new UserError(`the import stopped after ${outcome.rows} rows (${outcome.imported} imported): ${why}; what was imported stays, run the same command again to finish`);
  }
  const seconds = (Date.now() - started) / 1000;
  return {
    file,
    bytes: size,
    ...outcome,
    seconds: Number(seconds.toFixed(2)),
    rowsPerSecond: Math.round(outcome.rows / Math.max(seconds, 0.001)),
    ...(options.errors ? { errorsFile: options.errors } : {}),
  };
}

async function fileSize(file: string): Promise<number> {
  const info = await stat(file).catch((err: NodeJS.ErrnoException) => {
    throw fileError('read', file, err);
  });
  if (!info.isFile()) throw new UserError(`cannot read ${file}: not a file`);
  return info.size;
}

function formatOf(file: string): (typeof FORMATS)[number] {
  const ext = path.extname(file).slice(1).toLowerCase();
  if ((FORMATS as readonly string[]).includes(ext)) return ext as (typeof FORMATS)[number];
  throw new UsageError(`cannot tell the format of '${file}': name it .xlsx, .xls or .csv, or give --format`);
}

export type ImportSummary = { file: string; rows: number; imported: number; skipped: number; rejected: number; seconds: number; rowsPerSecond: number; reasons: ReasonTally[]; errorsFile?: string };

/** The final report a person reads: counts, then each reason with how often and the first rows. */
export function summaryText(s: ImportSummary): string {
  const lines = [
    `Imported ${s.imported} of ${s.rows} rows from ${path.basename(s.file)} in ${s.seconds}s (${s.rowsPerSecond} rows/s); ${s.skipped} skipped, ${s.rejected} rejected.`,
  ];
  for (const r of s.reasons) {
    const more = r.count > r.firstRows.length ? ', …' : '';
    lines.push(`  ${r.kind} ${r.count} × ${r.reason} (row${r.count > 1 ? 's' : ''} ${r.firstRows.join(', ')}${more})`);
  }
  if (s.errorsFile) lines.push(s.rejected ? `Rejected rows written to ${s.errorsFile}.` : `No rejected rows; ${s.errorsFile} has only its title line.`);
  return lines.join('\n');
}
