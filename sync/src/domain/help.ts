import { z } from 'zod';

// Help videos (spec/01 §3): managed by the super-admin, read by everyone on the Help page.

/** The help entry as the API shows it; `video` is a YouTube video id (embed it as /embed/{video}). */
export type Help = {
  id: number;
  title: string;
  description: string | null;
  video: string | null;
  link: string | null;
  createdAt: string;
  updatedAt: string;
};

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtube-nocookie.com', 'www.youtube-nocookie.com']);

/** The video id of a YouTube id or link (watch, youtu.be, embed, shorts, live), or undefined. */
export function youtubeVideoId(input: string): string | undefined {
  const text = input.trim();
  if (VIDEO_ID.test(text)) return text;
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase();
  let candidate: string | null | undefined;
  if (host === 'youtu.be') candidate = url.pathname.split('/')[1];
  else if (YOUTUBE_HOSTS.has(host)) {
    const [first, second] = url.pathname.split('/').slice(1);
    candidate = first === 'watch' ? url.searchParams.get('v') : ['embed', 'shorts', 'live', 'v'].includes(first ?? '') ? second : undefined;
  }
  return candidate && VIDEO_ID.test(candidate) ? candidate : undefined;
}

const blankToNull = (v: unknown) => (v === '' || v === null ? null : v);

const videoSchema = z.preprocess(
  blankToNull,
  z
    .string()
    .max(500)
    .transform((v, ctx) => {
      const id = youtubeVideoId(v);
      if (id) return id;
      ctx.addIssue({ code: 'custom', message: 'Give a YouTube video id or link' });
      return z.NEVER;
    })
    .nullable()
    .optional(),
);

const linkSchema = z.preprocess(blankToNull, z.url({ protocol: /^https?$/, error: 'Give an http(s) link' }).max(2000).nullable().optional());

const helpFields = {
  title: z.string().trim().min(1, 'Required').max(200, 'Too Long!'),
  description: z.preprocess(blankToNull, z.string().trim().max(10_000).nullable().optional()),
  video: videoSchema,
  link: linkSchema,
};

/** POST /helps. */
export const helpCreateSchema = z.object(helpFields);
export type HelpCreateInput = z.infer<typeof helpCreateSchema>;

/** PUT /helps/{id}: only the fields sent change. */
export const helpUpdateSchema = z.object(helpFields).partial();
export type HelpUpdateInput = z.infer<typeof helpUpdateSchema>;
