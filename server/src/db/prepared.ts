// Hot-path queries built and compiled once, then run with new values. Building a Kysely query
// (builder objects, the camel-case transform, the compiler) costs more than SQLite takes to run a
// keyed lookup; the inbound pipeline runs a handful per message. The builder is the ordinary typed
// Kysely code; its parameters are slots (`p.ticketId`) that each run fills in.
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { DB } from './schema.ts';

class Slot {
  constructor(readonly name: string) {}
}

type Compiled = { query: CompiledQuery; slots: [index: number, name: string][] };

export type Prepared<P extends { companyId: number }, O> = (db: Kysely<DB>, params: P) => Promise<QueryResult<O>>;

/**
 * `prepare((db, p: { companyId: number; id: number }) => db.selectFrom('tickets').selectAll()
 *   .where('tickets.companyId', '=', p.companyId).where('tickets.id', '=', p.id))`
 *
 * Tenant rule: every prepared query takes `companyId` and must use it (checked when compiled: the
 * slot must be among the parameters), and each run checks it is a valid company id, as `tenant()`
 * does. Values that change the SQL's shape (lists, nulls in `is` tests) cannot be slots.
 */
export function prepare<P extends { companyId: number }, O>(build: (db: Kysely<DB>, p: P) => Compilable<O>): Prepared<P, O> {
  // Per dialect adapter: a transaction shares its database's adapter, so it reuses the compiled query.
  const cache = new WeakMap<object, Compiled>();
  return (db, params) => {
    if (!Number.isInteger(params.companyId) || params.companyId <= 0) throw new Error(`prepared query: invalid companyId ${params.companyId}`);
    const adapter = db.getExecutor().adapter;
    let compiled = cache.get(adapter);
    if (!compiled) cache.set(adapter, (compiled = compile(db, build)));
    const parameters = compiled.query.parameters.slice();
    for (const [index, name] of compiled.slots) parameters[index] = params[name as keyof P];
    return db.executeQuery<O>({ ...compiled.query, parameters });
  };
}

function compile<P, O>(db: Kysely<DB>, build: (db: Kysely<DB>, p: P) => Compilable<O>): Compiled {
  const slots = new Proxy({}, { get: (_, name) => new Slot(String(name)) }) as P;
  const query = build(db, slots).compile();
  const found: [number, string][] = [];
  query.parameters.forEach((value, index) => {
    if (value instanceof Slot) found.push([index, value.name]);
  });
  if (!found.some(([, name]) => name === 'companyId')) throw new Error(`prepared query does not filter by companyId: ${query.sql}`);
  return { query, slots: found };
}
