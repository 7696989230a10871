import type { Group } from '../../define.ts';
import create from './create.ts';
import del from './delete.ts';
import get from './get.ts';
import list from './list.ts';
import update from './update.ts';

export const announcements: Group = {
  description: 'Announcements shown to every company (super-admin)',
  commands: { list, get, create, update, delete: del },
};
