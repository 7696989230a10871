import type { Group } from '../../define.ts';
import list from './list.ts';
import paySim from './pay-sim.ts';

export const invoices: Group = {
  description: 'Invoices of the subscription: list them, pay one through the simulator',
  commands: { list, 'pay-sim': paySim },
};
