// JSON over HTTP for the adapters: a deadline (the turn's signal), the body read once, and the
// outcome told apart: a 5xx, a 429 or a refused connection is worth another attempt
// (RetryableError); a 4xx is not.
import { leanFetch } from './lean-fetch.ts';
import { RetryableError } from './types.ts';

export type JsonAnswer = { status: number; body: unknown; text: string };

export async function postJson(url: string, payload: string, init: { headers?: Record<string, string>; signal: AbortSignal }): Promise<JsonAnswer> {
  let res: Response;
  try {
    res = await leanFetch(url, { method: 'POST', body: payload, headers: { 'content-type': 'application/json', accept: 'application/json', ...init.headers }, signal: init.signal });
  } catch (err) {
    if (init.signal.aborted) throw err;
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
