// The profile picture a simulated contact shows: a small SVG drawn from its number (two colours
// and a silhouette), as a data URL, so the platform stores and the browser shows it with no server
// route and no network. Deterministic: the same number always has the same picture. Numbers ending
// in 0 have none, as a contact whose privacy settings hide it (the adapter answers undefined).
import { createHash } from 'node:crypto';

export function simulatedProfilePicture(number: string): string | undefined {
  const digits = number.replace(/\D/g, '');
  if (!digits || digits.endsWith('0')) return undefined;
  const hash = createHash('sha256').update(digits).digest();
  const hue = Math.round((hash[0]! * 360) / 256);
  const accent = (hue + 150 + (hash[1]! % 60)) % 360;
  const svg = [
    '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">',
    `<rect width="96" height="96" fill="hsl(${hue},55%,42%)"/>`,
    `<circle cx="48" cy="38" r="18" fill="hsl(${accent},70%,86%)"/>`,
    `<path d="M14 96c2-22 16-34 34-34s32 12 34 34z" fill="hsl(${accent},70%,86%)"/>`,
    '</svg>',
  ].join('');
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
