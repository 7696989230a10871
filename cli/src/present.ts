// What a command shows a person, apart from its data: a table, a record or a line. The same
// description drives the Ink view (a TTY) and the plain text (a pipe); --json skips it and prints
// the data itself.

/**
 * A column of a table. On a terminal narrower than the table, `min` is the least width at which its
 * cells still say something (default: its title's), and columns with a `drop` rank are hidden first,
 * lowest rank first, before any is cut below its `min`.
 */
export type Column = { header: string; value: (row: never) => unknown; min?: number; drop?: number };
export type Shown =
  | { kind: 'table'; columns: Column[]; rows: unknown[]; empty?: string; footer?: string }
  | { kind: 'record'; title?: string; fields: [string, unknown][] }
  | { kind: 'text'; text: string };

export const column = <R>(header: string, value: (row: R) => unknown, fit: { min?: number; drop?: number } = {}): Column => ({
  header,
  value: value as (row: never) => unknown,
  ...fit,
});

/** A cell as text: dates trimmed to the day, booleans as yes/no, nothing as a dash. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) return value.slice(0, 10);
  if (Array.isArray(value)) return value.length ? value.map(cellText).join(', ') : '-';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export type TableCells = { headers: string[]; rows: string[][]; widths: number[] };

export function tableCells(columns: Column[], rows: unknown[]): TableCells {
  const headers = columns.map((c) => c.header);
  const cells = rows.map((row) => columns.map((c) => cellText(c.value(row as never))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  return { headers, rows: cells, widths };
}

export const COLUMN_GAP = 2;

/**
 * Widths that fit `total` columns of a terminal (0: the column is hidden). A line wider than the
 * terminal wraps, and a live view that redraws in place then erases too few lines, leaving copies
 * of the old table. First the columns with a `drop` rank are hidden, lowest first, until the rest
 * fit as they are; then, only if the rest cannot fit even at their least widths, columns from the
 * right; then the widest are narrowed, one character at a time, until the table fits.
 */
export function fitWidths(columns: Column[], widths: number[], total: number): number[] {
  const least = columns.map((c, i) => Math.min(widths[i]!, Math.max(c.min ?? 0, c.header.length)));
  const shown = columns.map(() => true);
  const span = (w: number[]) => {
    const visible = w.filter((_, i) => shown[i]);
    return visible.reduce((sum, x) => sum + x, 0) + COLUMN_GAP * Math.max(visible.length - 1, 0);
  };
  const droppable = columns.flatMap((c, i) => (c.drop === undefined || i === 0 ? [] : [{ i, rank: c.drop }])).sort((a, b) => a.rank - b.rank);
  for (const { i } of droppable) {
    if (span(widths) <= total) break;
    shown[i] = false;
  }
  for (let i = columns.length - 1; i > 0 && span(least) > total; i--) shown[i] = false;
  const out = widths.map((w, i) => (shown[i] ? w : 0));
  while (span(out) > total) {
    let widest = -1;
    out.forEach((w, i) => {
      if (shown[i] && w > least[i]! && (widest < 0 || w > out[widest]!)) widest = i;
    });
    if (widest < 0) break;
    out[widest]!--;
  }
  return out;
}

/** The plain form, for pipes and logs: aligned columns, no colour. */
export function plainText(shown: Shown): string {
  if (shown.kind === 'text') return shown.text;
  if (shown.kind === 'record') {
    const width = Math.max(...shown.fields.map(([label]) => label.length));
    const lines = shown.fields.map(([label, value]) => `${label.padEnd(width)}  ${cellText(value)}`);
    return [...(shown.title ? [shown.title] : []), ...lines].join('\n');
  }
  if (shown.rows.length === 0) return shown.empty ?? 'nothing found';
  const { headers, rows, widths } = tableCells(shown.columns, shown.rows);
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(headers.map((h) => h.toUpperCase())), ...rows.map(line), ...(shown.footer ? [shown.footer] : [])].join('\n');
}
