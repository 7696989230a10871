import type { Group } from '../../define.ts';
import list from './list.ts';

export const files: Group = {
  description: 'File lists that campaigns send: list them with their files',
  commands: { list },
};
