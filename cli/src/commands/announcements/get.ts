import type { Announcement } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';
import { idArg } from '../shared.ts';
import { showAnnouncement } from './show.ts';

export default defineCommand({
  description: 'Show one announcement',
  examples: ['zapdesk announcements get 1'],
  args: [idArg('announcement')],
  options: z.object({}),
  run({ args }, ctx) {
    const id = parseId(args[0], 'announcement');
    return ctx.api().get<Announcement>(`/announcements/${id}`);
  },
  show: showAnnouncement,
});
