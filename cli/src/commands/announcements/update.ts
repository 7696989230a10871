import { announcementUpdateSchema, type Announcement } from '@zapdesk/sync';
import { defineCommand } from '../../define.ts';
import { buildBody, givenFlags, parseId } from '../../input.ts';
import { idArg } from '../shared.ts';
import { announcementOptions } from './options.ts';
import { showAnnouncement } from './show.ts';

export default defineCommand({
  description: 'Change an announcement (super-admin): only the fields given change',
  examples: ['zapdesk announcements update 1 --no-status', "zapdesk announcements update 1 --text 'Moved to Monday'"],
  args: [idArg('announcement')],
  options: announcementOptions,
  async run({ args, options }, ctx) {
    const id = parseId(args[0], 'announcement');
    const body = await buildBody(ctx, announcementUpdateSchema, options.fromFile, givenFlags(options));
    return ctx.api().put<Announcement>(`/announcements/${id}`, body);
  },
  show: showAnnouncement,
});
