import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type RateLimits = {
  /** Attempts per window for one IP address. */
  perIp: number;
  /** Attempts per window for one account (email). */
  perAccount: number;
  windowMs: number;
};

export type Config = {
  port: number;
  webPort: number;
  /**
   * Where else the web app is served from (WEB_ORIGINS, comma-separated, e.g. a load balancer's
   * `https://desk.example.com`): the API answers those pages' requests too (CORS), besides
   * localhost and 127.0.0.1 on WEB_PORT.
   */
  webOrigins: string[];
  /** Addresses of the proxies in front (TRUSTED_PROXIES, comma-separated): behind them the client's address is read from X-Forwarded-For. */
  trustedProxies: string[];
  dataDir: string;
  mediaDir: string;
  databaseUrl: string;
  jwtSecret: string;
  jwtRefreshSecret: string;
  /** 32 bytes (base64url) that encrypt the secrets companies store: AI keys, integration credentials (`secret-box.ts`). */
  dataKey: string;
  accessTokenTtlSec: number;
  refreshTokenTtlSec: number;
  resetCodeTtlSec: number;
  adminEmail: string;
  adminPassword: string | undefined;
  seedDemo: boolean;
  demoPassword: string | undefined;
  simulator: boolean;
  /** Public company sign-up (POST /companies/cadastro); off, it answers ERR_USER_CREATION_DISABLED. */
  signup: boolean;
  /** HMAC-SHA256 secret of payment webhooks (POST /payments/webhook); unset, every webhook is refused. */
  paymentWebhookSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  rateLimits: RateLimits;
  /** Largest JSON body accepted, in bytes. */
  maxJsonBytes: number;
  /**
   * Pulls run on a thread of their own while the main thread is busy (PULL_THREAD=1, the default),
   * always (`always`), or never (`0`): sync/pull-thread.ts. A server started by startServer only;
   * an in-memory SQLite database never.
   */
  pullThread: 'busy' | 'always' | 'off';
  /** The outbox dispatcher: sends in flight per connection, attempts of a transiently failing send, first backoff. */
  outbox: { concurrency: number; bulkConcurrency: number; attempts: number; backoffMs: number };
  /**
   * AI assistants and queue integrations (assistants/README.md): turns in flight at once, how long
   * a call may take, attempts of a webhook that fails, first backoff; the OpenAI-compatible endpoint
   * (OPENAI_BASE_URL; unset: OpenAI's), its transcription model, Dialogflow's endpoint, the
   * address receivers use to download a message's media (PUBLIC_URL), and the text-to-speech
   * endpoint of spoken answers (AZURE_SPEECH_BASE_URL; unset: the voice region's).
   */
  assistants: {
    concurrency: number;
    timeoutMs: number;
    attempts: number;
    backoffMs: number;
    openaiBaseUrl: string | undefined;
    transcriptionModel: string;
    dialogflowBaseUrl: string;
    publicUrl: string;
    speechBaseUrl?: string;
  };
  /**
   * Company webhooks (webhooks/README.md): posts in flight at once, a post's deadline, attempts
   * before `failed`, first backoff; whether receivers on loopback or private addresses are allowed
   * (WEBHOOKS_ALLOW_PRIVATE=1, self-hosted setups; off: the SSRF guard of webhooks/target.ts); how
   * long delivered and failed deliveries are kept, and how many per webhook at most.
   */
  webhooks: { concurrency: number; timeoutMs: number; attempts: number; backoffMs: number; allowPrivate: boolean; retentionDays: number; keepPerWebhook: number };
  /**
   * The simulated WhatsApp network: QR refresh interval, QR codes before TIMEOUT, reconnect delay
   * after a drop, and when its phones confirm a message as delivered and as read (left out: never on
   * their own).
   */
  simulatorTiming: { qrIntervalMs: number; qrMaxAttempts: number; reconnectDelayMs: number; deliverAfterMs?: number; readAfterMs?: number };
  /**
   * Connection leases with several instances on PostgreSQL (channels/lease.ts): a lease lasts
   * `ttlMs` (LEASE_TTL_MS, 15 s) and is renewed every `heartbeatMs` (LEASE_HEARTBEAT_MS, 5 s), when
   * the others also look for lapsed leases to take over. A dead holder's connections move within
   * ttl + heartbeat + a start (about 21 s with the defaults; README "Several instances").
   */
  leases: { ttlMs: number; heartbeatMs: number };
};

type Env = Record<string, string | undefined>;

const int = (v: string | undefined, fallback: number) => {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(n) ? n : fallback;
};

type Secrets = { jwtSecret: string; jwtRefreshSecret: string; dataKey: string };

/**
 * JWT secrets and the data key come from the environment (JWT_SECRET, JWT_REFRESH_SECRET,
 * DATA_KEY) or, on first start, are generated into DATA_DIR/secrets.json (0600). A data folder
 * from before the data key gets one added; the JWT secrets it holds are kept.
 */
function loadSecrets(dataDir: string, env: Env): Secrets {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<Secrets> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as typeof stored;
  const fresh = () => randomBytes(32).toString('base64url');
  const secrets = {
    jwtSecret: env.JWT_SECRET ?? stored.jwtSecret ?? fresh(),
    jwtRefreshSecret: env.JWT_REFRESH_SECRET ?? stored.jwtRefreshSecret ?? fresh(),
    dataKey: env.DATA_KEY ?? stored.dataKey ?? fresh(),
  };
  if (!stored.jwtSecret || !stored.jwtRefreshSecret || !stored.dataKey) {
    writeFileSync(file, JSON.stringify({ ...stored, ...secrets }, null, 2), { mode: 0o600 });
  }
  return secrets;
}

