// The few statements every pull runs, as fixed SQL text: after a poke, each connected client pulls,
// so building these with Kysely's query builder (node trees, plugins, compilation) on every request
// was a large share of a pull. Each text is written once with `?` placeholders and numbered for
// PostgreSQL once; SQLite's prepared statements are reused by text (db/database.ts). Results still
// pass through the database's plugins (snake_case → camelCase). Every statement of a company's rows
// names its company.
import { CompiledQuery } from 'kysely';
import type { Database, Dialect } from '../db/database.ts';

export type Statement<R> = (db: Database, ...params: unknown[]) => Promise<R[]>;

export function statement<R>(dialect: Dialect, text: string): Statement<R> {
  let n = 0;
  const sqlText = dialect === 'postgres' ? text.replace(/\?/g, () => `$${++n}`) : text;
  return async (db, ...params) => (await db.executeQuery<R>(CompiledQuery.raw(sqlText, params))).rows;
}

export type PullStateRow = { k: number; id: string; v: number };

const PULL_STATE = `SELECT 0 AS k, tbl AS id, version AS v FROM sync_versions WHERE company_id IN (?, 0)
  UNION ALL
  SELECT 1 AS k, id, last_mutation_id AS v FROM replicache_clients WHERE company_id = ? AND client_group_id = ?`;

/** A statement over `n` rows at once, its text built once per `n`. */
function perCount<R>(dialect: Dialect, build: (n: number) => string): (n: number) => Statement<R> {
  const built = new Map<number, Statement<R>>();
  return (n) => {
    let s = built.get(n);
    if (!s) built.set(n, (s = statement<R>(dialect, build(n))));
    return s;
  };
}

const rows = (n: number, row: string) => Array.from({ length: n }, () => row).join(', ');

/** The statements of the pull path, for one dialect. */
export function pullStatements(dialect: Dialect) {
  return {
    /** The company's change counters (and the platform's, company 0), then the group's clients. */
    pullState: statement<PullStateRow>(dialect, PULL_STATE),
    /** The same, and the session's user (role as id, super as v) when the session is live. */
    pullStateWithSession: statement<PullStateRow>(
      dialect,
      `${PULL_STATE}
       UNION ALL
       SELECT 2 AS k, u.profile AS id, u.super AS v FROM user_sessions s JOIN users u ON u.id = s.user_id
       WHERE s.id = ? AND s.revoked_at IS NULL AND u.id = ? AND u.company_id = ?`,
    ),
    /** One atomic step past both the stored version and the cookie's (a group the server lost restarts above it). */
    bumpGroupVersion: statement<{ cvrVersion: number }>(
      dialect,
      `UPDATE replicache_client_groups SET cvr_version = (CASE WHEN cvr_version > ? THEN cvr_version ELSE ? END) + 1, updated_at = ?
       WHERE company_id = ? AND id = ? RETURNING cvr_version`,
    ),
    /**
     * bumpGroupVersion for n groups in one statement (params: company, group, base per group, then
     * the time); a group appears at most once. Groups that do not exist are missing from the result.
     */
    bumpGroupVersions: perCount<{ id: string; cvrVersion: number }>(
      dialect,
      (n) => `WITH v (company_id, id, base) AS (VALUES ${rows(n, '(CAST(? AS INTEGER), ?, CAST(? AS INTEGER))')})
       UPDATE replicache_client_groups SET cvr_version = (CASE WHEN replicache_client_groups.cvr_version > v.base THEN replicache_client_groups.cvr_version ELSE v.base END) + 1, updated_at = ?
       FROM v WHERE replicache_client_groups.company_id = v.company_id AND replicache_client_groups.id = v.id
       RETURNING replicache_client_groups.id, replicache_client_groups.cvr_version`,
    ),
    /** insertCvr for n rows (its eight params per row). */
    insertCvrs: perCount<never>(
      dialect,
      (n) => `INSERT INTO replicache_cvrs (company_id, client_group_id, version, entries, watermark, clients, created_at, updated_at) VALUES ${rows(n, '(?, ?, ?, ?, ?, ?, ?, ?)')}`,
    ),
    /** deleteOldCvrs for n groups (company, group, version per group). */
    deleteOldCvrsOf: perCount<never>(
      dialect,
      (n) => `DELETE FROM replicache_cvrs WHERE ${rows(n, '(company_id = ? AND client_group_id = ? AND version <= ?)').replaceAll('), (', ') OR (')}`,
    ),
    advanceWatermark: statement<never>(dialect, `UPDATE replicache_cvrs SET watermark = ? WHERE company_id = ? AND client_group_id = ? AND version = ? AND watermark < ?`),
  };
}
