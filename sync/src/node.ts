// Node-only entry ('@zapdesk/sync/node'), imported by the CLI and tests, never by the web: Node
// has no IndexedDB and (in Node 20) no global WebSocket. It provides a Replicache store over
// better-sqlite3, so a CLI keeps its cache between runs, and the `ws` socket for pokes.
import { RWLock } from '@rocicorp/lock';
import SQLite from 'better-sqlite3';
import type { KVStoreProvider, ReadonlyJSONValue } from 'replicache';
import WebSocket from 'ws';
import { createReplicache, type CreateReplicacheOptions, type SyncClient } from './replicache.ts';
import type { WebSocketFactory, WebSocketLike } from './replicache-pokes.ts';

export { createApiClient, type RefreshTokenStore } from './client.ts';
// The poke socket alone, for views that stay on REST and refresh on a poke (the CLI's campaign report).
export { subscribePokes } from './replicache-pokes.ts';

type Statements = {
  get: SQLite.Statement<[string, string], { value: string }>;
  put: SQLite.Statement<[string, string, string]>;
  del: SQLite.Statement<[string, string]>;
  drop: SQLite.Statement<[string]>;
};

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

class SqliteRead {
  closed = false;
  protected readonly name: string;
  protected readonly s: Statements;
  readonly #release: () => void;
  constructor(s: Statements, name: string, release: () => void) {
    this.s = s;
    this.name = name;
    this.#release = release;
  }
  async has(key: string): Promise<boolean> {
    return this.s.get.get(this.name, key) !== undefined;
  }
  async get(key: string): Promise<ReadonlyJSONValue | undefined> {
    const row = this.s.get.get(this.name, key);
    return row ? deepFreeze(JSON.parse(row.value) as ReadonlyJSONValue) : undefined;
  }
  release(): void {
    if (this.closed) return;
    this.closed = true;
    this.#release();
  }
}

/** Writes are buffered and applied in one SQLite transaction on commit (Replicache's contract). */
class SqliteWrite extends SqliteRead {
  readonly #pending = new Map<string, ReadonlyJSONValue | undefined>();
  readonly #db: SQLite.Database;
  constructor(db: SQLite.Database, s: Statements, name: string, release: () => void) {
    super(s, name, release);
    this.#db = db;
  }
  override async has(key: string): Promise<boolean> {
    return this.#pending.has(key) ? this.#pending.get(key) !== undefined : super.has(key);
  }
  override async get(key: string): Promise<ReadonlyJSONValue | undefined> {
    return this.#pending.has(key) ? this.#pending.get(key) : super.get(key);
  }
  async put(key: string, value: ReadonlyJSONValue): Promise<void> {
    this.#pending.set(key, value);
  }
  async del(key: string): Promise<void> {
    this.#pending.set(key, undefined);
  }
  async commit(): Promise<void> {
    this.#db.transaction(() => {
      for (const [key, value] of this.#pending) {
        if (value === undefined) this.s.del.run(this.name, key);
        else this.s.put.run(this.name, key, JSON.stringify(value));
      }
    })();
    this.#pending.clear();
  }
}

/**
 * A Replicache store provider over one SQLite file (or ':memory:'). Every store name is a slice of
 * one table; stores of one name share a read/write lock, as Replicache expects.
 */
export function createSqliteStoreProvider(file: string): KVStoreProvider & { close(): void } {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE IF NOT EXISTS replicache_kv (store TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (store, key)) WITHOUT ROWID');
  const s: Statements = {
    get: db.prepare('SELECT value FROM replicache_kv WHERE store = ? AND key = ?'),
    put: db.prepare('INSERT INTO replicache_kv (store, key, value) VALUES (?, ?, ?) ON CONFLICT (store, key) DO UPDATE SET value = excluded.value'),
    del: db.prepare('DELETE FROM replicache_kv WHERE store = ? AND key = ?'),
    drop: db.prepare('DELETE FROM replicache_kv WHERE store = ?'),
  };
  const locks = new Map<string, RWLock>();
  const lockOf = (name: string) => {
    let l = locks.get(name);
    if (!l) locks.set(name, (l = new RWLock()));
    return l;
  };
  return {
    create(name: string) {
      const lock = lockOf(name);
      return {
        closed: false,
        async read() {
          return new SqliteRead(s, name, await lock.read());
        },
        async write() {
          return new SqliteWrite(db, s, name, await lock.write());
        },
        async close() {
          this.closed = true;
        },
      };
    },
    async drop(name: string) {
      await lockOf(name).withWrite(() => s.drop.run(name));
    },
    close: () => db.close(),
  };
}

export const nodeSocketFactory: WebSocketFactory = (url) => new WebSocket(url) as unknown as WebSocketLike;

/**
 * A Replicache for Node: the SQLite store in `storeFile` (default: memory) and `ws` for pokes.
 * Closing it closes the store file too.
 */
export function createNodeReplicache(opts: Omit<CreateReplicacheOptions, 'kvStore' | 'createSocket'> & { storeFile?: string; pokes?: boolean }): SyncClient {
  const provider = opts.storeFile ? createSqliteStoreProvider(opts.storeFile) : undefined;
  // Node has no page to reload: a client whose state the server lost is simply closed.
  const client = createReplicache({
    ...opts,
    kvStore: provider ?? 'mem',
    createSocket: opts.pokes === false ? null : nodeSocketFactory,
    onClientStateNotFound: opts.onClientStateNotFound ?? (() => {}),
  });
  return {
    ...client,
    async close() {
      await client.close();
      provider?.close();
    },
  };
}
