import type { Group } from '../../define.ts';
import create from './create.ts';
import del from './delete.ts';
import get from './get.ts';
import list from './list.ts';
import renew from './renew.ts';
import show from './summary.ts';
import update from './update.ts';

export const companies: Group = {
  description: 'Companies (tenants): create with a plan and a first admin, renew, suspend (super-admin)',
  commands: { list, get, show, create, update, delete: del, renew },
};
