// The logged-in API for a command: ZAPDESK_TOKEN (an access token, nothing saved) or the session
// saved by `zapdesk login` in the config file, whose refresh token the transport rotates.
import { createHttpApi, type Api, type TokenStore } from './api/http.ts';
import { readConfig, removeSession, serverUrl, updateConfig, type Config, type Env } from './config.ts';
import { UserError } from './errors.ts';

/** The refresh-token store over the config file: the CLI's stand-in for the browser's cookie jar. */
export function configTokenStore(env: Env): TokenStore {
  return {
    accessToken: () => readConfig(env).accessToken,
    refreshToken: () => readConfig(env).refreshToken,
    save: ({ accessToken, refreshToken }) => void updateConfig(env, { accessToken, refreshToken }),
    clear: () => removeSession(env),
  };
}

/** ZAPDESK_TOKEN: used as given; it cannot be refreshed, and nothing is written to disk. */
function envTokenStore(token: string): TokenStore {
  let current: string | undefined = token;
  return {
    accessToken: () => current,
    refreshToken: () => undefined,
    save: ({ accessToken }) => void (current = accessToken),
    clear: () => void (current = undefined),
  };
}

export function anonymousApi(env: Env, url?: string): Api {
  return createHttpApi(url ?? serverUrl(env, readConfig(env)), configTokenStore(env));
}

export function loggedInApi(env: Env, config: Config = readConfig(env)): Api {
  const url = serverUrl(env, config);
  if (env.ZAPDESK_TOKEN) return createHttpApi(url, envTokenStore(env.ZAPDESK_TOKEN));
  if (!config.refreshToken && !config.accessToken) {
    throw new UserError('not logged in: run `zapdesk login --url URL --email EMAIL` or set ZAPDESK_TOKEN');
  }
  return createHttpApi(url, configTokenStore(env));
}
