// Hot-path queries built and compiled once, then run with new values. Building a Kysely query
// (builder objects, the camel-case transform, the compiler) costs more than SQLite takes to run a
// keyed lookup; the inbound pipeline runs a handful per message. The builder is the ordinary typed
// Kysely code; its parameters are slots (`p.ticketId`) that each run fills in.
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import { runCompiled } from './database.ts';
import type { DB } from './schema.ts';

class Slot {
  constructor(
    readonly name: string,
    /** The element of a list parameter, or undefined for a single value. */
    readonly element?: number,
    /** The field of that element, for a list of rows (a multi-row insert's values); or of a row parameter (an update's `set`). */
    readonly field?: string,
  ) {}
}

type Compiled = { query: CompiledQuery; slots: [index: number, name: string, element: number | undefined, field: string | undefined][] };

type Params = { companyId: number };

export type Prepared<P extends object, O> = {
  (db: Kysely<DB>, params: P): Promise<QueryResult<O>>;
  /** The query with these values, compiled (to run it some other way: `runFirst`). */
  compiled(db: Kysely<DB>, params: P): CompiledQuery<O>;
};

/** Lists longer than this are compiled for each run rather than remembered (one entry per length). */
const LIST_CACHE_MAX = 200;

export type PrepareOptions = {
  /**
   * The query's lists of values (not its lists of rows) only select (`in`, `not in`) or pair values
   * by position (db/value-by-id.ts): each is compiled for a few lengths only (paddedLength), filled
   * up by repeating its last value, which selects or pairs nothing new. A list compiled for each
   * length costs SQLite a prepare per length it meets (0.2 ms; 2 ms for a long CASE), and its cache
   * a statement each: the inbound batches of `bench ai` came in 110 lengths.
   */
  padLists?: boolean;
};

/**
 * The length a padded list is compiled for: itself up to 8, then the next multiple of a quarter of
 * the power of two below it (10, 12, 14, 16, 20, 24, …, 112, 128, 160): a few more values than asked
 * for (a quarter at most), and 23 lengths up to 100 instead of a hundred.
 */
export function paddedLength(length: number): number {
  if (length <= 8) return length;
  const step = 2 ** Math.floor(Math.log2(length - 1)) / 4;
  return Math.ceil(length / step) * step;
}

/**
 * `prepare((db, p: { companyId: number; id: number }) => db.selectFrom('tickets').selectAll()
 *   .where('tickets.companyId', '=', p.companyId).where('tickets.id', '=', p.id))`
 *
 * Tenant rule: every prepared query takes `companyId` and must use it (checked when compiled: the
 * slot must be among the parameters), and each run checks it is a valid company id, as `tenant()`
 * does. A list parameter (`where('outbox.id', 'in', p.ids)`) is compiled once per length (per
 * padded length with `padLists`); a list of rows
 * (`insertInto('messages').values(p.rows.map((r) => ({ ...r, companyId: p.companyId })))`) once per
 * length and set of fields, each field of each row a slot. A row parameter (`set(p.changes)`: an
 * update of the columns a caller changes) is compiled once per set of fields it has (undefined
 * fields left out, as Kysely leaves them out). Other values that change the SQL's shape (nulls in
 * `is` tests) cannot be slots.
 */
export function prepare<P extends Params, O>(build: (db: Kysely<DB>, p: P) => Compilable<O>, options: PrepareOptions = {}): Prepared<P, O> {
  return prepared(build, true, options);
}

/**
 * `prepare` for the few statements that serve every company at once (a worker's queue of all
 * tenants' jobs, as the cron jobs read): no `companyId` is asked for. Anything a request or a
 * tenant's write runs is `prepare`d instead.
 */
export function prepareAcrossCompanies<P extends object, O>(build: (db: Kysely<DB>, p: P) => Compilable<O>, options: PrepareOptions = {}): Prepared<P, O> {
  return prepared(build, false, options);
}

