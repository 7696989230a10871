import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SelectQueryNode, SqliteDialect, type DatabaseConnection, type Driver, type QueryResult, type Transaction, type UnknownRow } from 'kysely';
import pg from 'pg';
import { camelCaseName, camelCaseRow, ResultCamelCasePlugin } from './camel-case.ts';
import { startCheckpointer, type Checkpointer, type CheckpointStats } from './checkpointer.ts';
import { FOLD_FUNCTION, foldText } from './fold.ts';
import type { DB } from './schema.ts';

export type Database = Kysely<DB>;
export type Dialect = 'sqlite' | 'postgres';

// timestamptz comes back as an ISO string, the same shape SQLite stores, so services see one type.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (v) => new Date(v).toISOString());
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

/** A `postgres://` (or `postgresql://`) URL opens PostgreSQL; anything else is an SQLite file. */
export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//.test(url);

/** Opens the database named by a URL: `postgres://…` for PostgreSQL, otherwise a SQLite file path (or `:memory:`). */
export function openDatabase(url: string): { db: Database; dialect: Dialect } {
  if (isPostgresUrl(url)) return openPostgres(url, 10);
  const plugins = [new ResultCamelCasePlugin()];
  const file = url.replace(/^sqlite:(\/\/)?/, '');
  const writer = openSqlite(file, false);
  // A file has a second, read-only connection: reads outside a write need not wait for it (WAL).
  const onDisk = file !== ':memory:' && file !== '';
  const reader = onDisk ? openSqlite(file, true) : undefined;
  const mutex = new Mutex();
  const checkpointer = onDisk ? startCheckpointer(file, { lockWriter: (fn) => mutex.run(fn) }) : undefined;
  const key = onDisk ? path.resolve(file) : undefined;
  if (key) handlesOfFile.set(key, (handlesOfFile.get(key) ?? 0) + 1);
  const released = () => {
    if (key) handlesOfFile.set(key, handlesOfFile.get(key)! - 1);
  };
  const db = new Kysely<DB>({ dialect: new RoutedSqliteDialect(writer, reader, mutex, { checkpointer, released }), plugins });
  // The same connections, whose transactions take the writer ahead of those waiting (transactionFirst).
  const first = new Kysely<DB>({ dialect: new RoutedSqliteDialect(writer, reader, mutex, { first: true }), plugins });
  writers.set(db, { sqlite: writer, reader: reader ?? writer, mutex, checkpointer, file: key, first });
  return { db, dialect: 'sqlite' };
}

/**
 * The database named by a URL, for reads only: another thread's own handle (the pull thread,
 * sync/pull-thread.ts). A SQLite file gets one read-only connection (WAL: it sees every commit of
 * the process's writer, and can write nothing), a PostgreSQL URL a small pool of its own.
 */
export function openReadOnlyDatabase(url: string): { db: Database; dialect: Dialect } {
  if (isPostgresUrl(url)) return openPostgres(url, 4);
  const plugins = [new ResultCamelCasePlugin()];
  const file = url.replace(/^sqlite:(\/\/)?/, '');
  if (file === ':memory:' || file === '') throw new Error('openReadOnlyDatabase: an in-memory database has no second handle');
  const reader = openSqlite(file, true);
  const mutex = new Mutex();
  const db = new Kysely<DB>({ dialect: new RoutedSqliteDialect(reader, reader, mutex, {}), plugins });
  writers.set(db, { sqlite: reader, reader, mutex, checkpointer: undefined, file: undefined, first: db });
  return { db, dialect: 'sqlite' };
}

/** A PostgreSQL database through a pool of at most `max` connections. */
function openPostgres(url: string, max: number): { db: Database; dialect: Dialect } {
  const pool = new pg.Pool({ connectionString: url, max });
  return { db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [new ResultCamelCasePlugin()] }), dialect: 'postgres' };
}

// Open handles per SQLite file in this process (see soleWriter).
const handlesOfFile = new Map<string, number>();

