// What `contacts import` shows while the server works: the Ink view on a TTY (redrawn at most ten
// times a second), plain lines on stderr elsewhere (at most one a second, and the last one).
import { createReadStream } from 'node:fs';
import type { ContactImportCounts } from '@zapdesk/sync';
import type { Ctx } from '../../context.ts';
import { writeLine } from '../../output.ts';

export type ImportScreen = { update(counts: ContactImportCounts): void; close(done: boolean): void };

const ZERO: ContactImportCounts = { rows: 0, imported: 0, skipped: 0, rejected: 0 };

export async function createImportScreen(ctx: Ctx, head: { file: string; label: string; format: 'csv' | 'xlsx' | 'xls'; live: boolean; started: number }): Promise<ImportScreen> {
  const seconds = () => (Date.now() - head.started) / 1000;
  let counts = ZERO;

  if (!head.live) {
    let last = 0;
    let printed: ContactImportCounts | undefined;
    const line = () => {
      printed = counts;
      const rate = Math.round(counts.rows / Math.max(seconds(), 0.001));
      writeLine(ctx.io.stderr, `${head.label}: ${counts.rows} rows, ${counts.imported} imported, ${counts.skipped} skipped, ${counts.rejected} rejected (${rate} rows/s)`);
    };
    return {
      update(next) {
        counts = next;
        if (Date.now() - last < 1000) return;
        last = Date.now();
        line();
      },
      close: () => {
        // The last counts, unless they are on the screen already (or nothing came at all).
        const same = printed && printed.rows === counts.rows && printed.imported === counts.imported && printed.skipped === counts.skipped && printed.rejected === counts.rejected;
        if (counts !== ZERO && !same) line();
      },
    };
  }

  // Ink and React load only for a person at a terminal: a script's run does not pay for them.
  const [{ render }, { createElement }] = await Promise.all([import('ink'), import('react')]);
  const { ImportProgress } = await import('../../views/ImportProgress.tsx');
  // A csv's lines are counted while the upload starts (bytes only, no parsing): the bar's 100%.
  let total: number | undefined;
  if (head.format === 'csv') void countDataLines(head.file).then((t) => (total = t), () => undefined);
  const props = () => ({ file: head.label, ...counts, total, seconds: seconds(), done: false });
  const instance = render(createElement(ImportProgress, props()), { stdout: ctx.io.stdout as NodeJS.WriteStream, patchConsole: false, exitOnCtrlC: false });
  // Redrawn on a clock, not per batch: the elapsed time moves too, and batches may come in bursts.
  const ticker = setInterval(() => instance.rerender(createElement(ImportProgress, props())), 100);
  return {
    update(next) {
      counts = next;
    },
    close(done) {
      clearInterval(ticker);
      instance.rerender(createElement(ImportProgress, { ...props(), done }));
      instance.unmount();
    },
  };
}

/** Line breaks of a csv minus its title line: the rows it holds, give or take blank lines. */
async function countDataLines(file: string): Promise<number> {
  let lines = 0;
  let lastByte = 10;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    lastByte = chunk[chunk.length - 1] ?? lastByte;
  }
  if (lastByte !== 10) lines++;
  return Math.max(lines - 1, 0);
}
