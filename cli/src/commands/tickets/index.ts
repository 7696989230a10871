import type { Group } from '../../define.ts';
import list from './list.ts';
import watch from './watch.ts';

export const tickets: Group = {
  description: 'Tickets: list with filters, or watch them change live',
  commands: { list, watch },
};
