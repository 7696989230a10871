// The import service's answer read as it streams: one NDJSON line per event (server
// contacts/README.md "For the CLI"), folded into running counts, the rejected rows written to the
// --errors file as they arrive, and the reasons tallied for the summary. Nothing grows with the
// file but the tally (one entry per distinct reason).
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { ContactImportCounts, ContactImportEvent, ContactImportIssue } from '@zapdesk/sync';
import { fileError, UserError } from '../../errors.ts';

export type ReasonTally = { kind: ContactImportIssue['kind']; reason: string; count: number; firstRows: number[] };

export type ImportOutcome = ContactImportCounts & {
  importId: string;
  reasons: ReasonTally[];
  /** The `failed` line's message when the file broke midway (what committed stays). */
  failure?: { error: string; message: string };
};

/** Rows listed per reason in the summary; the --errors file has them all. */
const FIRST_ROWS = 5;

/** Each parsed line of an NDJSON body, read line by line (never the whole body at once). */
export async function* readNdjson<T>(body: ReadableStream<Uint8Array>): AsyncGenerator<T> {
  const lines = createInterface({ input: Readable.fromWeb(body as NodeReadableStream), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim()) yield JSON.parse(line) as T;
  }
}

const csvField = (v: string | number) => (/[",\r\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));

/** `--errors out.csv`: the rejected rows with their spreadsheet row number, their cells and the reason. */
export type ErrorsFile = { write(issue: ContactImportIssue): Promise<void>; close(): Promise<void> };

export async function openErrorsFile(file: string): Promise<ErrorsFile> {
  const out: WriteStream = createWriteStream(file);
  await Promise.race([once(out, 'open'), once(out, 'error').then(([err]) => Promise.reject(err as Error))]).catch((err: NodeJS.ErrnoException) => {
    throw fileError('write', file, err);
  });
  const line = (cells: (string | number)[]) => `${cells.map(csvField).join(',')}\n`;
  // Every column the import reads, under the titles it reads them by: the file imports back once fixed.
  out.write(line(['row', 'name', 'number', 'email', 'reason']));
  return {
    async write(issue) {
      if (!out.write(line([issue.row, issue.name, issue.number, issue.email ?? '', issue.reason]))) await once(out, 'drain');
    },
    close: () => new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve()))),
  };
}

/**
 * Reads the report to its end: `onProgress` after each committed batch (and at the end), rejected
 * rows to `errors`. A report that ends without `done` or `failed` means the server went away.
 */
export async function followReport(
  body: ReadableStream<Uint8Array>,
  hooks: { errors?: ErrorsFile; onProgress(counts: ContactImportCounts): void },
): Promise<ImportOutcome> {
  const tally = new Map<string, ReasonTally>();
  let importId = '';
  for await (const event of readNdjson<ContactImportEvent>(body)) {
    switch (event.type) {
      case 'start':
        importId = event.importId;
        break;
      case 'issue': {
        const key = `${event.kind}\u0000${event.reason}`;
        let entry = tally.get(key);
        if (!entry) tally.set(key, (entry = { kind: event.kind, reason: event.reason, count: 0, firstRows: [] }));
        entry.count++;
        if (entry.firstRows.length < FIRST_ROWS) entry.firstRows.push(event.row);
        if (event.kind === 'rejected') await hooks.errors?.write(event);
        break;
      }
      case 'progress':
        hooks.onProgress(countsOf(event));
        break;
      case 'done':
      case 'failed': {
        const counts = countsOf(event);
        hooks.onProgress(counts);
        const reasons = [...tally.values()].sort((a, b) => (a.kind === b.kind ? b.count - a.count : a.kind === 'rejected' ? -1 : 1));
        const failure = event.type === 'failed' ? { error: event.error, message: event.message } : undefined;
        return { importId: event.importId || importId, ...counts, reasons, ...(failure ? { failure } : {}) };
      }
    }
  }
  throw new UserError('the server stopped answering before the import finished; what was committed stays: run the same command again to finish');
}

const countsOf = (e: ContactImportCounts): ContactImportCounts => ({ rows: e.rows, imported: e.imported, skipped: e.skipped, rejected: e.rejected });
