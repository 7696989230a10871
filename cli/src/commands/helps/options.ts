// Help-video flags: the fields of helpCreateSchema/helpUpdateSchema from sync/.
import { z } from 'zod';
import { fromFileOption } from '../../input.ts';

export const helpOptions = z.object({
  fromFile: fromFileOption,
  title: z.string().optional().describe('title shown on the Help page'),
  description: z.string().optional().describe('what the video explains'),
  video: z.string().optional().describe('YouTube video id or link'),
  link: z.string().optional().describe('an http(s) link to read more'),
});
