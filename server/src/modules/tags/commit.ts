// The route owns the transaction; once it commits, the users whose view changed are poked so
// their clients pull. A poke carries no data: the view decides at pull time who sees what.
import type { AppDeps } from '../../context.ts';
import type { Database } from '../../db/database.ts';

function poke(deps: AppDeps, companyIds: number[]) {
  try {
    for (const id of companyIds) deps.realtime.pokeCompany(id);
  } catch (err) {
    // A lost poke only delays clients until their next pull; the write already committed.
    deps.log.warn('poke failed', { error: String(err) });
  }
}

/** Runs `fn` in a transaction, then pokes the company. */
export async function commitAndPoke<T>(deps: AppDeps, companyId: number, fn: (trx: Database) => Promise<T>): Promise<T> {
  const result = await deps.db.transaction().execute(fn);
  poke(deps, [companyId]);
  return result;
}

/** For platform-wide rows (announcements): every company's users pull. */
export async function commitAndPokeAll<T>(deps: AppDeps, fn: (trx: Database) => Promise<T>): Promise<T> {
  const result = await deps.db.transaction().execute(fn);
  const companies = await deps.db.selectFrom('companies').select('companies.id').execute();
  poke(deps, companies.map((c) => c.id));
  return result;
}
