import type { Group } from '../../define.ts';
import create from './create.ts';
import del from './delete.ts';
import get from './get.ts';
import list from './list.ts';
import update from './update.ts';

export const plans: Group = {
  description: 'Plans: limits, price and features of what a company subscribes to (super-admin)',
  commands: { list, get, create, update, delete: del },
};
