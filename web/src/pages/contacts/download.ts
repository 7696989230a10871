// A file the API serves (the contacts CSV) saved through the browser. The typed client answers JSON,
// so this fetches with the same bearer token and session rule (sendWithSession).
import { sendWithSession } from '@zapdesk/sync/client';
import { api } from '../../api/client.ts';

function fetchWithToken(path: string): Promise<Response> {
  return sendWithSession(api, (token) => fetch(`${api.baseUrl}${path}`, { headers: { authorization: `Bearer ${token ?? ''}` }, credentials: 'include' }));
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
