// Starts the product: database, migrations, first-start seed, the API on PORT.
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app.ts';
import { createRateLimiter } from './auth/rate-limit.ts';
import { runFirstStart, type FirstStartResult } from './bootstrap/first-start.ts';
import type { Config } from './config.ts';
import type { AppDeps } from './context.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createLogger, type Logger } from './log.ts';
import { createMailer } from './mail.ts';
import { createSendQueue } from './outbound/send-queue.ts';
import { createKeyedLock } from './pipeline/keyed-lock.ts';

export type RunningServer = {
  deps: AppDeps;
  apiUrl: string;
  firstStart: FirstStartResult;
  close(): Promise<void>;
};

export async function startServer(config: Config, opts: { log?: Logger } = {}): Promise<RunningServer> {
  const log = opts.log ?? createLogger();
  const { db, dialect } = openDatabase(config.databaseUrl);
  const applied = await migrateToLatest(db);
  if (applied.length) log.info('migrations applied', { applied });
  const deps: AppDeps = {
    db,
    dialect,
    config,
    log,
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log }),
    limiter: createRateLimiter(config.rateLimits),
    // The session manager owns the channels; until it is wired here no connection can send.
    outbound: createSendQueue({ getChannel: () => undefined }),
    contactLocks: createKeyedLock(),
  };
  const firstStart = await runFirstStart(deps);
  const app = createApp(deps);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: '0.0.0.0' }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    deps,
    apiUrl: `http://localhost:${port}`,
    firstStart,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.destroy();
    },
  };
}
