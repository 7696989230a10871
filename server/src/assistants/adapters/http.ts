// JSON over HTTP for the adapters: a deadline (the turn's signal), the body read once, and the
// outcome told apart: a 5xx, a 429 or a refused connection is worth another attempt
// (RetryableError); a 4xx is not.
import { ForbiddenTargetError, guardedLookup, staticTargetProblem, type TargetPolicy } from '../../webhooks/target.ts';
import { leanFetch } from './lean-fetch.ts';
import { RetryableError } from './types.ts';

export type JsonAnswer = { status: number; body: unknown; text: string };

/**
 * leanFetch for a URL a tenant typed (an integration's, a credential's token URI, a file an
 * integration answered with): with `targets`, a loopback, private or metadata address is refused
 * before connecting, whether the URL names it or its name resolves to it (webhooks/target.ts), unless
 * the policy allows private targets. Such a refusal is not worth another attempt.
 */
export function fetchTarget(url: string, init: RequestInit, targets: TargetPolicy | undefined): Promise<Response> {
  if (!targets || targets.allowPrivate) return leanFetch(url, init);
  const problem = staticTargetProblem(url, targets);
  if (problem) return Promise.reject(new ForbiddenTargetError(`${new URL(url).host}: ${problem}`));
  return leanFetch(url, { ...init, lookup: guardedLookup(targets) });
}

export async function postJson(url: string, payload: string, init: { headers?: Record<string, string>; signal: AbortSignal; targets?: TargetPolicy }): Promise<JsonAnswer> {
  let res: Response;
  try {
    res = await fetchTarget(url, { method: 'POST', body: payload, headers: { 'content-type': 'application/json', accept: 'application/json', ...init.headers }, signal: init.signal }, init.targets);
  } catch (err) {
    if (init.signal.aborted) throw err;
    // A forbidden address stays forbidden: no other attempt.
    const forbidden = err instanceof ForbiddenTargetError ? err : err instanceof Error && err.cause instanceof ForbiddenTargetError ? err.cause : undefined;
    if (forbidden) throw new Error(forbidden.message, { cause: err });
    throw new RetryableError(`${new URL(url).host}: ${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)}`);
  }
  const text = await res.text();
  if (res.status >= 500 || res.status === 429) {
    const after = Number(res.headers.get('retry-after'));
    throw new RetryableError(`${new URL(url).host} answered ${res.status}`, Number.isFinite(after) && after > 0 ? after * 1000 : undefined);
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (res.status >= 400) throw new Error(`${new URL(url).host} answered ${res.status}: ${text.slice(0, 200)}`);
  return { status: res.status, body, text };
}
