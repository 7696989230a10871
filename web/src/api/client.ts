// The web's HTTP clients, both the shared typed client of sync/ (its session rules: a 403 ERR_TOKEN_EXPIRED refreshes
// once while concurrent calls wait, a 401 or a failed refresh logs out). The token lives in local
// storage (spec/01 §3) so a reload keeps the session.
import type { AppError } from '@zapdesk/sync';
import { createApiClient } from '@zapdesk/sync/client';
import { readStoredJson, writeStoredJson } from '../session/storage.ts';
import { apiBaseUrl } from './config.ts';

export { AppError } from '@zapdesk/sync';

let onLoggedOut: (reason: AppError) => void = () => {};

/** The session provider registers how a forced logout clears the app (`reason`: the refusal that ended it). */
export function setLogoutHandler(handler: (reason: AppError) => void): void {
  onLoggedOut = handler;
}

export const api = createApiClient({
  baseUrl: apiBaseUrl(),
  token: readStoredJson<string>('token'),
  onToken: (token) => writeStoredJson('token', token),
  onLogout: (reason) => onLoggedOut(reason),
});

/** The second client of spec/01 §7: no bearer token, for the public plan list, sign-up and reset. */
export const publicApi = createApiClient({ baseUrl: apiBaseUrl() });
