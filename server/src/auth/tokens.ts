import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sign, verify } from 'hono/jwt';

export type AccessClaims = { sub: number; cid: number; sid: string };

export async function signAccessToken(claims: AccessClaims, secret: string, ttlSec: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return sign({ ...claims, iat: now, exp: now + ttlSec }, secret, 'HS256');
}

export type VerifyResult = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' };

/**
 * Tokens already verified, until they expire: a client sends the same access token with every
 * request, and the signature check (WebCrypto) costs a trip through the thread pool — under load,
 * a wait behind everything else the event loop has to do. Keyed by token and secret; bounded.
 */
const verified = new Map<string, { claims: AccessClaims; expMs: number }>();
const VERIFIED_MAX = 10_000;

export async function verifyAccessToken(token: string, secret: string): Promise<VerifyResult> {
  const key = `${secret}\u0000${token}`;
  const hit = verified.get(key);
  if (hit) {
    if (hit.expMs > Date.now()) return { ok: true, claims: hit.claims };
    verified.delete(key);
    return { ok: false, reason: 'expired' };
  }
  try {
    // The signature first, the expiry after: a forged token that claims to have expired is invalid
    // (401), not expired (a 403 the client answers with a refresh).
    const payload = await verify(token, secret, { alg: 'HS256', exp: false });
    const { sub, cid, sid, exp } = payload as Record<string, unknown>;
    if (typeof sub !== 'number' || typeof cid !== 'number' || typeof sid !== 'string') return { ok: false, reason: 'invalid' };
    if (exp !== undefined && (typeof exp !== 'number' || !Number.isFinite(exp))) return { ok: false, reason: 'invalid' };
    if (typeof exp === 'number' && exp * 1000 <= Date.now()) return { ok: false, reason: 'expired' };
    const claims = { sub, cid, sid };
    if (typeof exp === 'number') {
      if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
      verified.set(key, { claims, expMs: exp * 1000 });
    }
    return { ok: true, claims };
  } catch {
    return { ok: false, reason: 'invalid' };
  }
}

/** Refresh tokens are opaque random strings; only their SHA-256 is stored. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const newSessionId = () => randomUUID();

/** A six-digit reset code. */
export function newResetCode(): string {
  return String(randomBytes(4).readUInt32BE(0) % 1_000_000).padStart(6, '0');
}
