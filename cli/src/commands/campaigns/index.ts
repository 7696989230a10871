import type { Group } from '../../define.ts';
import cancel from './cancel.ts';
import create from './create.ts';
import del from './delete.ts';
import list from './list.ts';
import pause from './pause.ts';
import report from './report.ts';
import restart from './restart.ts';
import settings from './settings.ts';
import show from './show.ts';
import start from './start.ts';

export const campaigns: Group = {
  description: 'Campaigns: create from a file, start, pause, restart, follow the report live, settings',
  commands: { list, show, create, start, pause, restart, cancel, delete: del, report, settings },
};
