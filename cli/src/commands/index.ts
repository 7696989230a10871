// Every command, by name: a command file or a group of them (one folder per group).
import type { CommandSpec, Group } from '../define.ts';
import { announcements } from './announcements/index.ts';
import { companies } from './companies/index.ts';
import { connections } from './connections/index.ts';
import { contacts } from './contacts/index.ts';
import { helps } from './helps/index.ts';
import login from './login.ts';
import logout from './logout.ts';
import { plans } from './plans/index.ts';
import { sim } from './sim/index.ts';
import { tickets } from './tickets/index.ts';
import { users } from './users/index.ts';
import whoami from './whoami.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const commandTree: Record<string, CommandSpec<any, any> | Group> = {
  login,
  logout,
  whoami,
  companies,
  plans,
  users,
  helps,
  announcements,
  connections,
  contacts,
  sim,
  tickets,
};
