// Where the API is: the server writes it into index.html's meta tag when it serves the app
// (server/src/web/static.ts), so one build works behind any API_URL.
const PLACEHOLDER = '__ZAPDESK_API_URL__';

export function apiBaseUrl(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="zapdesk-api-url"]')?.content;
  if (meta && meta !== PLACEHOLDER) return meta.replace(/\/+$/, '');
  return `${location.protocol}//${location.hostname}:8080`;
}
