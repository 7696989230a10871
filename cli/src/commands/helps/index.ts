import type { Group } from '../../define.ts';
import create from './create.ts';
import del from './delete.ts';
import list from './list.ts';
import update from './update.ts';

export const helps: Group = {
  description: 'Help videos shown to every company (super-admin)',
  commands: { list, create, update, delete: del },
};