/**
 * Whether this SQLite handle is the only one open on its file in this process. Only then may a
 * transaction stay open while the event loop runs (db/write.ts lets a long group of writes do so):
 * another handle of this thread asking for the file's write lock would wait for it synchronously,
 * holding the very thread the open transaction needs to end. (Two handles on one file in one
 * process: tests that play two instances.)
 */
export function soleWriter(db: Database): boolean {
  const writer = writers.get(db);
  return writer !== undefined && (writer.file === undefined || handlesOfFile.get(writer.file) === 1);
}

function openSqlite(file: string, readonly: boolean): SQLite.Database {
  const sqlite = new SQLite(file, { readonly });
  if (!readonly) {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    // Checkpoints (copying the WAL back into the file) run off this thread (checkpointer.ts);
    // SQLite's own, inside a commit on this thread, only past 10,000 pages (~40 MB of WAL), as a
    // backstop. A WAL that grew under a burst is cut back to 64 MB when it starts over.
    sqlite.pragma('wal_autocheckpoint = 10000');
    sqlite.pragma('journal_size_limit = 67108864');
    sqlite.pragma('foreign_keys = ON');
  }
  sqlite.pragma('busy_timeout = 5000');
  // The writer maps the file instead of copying each page through read(). The read-only connection
  // does not: in WAL mode a connection that sees another's commit at the start of its next read
  // unmaps the whole file and faults every page it touches back in. Under steady writes that made
  // each read there (a session lookup, the outbox's read-ahead, a pull's views) 5-6 times dearer
  // than reading the same pages through read() (a one-row join: 150-190 µs against 27-30 µs).
  if (!readonly) sqlite.pragma('mmap_size = 268435456');
  // The page cache keeps 64 MB of decoded pages rather than the default 16 MB.
  sqlite.pragma('cache_size = -65536');
  // Temporary storage (savepoints' sub-journals, temporary b-trees) in memory. A group of writes
  // gives each write a savepoint (db/write.ts), and SQLite keeps the pages a savepoint may have to
  // restore in a sub-journal that, past 64 KB, spilled into a new file under /var/tmp: 2-3 files per
  // flow event, each opened, written in ~80 pieces, unlinked and closed (172,000 writes in a
  // 900-event run, more than the WAL's); a message's insert in a push cost 86 µs, 35 µs without.
  // A sub-journal holds no more than the pages its transaction changed.
  sqlite.pragma('temp_store = MEMORY');
  // PostgreSQL has it as a SQL function (a migration); SQLite's lower() is ASCII-only.
  sqlite.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) => (value === null || value === undefined ? null : foldText(String(value))));
  cachePreparedStatements(sqlite);
  return sqlite;
}

/**
 * How a driver uses the connections: the database's own closes them when destroyed (`released`
 * tells the handle count, see soleWriter); the one transactionFirst uses (`first`) takes the
 * writer ahead of those waiting and never closes what it shares.
 */
type RouteOptions = { checkpointer?: Checkpointer; released?: () => void; first?: boolean };

/**
 * Kysely's SQLite driver has one connection behind a mutex: a transaction holds it from begin to
 * commit, across every await in between, so a plain read (a GET, a pull's view) waits for whatever
 * write is under way — with group commit and a campaign's batch, tens of milliseconds. This driver
 * keeps the writer's mutex for transactions and statements that write, and sends a statement that
 * cannot write (SQLite's own `readonly`), outside a transaction, to the read-only connection at
 * once. In WAL mode that read sees everything committed (a write's promise resolves after its
 * commit), never a write in progress.
 */
class RoutedSqliteDialect extends SqliteDialect {
  constructor(
    private readonly writer: SQLite.Database,
    private readonly reader: SQLite.Database | undefined,
    private readonly mutex: Mutex,
    private readonly options: RouteOptions,
  ) {
    super({ database: writer });
  }

  override createDriver(): Driver {
    return new RoutedSqliteDriver(this.writer, this.reader ?? this.writer, this.mutex, this.options);
  }
}

