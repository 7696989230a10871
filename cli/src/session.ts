// The API for a command, on sync/'s typed client (the web's too): ZAPDESK_TOKEN (an access token,
// nothing saved), or the session `zapdesk login` saved in the config file. The client refreshes
// once on a 403 ERR_TOKEN_EXPIRED and ends the session on a 401; the config file plays the
// browser's cookie jar.
import { createApiClient, type ApiClient, type RefreshTokenStore } from '@zapdesk/sync/client';
import { readConfig, removeSession, serverUrl, updateConfig, type Config, type Env } from './config.ts';
import { AppError } from '@zapdesk/sync';
import { NetworkError, UserError } from './errors.ts';
import { cliText, type CliLanguage } from './lang.ts';

export type Api = ApiClient;

/** fetch that turns "nothing answered" into one line naming the server, instead of a TypeError. */
function fetchNaming(baseUrl: string): typeof fetch {
  return async (input, init) => {
    try {
      return await fetch(input, init);
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw new NetworkError(baseUrl, err);
    }
  };
}

/** The refresh token lives in the config file; each rotation is written back at once. */
export function configRefreshStore(env: Env): RefreshTokenStore {
  return {
    get: () => readConfig(env).refreshToken,
    set: (value, expiresAt) => void updateConfig(env, { refreshToken: value ?? undefined, refreshExpiresAt: value ? expiresAt : undefined }),
  };
}

/** A client whose tokens stay in memory: login (saved only once it succeeds) and ZAPDESK_TOKEN. */
export function memoryApi(baseUrl: string, token: string | null = null): { api: Api; refreshToken(): string | undefined; refreshExpiresAt(): string | undefined } {
  let refresh: string | undefined;
  let expiresAt: string | undefined;
  const api = createApiClient({
    baseUrl,
    token,
    fetch: fetchNaming(baseUrl),
    refreshTokenStore: { get: () => refresh, set: (v, at) => void ((refresh = v ?? undefined), (expiresAt = at)) },
  });
  return { api, refreshToken: () => refresh, refreshExpiresAt: () => expiresAt };
}

export function savedSessionApi(env: Env, config: Config = readConfig(env)): Api {
  const baseUrl = serverUrl(env, config);
  return createApiClient({
    baseUrl,
    token: config.accessToken ?? null,
    fetch: fetchNaming(baseUrl),
    refreshTokenStore: configRefreshStore(env),
    onToken: (token) => void updateConfig(env, { accessToken: token ?? undefined }),
    onLogout: () => removeSession(env),
  });
}

export function loggedInApi(env: Env, config: Config = readConfig(env)): Api {
  if (env.ZAPDESK_TOKEN) return memoryApi(serverUrl(env, config), env.ZAPDESK_TOKEN).api;
  if (!config.refreshToken && !config.accessToken) {
    throw new UserError('not logged in: run `zapdesk login --url URL --email EMAIL` or set ZAPDESK_TOKEN');
  }
  return savedSessionApi(env, config);
}

/** The `exp` claim of a JWT, read without checking it (only to word a refusal); undefined when not a JWT. */
function expiresAt(token: string): number | undefined {
  try {
    const { exp } = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp?: unknown };
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The server answers ERR_SESSION_EXPIRED (401) for every session it refuses: a token that is not
 * its own, a session that a newer login of the account replaced or a logout ended, and one that
 * ran out. Only the last has expired; the others are said as what they are, from what this side
 * knows: where the token came from, and when the saved refresh token runs out (`before`: the
 * config as it was before the command, since a refused session is forgotten at once).
 */
export function explainRefusedSession(err: unknown, env: Env, before: Config, lang: CliLanguage): unknown {
  if (!(err instanceof AppError && err.code === 'ERR_SESSION_EXPIRED')) return err;
  if (env.ZAPDESK_TOKEN) {
    const exp = expiresAt(env.ZAPDESK_TOKEN);
    return new UserError(cliText(exp !== undefined && exp <= Date.now() ? 'tokenExpired' : 'tokenRefused', lang));
  }
  if (!before.refreshToken && !before.accessToken) return err;
  if (before.refreshExpiresAt && Date.parse(before.refreshExpiresAt) <= Date.now()) return err;
  return new UserError(cliText('sessionEnded', lang));
}
