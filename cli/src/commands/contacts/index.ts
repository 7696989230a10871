import type { Group } from '../../define.ts';
import del from './delete.ts';
import exportCommand from './export.ts';
import get from './get.ts';
import importCommand from './import.ts';
import list from './list.ts';

export const contacts: Group = {
  description: 'Contacts of your company: list, look up, import a spreadsheet, export, delete',
  commands: { list, get, import: importCommand, export: exportCommand, delete: del },
};
