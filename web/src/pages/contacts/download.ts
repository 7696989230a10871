// A file the API serves (the contacts CSV) saved through the browser. The typed client answers JSON,
// so this fetches with the same bearer token, refreshing it once on a 403 like every other call.
import { toAppError } from '@zapdesk/sync/client';
import { api } from '../../api/client.ts';

async function fetchWithToken(path: string): Promise<Response> {
  const get = () => fetch(`${api.baseUrl}${path}`, { headers: { authorization: `Bearer ${api.getToken() ?? ''}` }, credentials: 'include' });
  let res = await get();
  if (res.status === 403) {
    await api.refresh();
    res = await get();
  }
  if (!res.ok) throw await toAppError(res);
  return res;
}

export async function downloadFile(path: string, fileName: string): Promise<void> {
  const blob = await (await fetchWithToken(path)).blob();
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: fileName });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
