import type { Profile } from '@zapdesk/sync';
import type { Config } from './config.ts';
import type { Database, Dialect } from './db/database.ts';
import type { Mailer } from './mail.ts';
import type { Logger } from './log.ts';
import type { RateLimiter } from './auth/rate-limit.ts';
import type { Realtime } from './realtime/hub.ts';
import type { Outbox } from './outbound/dispatcher.ts';
import type { KeyedLock } from './inbound/keyed-lock.ts';
import type { SessionManager } from './channels/session-manager.ts';
import type { SecretBox } from './auth/secret-box.ts';
import type { Assistants } from './assistants/worker.ts';
import type { WebhookWorker } from './webhooks/worker.ts';

/** What the app is built from; tests build it on a fresh database. */
export type AppDeps = {
  /**
   * This process's id, new at every start (a restarted instance is another one): every HTTP answer
   * and the sync socket's upgrade carry it as X-Zapdesk-Instance, and the connection leases it holds
   * name it as their owner (DESIGN §11), so behind a balancer one can tell which instance answered.
   */
  instanceId: string;
  db: Database;
  dialect: Dialect;
  config: Config;
  mailer: Mailer;
  log: Logger;
  limiter: RateLimiter;
  /** The outbox dispatcher (DESIGN §12): sends the queued message rows of each connection run here. */
  outbox: Outbox;
  /** Serialises inbound work per company and contact (see inbound/README.md). */
  contactLocks: KeyedLock;
  /** AI prompts and queue integrations answering customers: the worker of their turns (assistants/README.md). */
  assistants: Assistants;
  /** Company webhooks: the worker that posts their queued deliveries (webhooks/README.md). */
  webhooks: WebhookWorker;
  /** Seals and opens the secrets companies store (AI keys, integration credentials): auth/secret-box.ts. */
  secrets: SecretBox;
  /** WhatsApp sessions: getChannel(id) for senders, onInbound/onAck for the pipeline (channels/README.md). */
  sessions: SessionManager;
  /** Pokes and session events over /sync/ws; writes reach it through their effects (db/write.ts). */
  realtime: Realtime;
};

/** The signed-in user a request acts for. Services take it first: the tenant is never optional. */
export type Actor = {
  userId: number;
  companyId: number;
  profile: Profile;
  super: boolean;
  sessionId: string;
};

export type AppEnv = {
  Variables: { actor: Actor };
};
