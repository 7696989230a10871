// Starts the product: database, migrations, first-start seed, the API on PORT.
import { createAssistants } from './assistants/worker.ts';
import { createWebhookWorker } from './webhooks/worker.ts';
import { createSecretBox } from './auth/secret-box.ts';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app.ts';
import { createRateLimiter, createSharedRateLimiter } from './auth/rate-limit.ts';
import { playDemoConversations } from './bootstrap/demo-activity.ts';
import { runFirstStart, type FirstStartResult } from './bootstrap/first-start.ts';
import type { Config } from './config.ts';
import type { AppDeps } from './context.ts';
import { openDatabase } from './db/database.ts';
import { startPullThread } from './sync/pull-thread.ts';
import { syncServiceOf } from './sync/service.ts';
import { write } from './db/write.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createLogger, type Logger } from './log.ts';
import { createMailer } from './mail.ts';
import { startWebServer, type WebServer } from './web/static.ts';
import { createPgBus } from './realtime/bus.ts';
import { createRealtime } from './realtime/hub.ts';
import { attachSyncSocket } from './realtime/ws.ts';
import { createOutbox } from './outbound/dispatcher.ts';
import { createKeyedLock } from './inbound/keyed-lock.ts';
import { attachPipeline } from './inbound/index.ts';
import { createChannelSessions } from './channels/index.ts';
import { startSchedulesJob } from './jobs/schedules.ts';
import { startTicketJobs } from './jobs/ticket-jobs.ts';
import { startCampaignDispatch } from './modules/campaigns/dispatch/job.ts';
import { startPresenceJob } from './jobs/presence.ts';
import { startWebhookPruneJob } from './webhooks/prune.ts';
import { startAuthPruneJob } from './jobs/auth-prune.ts';
import { startInvoicesJob } from './jobs/invoices.ts';
import { startFlowTimerJob } from './flows-runtime/timers.ts';
import { startMessageIndexJob } from './db/message-index.ts';

export type RunningServer = {
  deps: AppDeps;
  apiUrl: string;
  firstStart: FirstStartResult;
  /** The web app's address on WEB_PORT, when it is served. */
  webUrl: string | undefined;
  close(): Promise<void>;
};

export async function startServer(config: Config, opts: { log?: Logger; web?: boolean } = {}): Promise<RunningServer> {
  const log = opts.log ?? createLogger();
  const { db, dialect } = openDatabase(config.databaseUrl);
  const applied = await migrateToLatest(db);
  if (applied.length) log.info('migrations applied', { applied });
  // With PostgreSQL, several instances may serve one database: pokes, outbox wakes, session commands
  // and simulator controls cross them over LISTEN/NOTIFY.
  const bus = dialect === 'postgres' ? await createPgBus(config.databaseUrl, log) : undefined;
  // Status writes go through the app's write path on deps, which the closure reads only once sessions run.
  const instanceId = randomUUID();
  const sessions = createChannelSessions({ db, log, config, dialect, bus, instanceId, write: (fn) => write(deps, fn) });
  const deps: AppDeps = {
    instanceId,
    db,
    dialect,
    config,
    log,
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log }),
    limiter: dialect === 'postgres' ? createSharedRateLimiter(db, config.rateLimits) : createRateLimiter(config.rateLimits),
    outbox: createOutbox({ getChannel: (id) => sessions.getChannel(id), ...config.outbox }),
    contactLocks: createKeyedLock(),
    secrets: createSecretBox(config.dataKey),
    assistants: createAssistants({ concurrency: config.assistants.concurrency }),
    webhooks: createWebhookWorker(config.webhooks),
    sessions,
    realtime: createRealtime({ log, bus }),
  };
  attachPipeline(deps);
  const firstStart = await runFirstStart(deps);
  const app = createApp(deps);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: '0.0.0.0' }, () => resolve(s));
  });
  // Pulls (REST and the socket's) on a thread of their own while this one is busy (sync/pull-thread.ts).
  const pullThread = config.pullThread !== 'off' && !isMemoryUrl(config.databaseUrl) ? startPullThread(deps, config.pullThread) : undefined;
  syncServiceOf(deps).useThread(pullThread);
  const socket = attachSyncSocket(server as Server, deps);
  const port = (server.address() as AddressInfo).port;
  await sessions.startAll();
  deps.outbox.start(deps);
  await deps.assistants.start(deps);
  await deps.webhooks.start(deps);
  if (firstStart.demo) {
    await playDemoConversations(deps, firstStart.demo).catch((err) => log.error('demo conversations failed', { error: String(err) }));
  }
  const schedulesJob = startSchedulesJob(deps);
  const campaignDispatch = startCampaignDispatch(deps);
  const ticketJobs = startTicketJobs(deps);
  const presenceJob = startPresenceJob(deps);
  const invoicesJob = startInvoicesJob(deps);
  const flowTimers = startFlowTimerJob(deps);
  const messageIndex = startMessageIndexJob(deps);
  const webhookPrune = startWebhookPruneJob(deps);
  const authPrune = startAuthPruneJob(deps);
  const web = opts.web === false ? undefined : await serveWeb(config, port, log);
  return {
    deps,
    apiUrl: `http://localhost:${port}`,
    firstStart,
    webUrl: web?.url,
    async close() {
      await schedulesJob.stop();
      await campaignDispatch.stop();
      await flowTimers.stop();
      await deps.assistants.stop();
      await deps.webhooks.stop();
      await Promise.all([...ticketJobs, presenceJob, invoicesJob, webhookPrune, authPrune].map((j) => j.stop()));
      await web?.close();
      await socket.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pullThread?.stop();
      await deps.outbox.stop();
      await sessions.stopAll();
      await messageIndex.stop();
      await deps.realtime.close();
      await db.destroy();
    },
  };
}

/** An SQLite database in memory: one handle only, so no pull thread. */
const isMemoryUrl = (url: string) => /^(sqlite:(\/\/)?)?(:memory:)?$/.test(url);

/** The web app on WEB_PORT; a busy port costs the UI, not the API (tests start several servers). */
async function serveWeb(config: Config, apiPort: number, log: Logger): Promise<WebServer | undefined> {
  try {
    return await startWebServer({ port: config.webPort, apiUrl: process.env.API_URL, apiPort, log });
  } catch (err) {
    log.error('web app not served', { port: config.webPort, error: String(err) });
    return undefined;
  }
}
