import type { Group } from '../../define.ts';
import add from './add.ts';
import del from './delete.ts';
import disconnect from './disconnect.ts';
import list from './list.ts';
import pair from './pair.ts';

export const connections: Group = {
  description: 'WhatsApp connections: add, pair by QR in the terminal, disconnect',
  commands: { list, add, delete: del, pair, disconnect },
};
