import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sign, verify } from 'hono/jwt';

export type AccessClaims = { sub: number; cid: number; sid: string };

export async function signAccessToken(claims: AccessClaims, secret: string, ttlSec: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return sign({ ...claims, iat: now, exp: now + ttlSec }, secret, 'HS256');
}

export type VerifyResult = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' };

export async function verifyAccessToken(token: string, secret: string): Promise<VerifyResult> {
  try {
    const payload = await verify(token, secret, 'HS256');
    const { sub, cid, sid } = payload as Record<string, unknown>;
    if (typeof sub !== 'number' || typeof cid !== 'number' || typeof sid !== 'string') return { ok: false, reason: 'invalid' };
    return { ok: true, claims: { sub, cid, sid } };
  } catch (err) {
    return { ok: false, reason: (err as Error)?.name === 'JwtTokenExpired' ? 'expired' : 'invalid' };
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