class RoutedSqliteDriver implements Driver {
  constructor(
    private readonly writer: SQLite.Database,
    private readonly reader: SQLite.Database,
    private readonly mutex: Mutex,
    private readonly options: RouteOptions,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this.writer, this.reader, this.mutex, this.options.first === true);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutedConnection).bind();
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as RoutedConnection).unbind();
  }

  async destroy(): Promise<void> {
    if (this.options.first) return;
    await this.options.checkpointer?.close();
    if (this.reader !== this.writer) this.reader.close();
    this.writer.close();
    this.options.released?.();
  }
}

/** One use of the driver: unbound, each statement finds its connection; bound (a transaction), all go to the writer. */
class RoutedConnection implements DatabaseConnection {
  private bound = false;
  constructor(
    private readonly writer: SQLite.Database,
    private readonly reader: SQLite.Database,
    private readonly mutex: Mutex,
    private readonly first: boolean,
  ) {}

  async bind(): Promise<void> {
    await this.mutex.lock(this.first);
    this.bound = true;
    boundConnections.set(this.writer, this);
  }

  unbind(): void {
    if (!this.bound) return;
    this.bound = false;
    boundConnections.delete(this.writer);
    this.mutex.unlock();
  }

  /** A statement of this connection's transaction, on the writer now; undefined once the transaction ended. */
  runBound<R>(query: CompiledQuery): QueryResult<R> | undefined {
    return this.bound ? run<R>(this.writer, query, true) : undefined;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.bound) return run<R>(this.writer, query);
    // SQLite itself tells a statement that cannot write (a Kysely select, a raw SELECT over the search index).
    if (goesToReader(this.writer, this.reader, query)) return run<R>(this.reader, query);
    await this.mutex.lock();
    try {
      return run<R>(this.writer, query);
    } finally {
      this.mutex.unlock();
    }
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('SQLite streams select queries only');
    const sqlite = this.bound ? this.writer : this.reader;
    for (const row of sqlite.prepare(query.sql).iterate(query.parameters)) yield { rows: [row as R] };
  }
}

/** A statement outside a transaction that cannot write, on a file with a read-only connection: it goes there. */
function goesToReader(writer: SQLite.Database, reader: SQLite.Database, query: CompiledQuery): boolean {
  return reader !== writer && writer.prepare(query.sql).readonly;
}

/**
 * A statement on a connection. `camel`: the rows' keys in camelCase, as Kysely's camel-case plugin
 * renames them (for the callers that skip Kysely's executor: runCompiled, runFirst).
 */
