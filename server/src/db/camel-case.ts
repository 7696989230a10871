// Result rows renamed to camelCase. Kysely's CamelCasePlugin rebuilds each row with Array.reduce,
// adding its columns one by one: under load that is a few percent of the server's CPU (a burst of
// pushes and pulls maps hundreds of thousands of rows). The rows of one result have the same
// columns, so each set of columns gets a function, made once, that copies a row as one object
// literal (V8 builds those in one step). Values are mapped as the plugin maps them: a plain object,
// or the plain objects in an array, get their keys renamed too (PostgreSQL's json results).
import { CamelCasePlugin, type PluginTransformResultArgs, type QueryResult, type UnknownRow } from 'kysely';

type RowMapper = (row: UnknownRow, nested: (value: object) => unknown) => UnknownRow;

/** Column sets remembered at most (one per distinct select; the server has a few hundred). */
const MAPPERS_MAX = 2000;

export class ResultCamelCasePlugin extends CamelCasePlugin {
  private readonly mappers = new Map<string, RowMapper>();
  private readonly nested = (value: object): unknown => {
    if (Array.isArray(value)) return value.map((item: unknown) => (isPlainObject(item) ? this.mapRow(item) : item));
    return isPlainObject(value) ? this.mapRow(value) : value;
  };

  override async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const { rows } = args.result;
    if (!Array.isArray(rows) || rows.length === 0 || !isPlainObject(rows[0])) return super.transformResult(args);
    const mapper = this.mapperFor(Object.keys(rows[0]));
    const mapped = new Array<UnknownRow>(rows.length);
    for (let r = 0; r < rows.length; r++) mapped[r] = mapper(rows[r]!, this.nested);
    return { ...args.result, rows: mapped };
  }

  private mapperFor(columns: string[]): RowMapper {
    const key = columns.join('\u0000');
    let mapper = this.mappers.get(key);
    if (!mapper) {
      // Column names come from the database's answer; JSON.stringify quotes them as JS string literals.
      const fields = columns.map((column) => `${JSON.stringify(this.camelCase(column))}: (v = row[${JSON.stringify(column)}], typeof v === 'object' && v !== null ? nested(v) : v)`);
      mapper = new Function('row', 'nested', `let v; return { ${fields.join(', ')} };`) as RowMapper;
      if (this.mappers.size >= MAPPERS_MAX) this.mappers.clear();
      this.mappers.set(key, mapper);
    }
    return mapper;
  }
}

/** Kysely's own test: an object literal (or one without a prototype), not a Date, Buffer or class instance. */
function isPlainObject(value: unknown): value is UnknownRow {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype;
}

/** The plugin's renaming, for rows read without Kysely's executor (db/database.ts, runCompiled). */
class Renamer extends ResultCamelCasePlugin {
  column(name: string): string {
    return this.camelCase(name);
  }
  row(row: UnknownRow): UnknownRow {
    return this.mapRow(row);
  }
}
const renamer = new Renamer();

/** A column's name as the camel-case plugin gives it. */
export const camelCaseName = (column: string): string => renamer.column(column);

/** A row as the camel-case plugin gives it. */
export const camelCaseRow = (row: UnknownRow): UnknownRow => renamer.row(row);
