import { announcementCreateSchema, type Announcement } from '@zapdesk/sync';
import { defineCommand } from '../../define.ts';
import { buildBody, givenFlags } from '../../input.ts';
import { announcementOptions } from './options.ts';
import { showAnnouncement } from './show.ts';

export default defineCommand({
  description: 'Publish an announcement to every company (super-admin)',
  examples: ["zapdesk announcements create --title 'Maintenance' --text 'Sunday 02:00-03:00' --priority 1", 'zapdesk announcements create --from-file notice.yaml --json'],
  options: announcementOptions,
  async run({ options }, ctx) {
    const body = await buildBody(ctx, announcementCreateSchema, options.fromFile, givenFlags(options));
    return ctx.api().post<Announcement>('/announcements', body);
  },
  show: showAnnouncement,
});
