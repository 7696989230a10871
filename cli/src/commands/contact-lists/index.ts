import type { Group } from '../../define.ts';
import create from './create.ts';
import importCommand from './import.ts';
import list from './list.ts';

export const contactLists: Group = {
  description: 'Contact lists (campaign recipients): create, list, import a spreadsheet into one',
  commands: { create, list, import: importCommand },
};
