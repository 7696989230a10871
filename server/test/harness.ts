// Test harness: the real app on a fresh database of each dialect (PostgreSQL when TEST_POSTGRES_URL is set).
import { createAssistants } from '../src/assistants/worker.ts';
import { createWebhookWorker } from '../src/webhooks/worker.ts';
import { createSecretBox } from '../src/auth/secret-box.ts';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app.ts';
import { createRateLimiter, createSharedRateLimiter } from '../src/auth/rate-limit.ts';
import { loadConfig, type Config } from '../src/config.ts';
import type { AppDeps } from '../src/context.ts';
import { openDatabase, type Dialect } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { write } from '../src/db/write.ts';
import { createMemoryLogger } from '../src/log.ts';
import { createPgBus } from '../src/realtime/bus.ts';
import { createRealtime } from '../src/realtime/hub.ts';
import type { Channel } from '../src/channels/types.ts';
import { createOutbox } from '../src/outbound/dispatcher.ts';
import { createKeyedLock } from '../src/inbound/keyed-lock.ts';
import { attachPipeline } from '../src/inbound/index.ts';
import { createChannelSessions } from '../src/channels/index.ts';
import { assertNoGuardViolations, installVersionGuard } from './version-guard.ts';
import { answerProblem, watchParses } from './openapi-check.ts';
import { migratedCopy, runOn, urlOf } from './template-db.ts';

export const DIALECTS: Dialect[] = ['sqlite', ...(process.env.TEST_POSTGRES_URL ? (['postgres'] as const) : [])];

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export async function createTestApp(dialect: Dialect, overrides: Partial<Config> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'zapdesk-test-'));
  let databaseUrl = path.join(dataDir, 'test.db');
  let dropDatabase: (() => Promise<void>) | undefined;
  let migrated: boolean;
  if (dialect === 'postgres') {
    // A database per test app, not a schema: Kysely's migrator introspects every schema of its
    // database, and another file dropping its schema meanwhile made that introspection fail.
    const fresh = await createPostgresDatabase(process.env.TEST_POSTGRES_URL!, { migrated: true });
    databaseUrl = fresh.url;
    dropDatabase = fresh.drop;
    migrated = fresh.migrated;
  } else {
    migrated = await migratedCopy({ sqliteFile: databaseUrl });
  }
  const config: Config = {
    // Simulated phones confirm nothing on their own: a test moves acks itself (POST /simulator/acks, or the faults control).
    ...loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'test-secret', JWT_REFRESH_SECRET: 'test-refresh-secret', WEBHOOKS_ALLOW_PRIVATE: '1', SIMULATOR_DELIVER_MS: '0' }),
    databaseUrl,
    rateLimits: { perIp: 10_000, perAccount: 10_000, windowMs: 60_000 },
    ...overrides,
  };
  const { db } = openDatabase(config.databaseUrl);
  if (!migrated) {
    await migrateToLatest(db);
    // A synced row updated without its version moving fails the statement (version-guard.ts).
    await installVersionGuard(db, dialect);
  }
  const log = createMemoryLogger();
  const mails: { to: string; subject: string; text: string }[] = [];
  // Channels by connection id: tests put channel doubles here until the session manager owns them.
  const channels = new Map<number, Channel>();
  // Real sessions on the simulator: `beta` connections too, so no test ever reaches WhatsApp.
  // Status writes go through the app's write path on deps (read only once sessions run).
  const instanceId = randomUUID();
  const sessions = createChannelSessions({ db, log, config, realWhatsApp: false, instanceId, write: (fn) => write(deps, fn) });
  const deps: AppDeps = {
    instanceId,
    db,
    dialect,
    config,
    log,
    mailer: { send: async (m) => void mails.push(m) },
    limiter: dialect === 'postgres' ? createSharedRateLimiter(db, config.rateLimits) : createRateLimiter(config.rateLimits),
    outbox: createOutbox({ getChannel: (id) => channels.get(id) ?? sessions.getChannel(id), ...config.outbox, backoffMs: 5, sweepMs: 500 }),
    contactLocks: createKeyedLock(),
    secrets: createSecretBox(config.dataKey),
    assistants: createAssistants({ concurrency: config.assistants.concurrency, pollMs: 100 }),
    webhooks: createWebhookWorker({ ...config.webhooks, pollMs: 50 }),
    sessions,
    realtime: createRealtime({ log, bus: dialect === 'postgres' ? await createPgBus(config.databaseUrl, log) : undefined }),
  };
  attachPipeline(deps);
  deps.outbox.start(deps);
  await deps.assistants.start(deps);
  await deps.webhooks.start(deps);
  const app = createApp(deps);
  // Every answer and every parse is checked against the OpenAPI document (openapi-check.ts).
  const docProblems = new Set<string>();
  const unwatch = watchParses((p) => docProblems.add(p));

  /** One request through the real app; the body is sent as JSON unless it is a string or a form (multipart). */
  async function request(method: string, url: string, opts: { token?: string; body?: unknown; cookie?: string; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.cookie) headers.cookie = opts.cookie;
    let body: string | FormData | undefined;
    if (opts.body instanceof FormData) body = opts.body;
    else if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await app.request(url, { method, headers, body });
    const text = await res.text();
    let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    const problem = answerProblem(method, url, res.status, json, res.headers.get('content-type'));
    if (problem) docProblems.add(problem);
    return { status: res.status, body: json, headers: res.headers };
  }

  return {
    app,
    deps,
    db,
    mails,
    log,
    channels,
    request,
    async close() {
      await deps.assistants.stop();
      await deps.webhooks.stop();
      await deps.outbox.stop();
      await sessions.stopAll();
      await deps.realtime.close();
      await db.destroy();
      await dropDatabase?.();
      // The app's data folder is its own (benchmarks use this harness too, outside the test run's folder).
      rmSync(dataDir, { recursive: true, force: true });
      // A refusal some loop caught and only logged fails the test all the same.
      assertNoGuardViolations(log.lines);
      unwatch();
      if (docProblems.size) throw new Error(`The OpenAPI document disagrees with the app (http/openapi/README.md):\n${[...docProblems].join('\n')}`);
    },
  };
}

/** The refresh cookie of a response, ready to send back as a Cookie header. */
export function refreshCookie(headers: Headers): string | undefined {
  const set = headers.getSetCookie().find((c) => c.startsWith('jrt='));
  return set?.split(';')[0];
}

/**
 * A new PostgreSQL database next to the one TEST_POSTGRES_URL names, and how to drop it: empty, or
 * with `migrated` already migrated and guarded when a test run is under way (template-db.ts).
 * Answers whether it came migrated.
 */
export async function createPostgresDatabase(baseUrl: string, opts: { migrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void>; migrated: boolean }> {
  const name = `zapdesk_t_${randomBytes(6).toString('hex')}`;
  const migrated = opts.migrated === true && (await migratedCopy({ postgres: { baseUrl, name } }));
  if (!migrated) await runOn(baseUrl, `CREATE DATABASE ${name} TEMPLATE template0`);
  // Without FORCE: a connection some test left open must not be killed under it (its pool would
  // raise an uncaught error); such a database is left behind rather than failing the run.
  return { url: urlOf(baseUrl, name), drop: () => runOn(baseUrl, `DROP DATABASE IF EXISTS ${name}`).catch(() => undefined), migrated };
}