export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? 'data');
  mkdirSync(dataDir, { recursive: true });
  // Several instances share one media folder (MEDIA_DIR): a file one instance stored is sent, served
  // and deleted by whichever instance runs the connection or takes the request.
  const mediaDir = path.resolve(env.MEDIA_DIR ?? path.join(dataDir, 'media'));
  mkdirSync(mediaDir, { recursive: true });
  return {
    port: int(env.PORT, 8080),
    webPort: int(env.WEB_PORT, 3000),
    webOrigins: (env.WEB_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    trustedProxies: (env.TRUSTED_PROXIES ?? '')
      .split(',')
      .map((a) => a.trim().replace(/^::ffff:/, ''))
      .filter(Boolean),
    dataDir,
    mediaDir,
    databaseUrl: env.DATABASE_URL ?? path.join(dataDir, 'zapdesk.db'),
    ...loadSecrets(dataDir, env),
    accessTokenTtlSec: int(env.ACCESS_TOKEN_TTL, 15 * 60),
    refreshTokenTtlSec: int(env.REFRESH_TOKEN_TTL, 7 * 24 * 3600),
    resetCodeTtlSec: int(env.RESET_CODE_TTL, 30 * 60),
    adminEmail: (env.ADMIN_EMAIL ?? 'admin@zapdesk.local').toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    seedDemo: env.SEED_DEMO !== '0',
    demoPassword: env.DEMO_PASSWORD || undefined,
    // The demo runs on the simulator, so its controls are on unless SIMULATOR=0 or there is no demo.
    simulator: env.SIMULATOR ? env.SIMULATOR === '1' : env.SEED_DEMO !== '0',
    signup: env.SIGNUP !== '0',
    paymentWebhookSecret: env.PAYMENT_WEBHOOK_SECRET || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'zapdesk <no-reply@zapdesk.local>',
    rateLimits: {
      perIp: int(env.RATE_LIMIT_PER_IP, 30),
      perAccount: int(env.RATE_LIMIT_PER_ACCOUNT, 10),
      windowMs: int(env.RATE_LIMIT_WINDOW_MS, 15 * 60 * 1000),
    },
    maxJsonBytes: int(env.MAX_JSON_BYTES, 1024 * 1024),
    pullThread: pullThreadMode(env.PULL_THREAD),
    outbox: {
      concurrency: int(env.OUTBOX_CONCURRENCY, 4),
      bulkConcurrency: int(env.OUTBOX_BULK_CONCURRENCY, 8),
      attempts: int(env.OUTBOX_ATTEMPTS, 3),
      backoffMs: int(env.OUTBOX_BACKOFF_MS, 500),
    },
    assistants: {
      concurrency: int(env.ASSISTANT_CONCURRENCY, 256),
      timeoutMs: int(env.ASSISTANT_TIMEOUT_MS, 20_000),
      attempts: int(env.ASSISTANT_ATTEMPTS, 5),
      backoffMs: int(env.ASSISTANT_BACKOFF_MS, 2_000),
      openaiBaseUrl: env.OPENAI_BASE_URL || undefined,
      transcriptionModel: env.OPENAI_TRANSCRIPTION_MODEL ?? 'whisper-1',
      dialogflowBaseUrl: env.DIALOGFLOW_BASE_URL ?? 'https://dialogflow.googleapis.com',
      publicUrl: (env.PUBLIC_URL ?? `http://localhost:${int(env.PORT, 8080)}`).replace(/\/+$/, ''),
      speechBaseUrl: env.AZURE_SPEECH_BASE_URL || undefined,
    },
    webhooks: {
      concurrency: int(env.WEBHOOK_CONCURRENCY, 100),
      timeoutMs: int(env.WEBHOOK_TIMEOUT_MS, 10_000),
      attempts: int(env.WEBHOOK_ATTEMPTS, 8),
      backoffMs: int(env.WEBHOOK_BACKOFF_MS, 5_000),
      allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE === '1',
      retentionDays: int(env.WEBHOOK_RETENTION_DAYS, 7),
      keepPerWebhook: int(env.WEBHOOK_KEEP_PER_WEBHOOK, 1_000),
    },
    simulatorTiming: {
      qrIntervalMs: int(env.SIMULATOR_QR_INTERVAL_MS, 20_000),
      qrMaxAttempts: int(env.SIMULATOR_QR_ATTEMPTS, 5),
      reconnectDelayMs: int(env.SIMULATOR_RECONNECT_MS, 1_000),
      // The simulated customers' phones get what is sent to them a second later (the ticks), as
      // real ones do; they read it only if told to.
      deliverAfterMs: int(env.SIMULATOR_DELIVER_MS, 1_000),
      readAfterMs: int(env.SIMULATOR_READ_MS, 0),
    },
    leases: { ttlMs: int(env.LEASE_TTL_MS, 15_000), heartbeatMs: int(env.LEASE_HEARTBEAT_MS, 5_000) },
  };
}

/** PULL_THREAD read: `0` off, `always`, anything else (1, unset) the default `busy`. */
export function pullThreadMode(value: string | undefined): Config['pullThread'] {
  return value === '0' ? 'off' : value === 'always' ? 'always' : 'busy';
}