function run<R>(sqlite: SQLite.Database, query: CompiledQuery, camel = false): QueryResult<R> {
  const statement = sqlite.prepare(query.sql);
  if (statement.reader) return { rows: readRows(statement, query.parameters, camel) as R[] };
  if (SCHEMA_CHANGE.test(query.sql)) schemaGeneration++;
  const { changes, lastInsertRowid } = statement.run(query.parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/**
 * A statement's rows as objects, each made in one step from the row's values. better-sqlite3 builds
 * a row object property by property from C++: 4 µs for a row of 22 columns (a pull reads hundreds of
 * messages and tickets), against 1.7 µs for the row as an array of its values; a function compiled
 * once per statement turns that array into the same object (the same keys in the same order; of two
 * columns of one name, the later one's value at the first one's place), in one step.
 */
function readRows(statement: SQLite.Statement, parameters: readonly unknown[], camel: boolean): unknown[] {
  const makers = camel ? camelRowMakers : rowMakers;
  let maker = makers.get(statement);
  if (maker === undefined || maker.generation !== schemaGeneration) {
    // Its first run (after a schema change, SQLite prepares it again as it runs): C++'s objects,
    // then the maker for the columns it has now.
    const rows = objectRows(statement, parameters, camel);
    makers.set(statement, rowMaker(statement, camel));
    return rows;
  }
  if (maker.make === undefined) return objectRows(statement, parameters, camel);
  statement.raw(true);
  let rows: unknown[][];
  try {
    rows = statement.all(parameters) as unknown[][];
  } finally {
    statement.raw(false);
  }
  // SQLite re-prepared the statement after a schema change made elsewhere (`select *` of a table
  // that gained a column): its new columns.
  if (rows.length > 0 && rows[0]!.length !== maker.columns) {
    makers.set(statement, (maker = rowMaker(statement, camel)));
    if (maker.make === undefined || rows[0]!.length !== maker.columns) return objectRows(statement, parameters, camel);
  }
  const make = maker.make;
  const objects = new Array<unknown>(rows.length);
  for (let i = 0; i < rows.length; i++) objects[i] = make(rows[i]!);
  return objects;
}

/** The rows as better-sqlite3 makes them, property by property (renamed to camelCase when asked). */
function objectRows(statement: SQLite.Statement, parameters: readonly unknown[], camel: boolean): unknown[] {
  const rows = statement.all(parameters);
  return camel ? rows.map((row) => camelCaseRow(row as UnknownRow)) : rows;
}

type RowMaker = { generation: number; columns: number; make: ((values: unknown[]) => object) | undefined };
const rowMakers = new WeakMap<SQLite.Statement, RowMaker>();
const camelRowMakers = new WeakMap<SQLite.Statement, RowMaker>();

// Moved by every schema change made through this driver (migrations, tests): a statement's row
// maker is made again after one, as SQLite prepares the statement again.
let schemaGeneration = 0;
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

function rowMaker(statement: SQLite.Statement, camel: boolean): RowMaker {
  const names = statement.columns().map((c) => (camel ? camelCaseName(c.name) : c.name));
  // A column named __proto__ would set the object's prototype in a literal: such rows stay C++'s.
  const make = names.includes('__proto__') ? undefined : (new Function('v', `return { ${names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ')} };`) as RowMaker['make']);
  return { generation: schemaGeneration, columns: names.length, make };
}

/**
 * The writer's connection for one transaction or statement at a time: first come, first served,
 * except that a short statement asked for `first` (runFirst) goes before those waiting.
 */
class Mutex {
  private held = false;
  private readonly waiting: (() => void)[] = [];
  private readonly firsts: (() => void)[] = [];
  private readonly firstListeners = new Set<() => void>();

  lock(first = false): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      (first ? this.firsts : this.waiting).push(resolve);
      if (first) for (const listener of [...this.firstListeners]) listener();
    });
  }

  /** Calls `listener` when a statement asks to go first while the writer is held; answers how to stop. */
  onFirstWaiting(listener: () => void): () => void {
    this.firstListeners.add(listener);
    return () => this.firstListeners.delete(listener);
  }

  unlock(): void {
    // Handed over as held: nobody can slip in between.
    const next = this.firsts.shift() ?? this.waiting.shift();
    if (next) next();
    else this.held = false;
  }

  /** Runs `fn` holding the writer (in its turn, as a transaction does). */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.lock();
    try {
      return await fn();
    } finally {
      this.unlock();
    }
  }

  /** A statement asked to go first is waiting: a group of writes ends its transaction early for it. */
  get firstWaiting(): boolean {
    return this.firsts.length > 0;
  }
}

// Per SQLite database handle: its writer and reader connections, the writer's mutex (runFirst, firstWaiting),
// its checkpointer, and the Kysely over the same connections that transactionFirst uses.
const writers = new WeakMap<Database, { sqlite: SQLite.Database; reader: SQLite.Database; mutex: Mutex; checkpointer: Checkpointer | undefined; file: string | undefined; first: Database }>();

/** The checkpoints run off the writer's thread so far (a SQLite file; undefined otherwise). */
export function checkpointStats(db: Database): CheckpointStats | undefined {
  return writers.get(db)?.checkpointer?.stats;
}

/**
 * Runs one short writing statement ahead of the transactions and statements waiting for SQLite's
 * writer (the outbox claiming the rows it is about to send: a lane's slots must not wait behind a
 * backlog of pushed writes). Several statements run in turn under that one hold (a read after the
 * write, on the writer's warm page cache), each in its own autocommit. Elsewhere (PostgreSQL's
 * pool, a transaction) they run as any statements, in turn.
 */