function prepared<P extends object, O>(build: (db: Kysely<DB>, p: P) => Compilable<O>, tenantScoped: boolean, options: PrepareOptions): Prepared<P, O> {
  const pad = options.padLists === true;
  // Per dialect adapter (a transaction shares its database's adapter, so it reuses the compiled
  // query), then per the lengths of the list parameters.
  const cache = new WeakMap<object, Map<string, Compiled>>();
  const compiled = (db: Kysely<DB>, params: P): CompiledQuery<O> => {
    const companyId = (params as { companyId?: unknown }).companyId;
    if (tenantScoped && (!Number.isInteger(companyId) || (companyId as number) <= 0)) throw new Error(`prepared query: invalid companyId ${String(companyId)}`);
    const adapter = db.getExecutor().adapter;
    let byShape = cache.get(adapter);
    if (!byShape) cache.set(adapter, (byShape = new Map()));
    const shape = shapeOf(params as Record<string, unknown>, pad);
    let query = shape === undefined ? undefined : byShape.get(shape);
    if (!query) {
      query = compile(db, build, params, tenantScoped, pad);
      if (shape !== undefined) byShape.set(shape, query);
    }
    const parameters = query.query.parameters.slice();
    for (const [index, name, element, field] of query.slots) {
      const value = params[name as keyof P];
      if (element === undefined) parameters[index] = field === undefined ? value : (value as Record<string, unknown>)[field];
      // A padded list's slots past its end take its last value.
      else if (field === undefined) parameters[index] = (value as unknown[])[Math.min(element, (value as unknown[]).length - 1)];
      else {
        const cell = (value as Record<string, unknown>[])[element]![field];
        if (cell === undefined) throw new Error(`prepared query: ${String(name)}[${element}].${field} is undefined`);
        parameters[index] = cell;
      }
    }
    return { ...query.query, parameters } as CompiledQuery<O>;
  };
  const run = (db: Kysely<DB>, params: P) => runCompiled(db, compiled(db, params));
  return Object.assign(run, { compiled });
}

/** How many slots a list parameter is compiled with: its length, padded (paddedLength) for a list of values of a padLists query. */
const compiledLength = (list: readonly unknown[], pad: boolean) => (pad && !isRow(list[0]) ? paddedLength(list.length) : list.length);

/** The lengths of the list parameters (`ids:3`), which decide the SQL; undefined: too long to remember. */
function shapeOf(params: Record<string, unknown>, pad: boolean): string | undefined {
  let shape = '';
  // A loop over the names, not Object.entries: this runs for every prepared statement.
  for (const name in params) {
    const value = params[name];
    if (isRow(value)) {
      shape += `${name}{${fieldsOf(value).join()}};`;
      continue;
    }
    if (!Array.isArray(value)) continue;
    // A list of rows: their fields decide the columns too (the first row's; each run's rows must all have them).
    const first: unknown = value[0];
    const length = compiledLength(value, pad);
    if (length > LIST_CACHE_MAX) return undefined;
    shape += isRow(first) ? `${name}:${length}{${Object.keys(first).join()}};` : `${name}:${length};`;
  }
  return shape;
}

function compile<P, O>(db: Kysely<DB>, build: (db: Kysely<DB>, p: P) => Compilable<O>, params: P, tenantScoped: boolean, pad: boolean): Compiled {
  const slots = new Proxy(
    {},
    {
      get: (_, name) => {
        const value = params[name as keyof P];
        if (isRow(value)) return Object.fromEntries(fieldsOf(value).map((field) => [field, new Slot(String(name), undefined, field)]));
        if (!Array.isArray(value)) return new Slot(String(name));
        if (value.length > 0 && !isRow(value[0])) return Array.from({ length: compiledLength(value, pad) }, (_, i) => new Slot(String(name), i));
        return value.map((v: unknown, i) => (isRow(v) ? Object.fromEntries(Object.keys(v).map((field) => [field, new Slot(String(name), i, field)])) : new Slot(String(name), i)));
      },
    },
  ) as P;
  const query = build(db, slots).compile();
  const found: Compiled['slots'] = [];
  query.parameters.forEach((value, index) => {
    if (value instanceof Slot) found.push([index, value.name, value.element, value.field]);
  });
  if (tenantScoped && !found.some(([, name]) => name === 'companyId')) throw new Error(`prepared query does not filter by companyId: ${query.sql}`);
  return { query, slots: found };
}

/** A row parameter's fields that are set (Kysely leaves undefined ones out of an insert or update). */
const fieldsOf = (row: Record<string, unknown>) => Object.keys(row).filter((field) => row[field] !== undefined);

/** A plain object in a list parameter, or a parameter of its own: a row whose fields are slots of their own. */
function isRow(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
