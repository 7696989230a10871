// What the two ways in to a pull share: the HTTP route (POST /sync/pull) and the poke socket
// (a `pull` message on /sync/ws, ../realtime/ws.ts). One store per database, so both see the same
// caches, and one check of the access token, remembered once its signature was verified.
import { AppError } from '@zapdesk/sync';
import { z } from 'zod';
import { verifyAccessToken, type AccessClaims } from '../auth/tokens.ts';
import type { AppDeps } from '../context.ts';
import type { Database } from '../db/database.ts';
import { parseWith } from '../http/validate.ts';
import { pullForSession, pullRequestSchema } from './pull.ts';
import { PullThreadGone, type PullAnswer, type PullThread } from './pull-thread.ts';
import { createSyncStore, type SyncStore } from './store.ts';

/** Verified access tokens kept, so a pull does not pay the HMAC again. */
const VERIFIED_TOKENS_KEPT = 10_000;

// A request of another protocol version is answered the Replicache way, not as a 400.
const pullVersionOf = z.looseObject({ pullVersion: z.unknown() });

export type SyncService = ReturnType<typeof createSyncService>;
/** The Replicache answer to a request of another protocol version. */
export type VersionNotSupported = { error: 'VersionNotSupported'; versionType: 'pull' };
const VERSION_NOT_SUPPORTED: VersionNotSupported = { error: 'VersionNotSupported', versionType: 'pull' };

const services = new WeakMap<Database, SyncService>();

/** The sync service of this database handle (created on first use). */
export function syncServiceOf(deps: AppDeps): SyncService {
  let service = services.get(deps.db);
  if (!service) services.set(deps.db, (service = createSyncService(deps)));
  return service;
}

function createSyncService(deps: AppDeps) {
  const store: SyncStore = createSyncStore(deps.db, deps.dialect, { log: deps.log });
  // Where pulls run when it is ready (startServer attaches it; pull-thread.ts).
  let thread: PullThread | undefined;
  const verified = new Map<string, { claims: AccessClaims; exp: number }>();

  /**
   * requireAuth's token rules: a verified signature is an immutable fact, so it is remembered
   * with the token's expiry, which is checked on every request. The session itself is read on
   * every request (by the pull in its first statement), so revocation applies at once.
   */
  async function verifyToken(token: string | null | undefined): Promise<AccessClaims> {
    if (!token) throw new AppError('ERR_SESSION_EXPIRED');
    let hit = verified.get(token);
    if (hit && hit.exp * 1000 <= Date.now()) {
      verified.delete(token);
      throw new AppError('ERR_TOKEN_EXPIRED');
    }
    if (!hit) {
      const result = await verifyAccessToken(token, deps.config.jwtSecret);
      if (!result.ok) throw new AppError(result.reason === 'expired' ? 'ERR_TOKEN_EXPIRED' : 'ERR_SESSION_EXPIRED');
      const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp?: number };
      hit = { claims: result.claims, exp: typeof exp === 'number' ? exp : 0 };
      // Only tokens that expire are remembered (every token we sign does).
      if (hit.exp > 0) {
        if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
        verified.set(token, hit);
      }
    }
    return hit.claims;
  }

  return {
    store,
    verifyToken,
    /** From now on pulls run on this thread while it takes them (on this one otherwise). */
    useThread(pulls: PullThread | undefined) {
      thread = pulls;
    },
    /**
     * A pull body from a bearer of `token`: the protocol answer as the JSON text to send, with its
     * cookie; or an AppError thrown. The token, the version and the request are checked here.
     */
    async pull(token: string | null | undefined, body: unknown): Promise<PullAnswer> {
      const { sub, cid, sid } = await verifyToken(token);
      if (parseWith(pullVersionOf, body).pullVersion !== 1) return { text: JSON.stringify(VERSION_NOT_SUPPORTED) };
      const session = { userId: sub, companyId: cid, sessionId: sid };
      const request = parseWith(pullRequestSchema, body);
      if (thread?.takesPulls) {
        try {
          return await thread.pull(session, request);
        } catch (err) {
          // It died with this pull under way: the pull runs here.
          if (!(err instanceof PullThreadGone)) throw err;
        }
      }
      const { response } = await pullForSession(deps, store, session, request);
      return { text: JSON.stringify(response), cookie: response.cookie };
    },
  };
}