export async function runFirst<R>(db: Database, query: CompiledQuery<R>): Promise<QueryResult<R>>;
export async function runFirst(db: Database, queries: CompiledQuery[]): Promise<QueryResult<unknown>[]>;
export async function runFirst(db: Database, queries: CompiledQuery | CompiledQuery[]): Promise<QueryResult<unknown> | QueryResult<unknown>[]> {
  const list = Array.isArray(queries) ? queries : [queries];
  const writer = db.isTransaction ? undefined : writers.get(db);
  const results: QueryResult<unknown>[] = [];
  if (!writer) {
    for (const query of list) results.push(await db.executeQuery(query));
  } else {
    await writer.mutex.lock(true);
    try {
      // Named as Kysely's executor would name them (its camel-case plugin).
      for (const query of list) results.push(run(writer.sqlite, query, true));
    } finally {
      writer.mutex.unlock();
    }
  }
  return Array.isArray(queries) ? results : results[0]!;
}

// The connection a SQLite writer is bound to while a transaction holds it (one at a time: the mutex),
// and the transactions that may run their statements on it directly (trackTransaction).
const boundConnections = new WeakMap<SQLite.Database, RoutedConnection>();
const trackedTransactions = new WeakMap<object, RoutedConnection>();

/**
 * A transaction just begun on `db` (SQLite) whose compiled statements may skip Kysely's executor
 * (runCompiled): the write helpers that own the hot transactions call it (db/write.ts, the inbound
 * group commit). Others work as before, through Kysely.
 */
export function trackTransaction(db: Database, trx: Transaction<DB>): void {
  const writer = writers.get(db);
  const connection = writer && boundConnections.get(writer.sqlite);
  if (connection) trackedTransactions.set(trx, connection);
}

/**
 * A compiled statement (a prepared query, a savepoint) with Kysely's answer: rows named by its
 * camel-case plugin. On SQLite, in a tracked transaction, it runs on the writer at once, and a read
 * outside one on the reader connection, as the driver would send them, without the executor's
 * layers of promises: a statement of a write took 6.5-7 µs through them against ~1.5 µs run as it
 * is, and a flow's step runs some twenty. A statement of an ended transaction, a write outside
 * one, an in-memory database and PostgreSQL go through Kysely.
 */
export function runCompiled<R>(db: Kysely<DB>, query: CompiledQuery<R>): Promise<QueryResult<R>> {
  try {
    const connection = trackedTransactions.get(db);
    const bound = connection?.runBound<R>(query);
    if (bound) return Promise.resolve(bound);
    const handles = connection || db.isTransaction ? undefined : writers.get(db as Database);
    if (handles && goesToReader(handles.sqlite, handles.reader, query)) return Promise.resolve(run<R>(handles.reader, query, true));
    // Kysely throws at once, not in its promise, for a transaction that ended.
    return db.executeQuery(query);
  } catch (err) {
    return Promise.reject(err);
  }
}

/**
 * A select's rows as arrays of their column values, in the select's order, for reads of many narrow
 * rows (the message view's windows: thousands of (id, version) rows a pull), as better-sqlite3
 * gives them: no object per row, and no copy of each by Kysely's camel-case plugin.
 * SQLite outside a transaction: the reader connection, as any read. Elsewhere the rows Kysely
 * returns, as arrays (their keys keep the select's order).
 */
export async function selectArrays(db: Database, query: CompiledQuery): Promise<unknown[][]> {
  const handles = db.isTransaction ? undefined : writers.get(db);
  if (!handles) return (await db.executeQuery<Record<string, unknown>>(query)).rows.map((row) => Object.values(row));
  // The statement is the connection's cached one: back to objects before anyone else runs it.
  const statement = handles.reader.prepare(query.sql).raw(true);
  try {
    return statement.all(query.parameters) as unknown[][];
  } finally {
    statement.raw(false);
  }
}

/**
 * `db.transaction().execute(work)`, taking SQLite's writer ahead of the transactions and statements
 * waiting for it, as runFirst does for one statement (a pull's bookkeeping: the pull waits for it).
 * A group of writes under way ends early for it. Elsewhere, an ordinary transaction.
 */
