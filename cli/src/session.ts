// The API for a command, on sync/'s typed client (the web's too): ZAPDESK_TOKEN (an access token,
// nothing saved), or the session `zapdesk login` saved in the config file. The client refreshes
// once on a 403 and ends the session on a 401; the config file plays the browser's cookie jar.
import { createApiClient, type ApiClient, type RefreshTokenStore } from '@zapdesk/sync/client';
import { readConfig, removeSession, serverUrl, updateConfig, type Config, type Env } from './config.ts';
import { NetworkError, UserError } from './errors.ts';

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
    set: (value) => void updateConfig(env, { refreshToken: value ?? undefined }),
  };
}

/** A client whose tokens stay in memory: login (saved only once it succeeds) and ZAPDESK_TOKEN. */
export function memoryApi(baseUrl: string, token: string | null = null): { api: Api; refreshToken(): string | undefined } {
  let refresh: string | undefined;
  const api = createApiClient({
    baseUrl,
    token,
    fetch: fetchNaming(baseUrl),
    refreshTokenStore: { get: () => refresh, set: (v) => void (refresh = v ?? undefined) },
  });
  return { api, refreshToken: () => refresh };
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
