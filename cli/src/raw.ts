// Requests whose body or answer is a stream (a spreadsheet upload, the NDJSON import report, the CSV
// export): sync/'s client reads every answer as JSON, so these go through fetch here with the
// client's token and the same session rule (a 403 ERR_TOKEN_EXPIRED refreshes once and the request
// is sent again).
import { sendWithSession } from '@zapdesk/sync/client';
import { NetworkError } from './errors.ts';
import type { Api } from './session.ts';

export type RawInit = {
  method?: string;
  /** Must be re-sendable (a FormData over a file-backed Blob is): a refresh sends it a second time. */
  body?: BodyInit;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
};

/** The answer of a 2xx, with its body unread; anything else becomes the catalogue error it carries. */
export async function sendRaw(api: Api, path: string, init: RawInit = {}): Promise<Response> {
  const url = new URL(api.baseUrl + path);
  for (const [k, v] of Object.entries(init.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const send = async (token: string | null) => {
    try {
      return await fetch(url, {
        method: init.method ?? 'GET',
        headers: token ? { authorization: `Bearer ${token}` } : {},
        body: init.body,
        signal: init.signal,
      });
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw new NetworkError(api.baseUrl, err);
    }
  };
  return sendWithSession(api, send, api.getToken() ?? (await api.refresh()));
}
