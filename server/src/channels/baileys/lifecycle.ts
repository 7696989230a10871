// What the Baileys adapter does when its socket closes, and its QR cap: kept apart from the socket
// wiring so the rules read in one place (DESIGN §5).
import type { Logger } from '../../log.ts';
import type { ConnectionStatus } from '../types.ts';

export type BaileysPolicy = {
  /** QR codes shown in one pairing attempt before TIMEOUT. */
  maxQrAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Consecutive failed reconnects before giving up with DISCONNECTED. */
  maxReconnectAttempts: number;
};

export const DEFAULT_POLICY: BaileysPolicy = { maxQrAttempts: 5, backoffBaseMs: 2_000, backoffMaxMs: 60_000, maxReconnectAttempts: 10 };

// Baileys' DisconnectReason codes (kept here so this file needs no Baileys import).
const LOGGED_OUT = 401;
const FORBIDDEN = 403;
const REPLACED = 440;
const RESTART_REQUIRED = 515;

type Actions = {
  wipe(): Promise<void>;
  setStatus(status: ConnectionStatus, detail?: { reason?: string; attempt?: number }): void;
  reconnect(delayMs: number): void;
};

export function statusCodeOf(error: unknown): number | undefined {
  const output = (error as { output?: { statusCode?: unknown } } | undefined)?.output;
  return typeof output?.statusCode === 'number' ? output.statusCode : undefined;
}

export function createCloseHandler(overrides: Partial<BaileysPolicy> | undefined, actions: Actions) {
  const policy = { ...DEFAULT_POLICY, ...overrides };
  let qrCount = 0;
  let attempts = 0;
  return {
    reset() {
      qrCount = 0;
      attempts = 0;
    },
    opened() {},
    connected() {
      qrCount = 0;
      attempts = 0;
    },
    /** The attempt number of a new QR, or undefined once the cap is passed. */
    qrShown(): number | undefined {
      qrCount += 1;
      return qrCount > policy.maxQrAttempts ? undefined : qrCount;
    },
    async closed(error: unknown) {
      const code = statusCodeOf(error);
      const message = error instanceof Error ? error.message : String(error ?? '');
      if (message.includes('QR refs attempts ended')) return actions.setStatus('TIMEOUT', { reason: 'QR refs attempts ended' });
      if (code === LOGGED_OUT || code === FORBIDDEN) {
        // The phone unlinked this device (or WhatsApp banned it): the stored keys are useless now.
        await actions.wipe();
        return actions.setStatus('DISCONNECTED', { reason: code === LOGGED_OUT ? 'loggedOut' : 'forbidden' });
      }
      if (code === REPLACED) return actions.setStatus('DISCONNECTED', { reason: 'replaced' });
      if (code === RESTART_REQUIRED) {
        // Sent right after pairing and on server restarts: a fresh socket at once, not a failure.
        actions.setStatus('OPENING', { reason: 'restartRequired', attempt: attempts });
        return actions.reconnect(0);
      }
      attempts += 1;
      if (attempts > policy.maxReconnectAttempts) return actions.setStatus('DISCONNECTED', { reason: 'reconnect attempts exhausted' });
      const delay = Math.min(policy.backoffBaseMs * 2 ** (attempts - 1), policy.backoffMaxMs);
      actions.setStatus('OPENING', { reason: message || `closed (${code ?? 'unknown'})`, attempt: attempts });
      actions.reconnect(delay);
    },
  };
}

/** Baileys logs through a pino-shaped logger; only its warnings and errors reach ours. */
export function silentLogger(log: Logger) {
  const logger = {
    level: 'warn',
    child: () => logger,
    trace: () => undefined,
    debug: () => undefined,
    info: () => undefined,
    warn: (obj: unknown, msg?: string) => log.warn(msg ?? 'baileys', { detail: safe(obj) }),
    error: (obj: unknown, msg?: string) => log.error(msg ?? 'baileys', { detail: safe(obj) }),
  };
  return logger;
}

function safe(obj: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(obj));
  } catch {
    return String(obj);
  }
}