export function transactionFirst<T>(db: Database, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return (writers.get(db)?.first ?? db).transaction().execute(work);
}

/** Whether a statement asked to go first waits for SQLite's writer (see runFirst). */
export function firstWaiting(db: Database): boolean {
  return writers.get(db)?.mutex.firstWaiting ?? false;
}

/** Calls `listener` when a statement asks to go first while SQLite's writer is held (see runFirst); answers how to stop. */
export function onFirstWaiting(db: Database, listener: () => void): () => void {
  return writers.get(db)?.mutex.onFirstWaiting(listener) ?? (() => undefined);
}

/**
 * A lookup of a tenant table by a list of ids (`"t"."id" in (…) and "t"."company_id" = ?`, what
 * `tenant()` writes) must walk the primary key. Without statistics SQLite's planner takes the
 * company's index instead (its equality looks more selective than an IN list), which reads every
 * row of the company: 2 ms per pull on a company with 10,000 messages, growing with each one. A
 * unary plus takes the company term out of index selection (SQLite's documented way to disqualify
 * a term); it is still checked on every row the key finds. company_id is always bound as an
 * integer (`tenant()` refuses anything else), so dropping the column's affinity changes nothing.
 */
export function preferPrimaryKey(source: string): string {
  if (!source.includes('"."id" in (')) return source;
  // Only the company term of the statement (or subquery) that holds the id list: a subquery's own
  // company term still leads it to its index (a slice's `… id in (select id … where company_id = ?
  // limit n)` would otherwise scan the whole table).
  const scopes = statementScopes(source);
  const lists = new Set<string>();
  for (const m of source.matchAll(/"(\w+)"\."id" in \(/g)) lists.add(`${scopes[m.index]}:${m[1]}`);
  return source.replace(/(?<![+\w])"(\w+)"\."company_id" = \?/g, (term: string, table: string, at: number) => (lists.has(`${scopes[at]}:${table}`) ? `+${term}` : term));
}

/**
 * For each character of `source`, the statement it belongs to: 0 the outer one, a new number for
 * each parenthesised `select`; other parentheses (grouped conditions, lists, calls) stay in theirs.
 * Quoted strings and names are skipped.
 */
function statementScopes(source: string): Int32Array {
  const scopes = new Int32Array(source.length);
  const stack: number[] = [];
  let current = 0;
  let next = 1;
  let quote: string | undefined;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
    } else if (ch === '(') {
      stack.push(current);
      if (/^\(\s*select\b/i.test(source.slice(i, i + 16))) current = next++;
    } else if (ch === ')') {
      current = stack.pop() ?? 0;
    }
    scopes[i] = current;
  }
  return scopes;
}

/**
 * Kysely's SQLite driver prepares every statement anew; preparing an insert compiles the table's
 * triggers (full-text index, sync counters) too, a large share of a hot path's time. Statements are
 * reusable, so the same SQL text gets the same statement (SQLite re-prepares by itself after a
 * schema change). Bounded, the least recently used out, in two generations: a hit in the newer one
 * is one look-up (every statement of every query comes here: moving each hit to the end of one map
 * was 2 % of the flow benchmark's main thread); the older generation, replaced once the newer one
 * fills, keeps what was used since by moving it over.
 */
export function cachePreparedStatements(sqlite: SQLite.Database, max = 1000): void {
  const prepareRaw = sqlite.prepare.bind(sqlite);
  let newer = new Map<string, SQLite.Statement>();
  let older = new Map<string, SQLite.Statement>();
  sqlite.prepare = ((source: string) => {
    let statement = newer.get(source);
    if (statement) return statement;
    statement = older.get(source) ?? prepareRaw(preferPrimaryKey(source));
    older.delete(source);
    newer.set(source, statement);
    if (newer.size >= max / 2) {
      older = newer;
      newer = new Map();
    }
    return statement;
  }) as typeof sqlite.prepare;
}

export function nowIso(): string {
  return new Date().toISOString();
}
