// Every command, by name: a command file or a group of them (one folder per group), loaded only
// when invoked. A run loads the one entry its argv names, not the other commands' modules (and
// their schemas and views): most of the CLI's start-up went to loading every command. The
// descriptions here are what `zapdesk --help` lists; help.test.ts checks they match the loaded ones.
import type { CommandSpec, Group } from '../define.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CommandEntry = CommandSpec<any, any> | Group;

export type LazyEntry = { description: string; load(): Promise<CommandEntry> };

export const commandTree: Record<string, LazyEntry> = {
  login: { description: 'Log in and keep the session in $XDG_CONFIG_HOME/zapdesk/config.json (mode 0600)', load: async () => (await import('./login.ts')).default },
  logout: { description: 'End the session on the server and forget it and the synced data here (the server address is kept)', load: async () => (await import('./logout.ts')).default },
  whoami: { description: 'Show who is logged in, in which company, on which server', load: async () => (await import('./whoami.ts')).default },
  companies: { description: 'Companies (tenants): create with a plan and a first admin, renew, suspend (super-admin)', load: async () => (await import('./companies/index.ts')).companies },
  invoices: { description: 'Invoices of the subscription: list them, pay one through the simulator', load: async () => (await import('./invoices/index.ts')).invoices },
  plans: { description: 'Plans: limits, price and features of what a company subscribes to (super-admin)', load: async () => (await import('./plans/index.ts')).plans },
  users: { description: 'Users of a company: attendants, supervisors and admins', load: async () => (await import('./users/index.ts')).users },
  helps: { description: 'Help videos shown to every company (super-admin)', load: async () => (await import('./helps/index.ts')).helps },
  announcements: { description: 'Announcements shown to every company (super-admin)', load: async () => (await import('./announcements/index.ts')).announcements },
  connections: { description: 'WhatsApp connections: add, pair by QR in the terminal, disconnect', load: async () => (await import('./connections/index.ts')).connections },
  contacts: { description: 'Contacts of your company: list, look up, import a spreadsheet, export, delete', load: async () => (await import('./contacts/index.ts')).contacts },
  'contact-lists': { description: 'Contact lists (campaign recipients): create, list, import a spreadsheet into one', load: async () => (await import('./contact-lists/index.ts')).contactLists },
  campaigns: { description: 'Campaigns: create from a file, start, pause, restart, follow the report live, settings', load: async () => (await import('./campaigns/index.ts')).campaigns },
  files: { description: 'File lists that campaigns send: list them with their files', load: async () => (await import('./files/index.ts')).files },
  sim: { description: 'The built-in WhatsApp simulator (server started with SIMULATOR=1): scan, send, edit, revoke, flood', load: async () => (await import('./sim/index.ts')).sim },
  webhooks: { description: 'Company webhooks: register URLs for events, send a test, read the delivery log (admins)', load: async () => (await import('./webhooks/index.ts')).webhooks },
  tickets: { description: 'Tickets: list with filters, or watch them change live', load: async () => (await import('./tickets/index.ts')).tickets },
};

/** The entry an argv invokes: its first word, past global flags (and `help`, which names one). */
export function invokedName(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--lang') i++;
    else if (!word.startsWith('-') && word !== 'help') return word;
  }
  return undefined;
}
