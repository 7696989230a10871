// The CLI's saved login: $XDG_CONFIG_HOME/zapdesk/config.json (default ~/.config), mode 0600 because
// it holds a refresh token. ZAPDESK_URL and ZAPDESK_TOKEN override it for scripts and CI. Beside it,
// the live views' store (replicache.db): the synced copy of the company's tickets, contacts and
// messages, as private as the token. The folder is 0700.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';

export const DEFAULT_URL = 'http://localhost:8080';

export const configSchema = z.object({
  url: z.string().optional(),
  refreshToken: z.string().optional(),
  /** When the refresh token runs out (its cookie's Max-Age): past it, a refused session has expired; before, it was ended. */
  refreshExpiresAt: z.string().optional(),
  /** Cached so each command does not spend (rotate) the refresh token; it lives 15 minutes. */
  accessToken: z.string().optional(),
  userId: z.number().optional(),
  companyId: z.number().optional(),
  email: z.string().optional(),
  language: z.string().optional(),
});
export type Config = z.infer<typeof configSchema>;

export type Env = Record<string, string | undefined>;

export function configDir(env: Env): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir(), '.config');
  return path.join(base, 'zapdesk');
}

export function configPath(env: Env): string {
  return path.join(configDir(env), 'config.json');
}

/** The config folder, made owner-only (an older one may have been created with looser bits). */
function ensureConfigDir(env: Env): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return dir;
}

const STORE_FILE = 'replicache.db';
// SQLite's companions of the store: the write-ahead log, its index, a rollback journal.
const STORE_COMPANIONS = ['-wal', '-shm', '-journal'];

/**
 * The live store's file, created 0600 before SQLite opens it: SQLite creates a new file with the
 * process's umask (0644 as a rule) and its -wal and -shm files with the database file's mode.
 */
export function privateStoreFile(env: Env): string {
  const file = path.join(ensureConfigDir(env), STORE_FILE);
  closeSync(openSync(file, 'a', 0o600));
  for (const f of [file, ...STORE_COMPANIONS.map((s) => file + s)]) if (existsSync(f)) chmodSync(f, 0o600);
  return file;
}

/** Logout: the synced copy of the company's data goes with the session. */
export function removeStore(env: Env): void {
  const file = path.join(configDir(env), STORE_FILE);
  for (const f of [file, ...STORE_COMPANIONS.map((s) => file + s)]) rmSync(f, { force: true });
}

/** The saved config; a missing or unreadable file is an empty one (the user just logs in again). */
export function readConfig(env: Env): Config {
  const file = configPath(env);
  if (!existsSync(file)) return {};
  try {
    const parsed = configSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/**
 * Writes through a temp file and a rename, so a crash never leaves half a config, and sets 0600 on
 * the final file too (an older file may have been created with looser bits).
 */
export function writeConfig(env: Env, config: Config): void {
  ensureConfigDir(env);
  const file = configPath(env);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  chmodSync(file, 0o600);
}

export function updateConfig(env: Env, patch: Partial<Config>): Config {
  const next = { ...readConfig(env), ...patch };
  for (const key of Object.keys(next) as (keyof Config)[]) if (next[key] === undefined) delete next[key];
  writeConfig(env, next);
  return next;
}

export function removeSession(env: Env): void {
  const { url, language } = readConfig(env);
  if (!url && !language) {
    rmSync(configPath(env), { force: true });
    return;
  }
  writeConfig(env, { ...(url ? { url } : {}), ...(language ? { language } : {}) });
}

/** The server URL: ZAPDESK_URL, then the saved one, then the local default. */
export function serverUrl(env: Env, config: Config): string {
  return (env.ZAPDESK_URL || config.url || DEFAULT_URL).replace(/\/+$/, '');
}
