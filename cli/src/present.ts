// What a command shows a person, apart from its data: a table, a record or a line. The same
// description drives the Ink view (a TTY) and the plain text (a pipe); --json skips it and prints
// the data itself.

export type Column = { header: string; value: (row: never) => unknown };
export type Shown =
  | { kind: 'table'; columns: Column[]; rows: unknown[]; empty?: string; footer?: string }
  | { kind: 'record'; title?: string; fields: [string, unknown][] }
  | { kind: 'text'; text: string };

export const column = <R>(header: string, value: (row: R) => unknown): Column => ({ header, value: value as (row: never) => unknown });

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
