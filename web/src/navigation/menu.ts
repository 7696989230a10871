// The side menu of spec/01 §2 and the route gates behind it, as pure functions: the drawer renders
// visibleMenu(), the router asks routeAccess(), and both are unit-tested against the spec's rules.
import { campaignsVisible, isCompanyAdmin, planAllows, type PlanFeature, type PlanFlags } from '@zapdesk/sync';

export type MenuUser = { profile: string; super: boolean };
export type Flags = Partial<PlanFlags> | null;

export type MenuIcon =
  | 'dashboard' | 'tickets' | 'kanban' | 'quick' | 'tasks' | 'contacts' | 'schedules' | 'tags' | 'chats' | 'help'
  | 'campaigns' | 'lists' | 'config' | 'flows' | 'announcements' | 'prompts' | 'integrations' | 'connections'
  | 'files' | 'queues' | 'users' | 'api' | 'webhooks' | 'billing' | 'settings';

export type MenuItem = {
  path: string;
  labelKey: string;
  icon: MenuIcon;
  badge?: 'connections' | 'chats';
  /** Pages reached from this one that live under another path (a campaign's report, a flow's editor). */
  subpages?: string[];
};
export type MenuGroup = { labelKey: string; icon: MenuIcon; items: MenuItem[] };
export type MenuSection = { labelKey: string | null; entries: (MenuItem | MenuGroup)[] };

/**
 * Who may open a path: a role, the super flag, a plan feature, or the local campaign flag; `planDenied`
 * is the toast a page the plan lacks shows instead of the common one (spec/03 §2).
 */
type Gate = { admin?: boolean; super?: boolean; feature?: PlanFeature; campaigns?: boolean; planDenied?: string };

const GATES: Record<string, Gate> = {
  '/': { admin: true },
  '/kanban': { feature: 'kanban' },
  '/schedules': { feature: 'schedules' },
  '/chats': { feature: 'internalChat' },
  '/campaigns': { admin: true, campaigns: true, feature: 'campaigns' },
  '/contact-lists': { admin: true, campaigns: true },
  '/campaigns-config': { admin: true, campaigns: true, feature: 'campaigns' },
  '/campaign': { admin: true, campaigns: true, feature: 'campaigns' },
  '/phrase-lists': { admin: true, campaigns: true, feature: 'campaigns' },
  '/flowbuilders': { admin: true, campaigns: true, feature: 'campaigns' },
  '/flowbuilder': { admin: true, campaigns: true, feature: 'campaigns' },
  '/announcements': { admin: true, super: true },
  '/prompts': { admin: true, feature: 'openAi' },
  '/queue-integration': { admin: true, feature: 'integrations' },
  '/connections': { admin: true },
  '/files': { admin: true },
  '/queues': { admin: true },
  '/users': { admin: true },
  '/messages-api': { admin: true, feature: 'externalApi', planDenied: 'messagesAPI.toasts.unauthorized' },
  '/webhooks': { admin: true },
  '/financeiro': { admin: true },
  '/subscription': { admin: true },
  '/settings': { admin: true },
};

/**
 * Pages that exist in this build. The issue asks the menu to show only what exists; the rest of the
 * spec's menu is declared below and appears as its page lands (add the path here).
 */
export const BUILT_PAGES: ReadonlySet<string> = new Set(['/helps', '/tickets', '/users', '/settings', '/contacts', '/quick-messages', '/schedules', '/tags', '/kanban', '/chats', '/todolist', '/connections', '/queues', '/', '/announcements', '/contact-lists', '/files', '/prompts', '/queue-integration', '/campaigns', '/campaigns-config', '/flowbuilders', '/flowbuilder', '/phrase-lists', '/financeiro', '/messages-api', '/webhooks']);

export type Access = 'allowed' | 'login' | 'forbidden-role' | 'forbidden-plan';

/** The gate of a concrete path: its first segment names it (/tickets/abc → /tickets). */
export function gateOf(path: string): Gate {
  const first = `/${path.split('/')[1] ?? ''}`;
  return GATES[first] ?? {};
}

/**
 * Campaign routes follow the browser's cshow flag (spec/01 §2) or the plan's campaigns feature
 * (campaignsVisible). The flag is a company setting its admin may turn on, so it cannot grant what
 * the plan lacks: the pages whose every call the server refuses without the plan (campaigns, their
 * settings and reports, flows and phrase campaigns: server/src/auth/plan-gate.ts) also need the
 * plan; contact lists, which the server serves on any plan, open with the flag alone.
 */
export function routeAccess(path: string, user: MenuUser | null, flags: Flags, cshow: boolean): Access {
  if (!user) return 'login';
  const gate = gateOf(path);
  if (gate.super && !user.super) return 'forbidden-role';
  if (gate.admin && !isCompanyAdmin(user)) return 'forbidden-role';
  if (gate.feature && !planAllows(flags, gate.feature)) return 'forbidden-plan';
  if (gate.campaigns && !campaignsVisible(flags, cshow)) return 'forbidden-plan';
  return 'allowed';
}

const item = (path: string, labelKey: string, icon: MenuIcon, badge?: MenuItem['badge'], subpages?: string[]): MenuItem => ({ path, labelKey, icon, ...(badge ? { badge } : {}), ...(subpages ? { subpages } : {}) });

/** Whether the page at `pathname` is this item's, or one of its subpages': the drawer marks it, and opens its group. */
export function itemMatches(entry: MenuItem, pathname: string): boolean {
  const under = (path: string) => pathname === path || pathname.startsWith(path.endsWith('/') ? path : `${path}/`);
  if (entry.path === '/') return pathname === '/';
  return under(entry.path) || (entry.subpages ?? []).some(under);
}

const MAIN: MenuItem[] = [
  item('/', 'menu.dashboard', 'dashboard'),
  item('/tickets', 'menu.tickets', 'tickets'),
  item('/kanban', 'menu.kanban', 'kanban'),
  item('/quick-messages', 'menu.quickMessages', 'quick'),
  item('/todolist', 'menu.tasks', 'tasks'),
  item('/contacts', 'menu.contacts', 'contacts'),
  item('/schedules', 'menu.schedules', 'schedules'),
  item('/tags', 'menu.tags', 'tags'),
  item('/chats', 'menu.chats', 'chats', 'chats'),
  item('/helps', 'menu.helps', 'help'),
];

const ADMIN: (MenuItem | MenuGroup)[] = [
  {
    labelKey: 'menu.campaigns',
    icon: 'campaigns',
    items: [item('/campaigns', 'menu.campaignList', 'campaigns', undefined, ['/campaign/']), item('/contact-lists', 'menu.contactLists', 'lists'), item('/campaigns-config', 'menu.campaignsConfig', 'config')],
  },
  { labelKey: 'menu.flows', icon: 'flows', items: [item('/phrase-lists', 'menu.phraseLists', 'flows'), item('/flowbuilders', 'menu.flowbuilders', 'flows', undefined, ['/flowbuilder/'])] },
  item('/announcements', 'menu.announcements', 'announcements'),
  item('/prompts', 'menu.prompts', 'prompts'),
  item('/queue-integration', 'menu.integrations', 'integrations'),
  item('/connections', 'menu.connections', 'connections', 'connections'),
  item('/files', 'menu.files', 'files'),
  item('/queues', 'menu.queues', 'queues'),
  item('/users', 'menu.users', 'users'),
  item('/messages-api', 'menu.messagesApi', 'api'),
  item('/webhooks', 'menu.webhooks', 'webhooks'),
  item('/financeiro', 'menu.billing', 'billing'),
  item('/settings', 'menu.settings', 'settings'),
];

export function isGroup(entry: MenuItem | MenuGroup): entry is MenuGroup {
  return 'items' in entry;
}

/** The drawer's sections for this user: gated by role, super flag, plan flags and cshow; built pages only. */
export function visibleMenu(user: MenuUser, flags: Flags, cshow: boolean, built: ReadonlySet<string> = BUILT_PAGES): MenuSection[] {
  const shows = (i: MenuItem) => built.has(i.path) && routeAccess(i.path, user, flags, cshow) === 'allowed';
  const filter = (entries: (MenuItem | MenuGroup)[]) =>
    entries
      .map((e) => (isGroup(e) ? { ...e, items: e.items.filter(shows) } : e))
      .filter((e) => (isGroup(e) ? e.items.length > 0 : shows(e)));
  const sections: MenuSection[] = [{ labelKey: null, entries: filter(MAIN) }];
  if (isCompanyAdmin(user)) {
    const admin = filter(ADMIN);
    if (admin.length) sections.push({ labelKey: 'menu.administration', entries: admin });
  }
  return sections;
}

/**
 * Where "/" leads: the dashboard once it is built and allowed, otherwise the first page of the
 * user's menu. Never a page the user may not open, so a redirect cannot loop.
 */
export function homePath(user: MenuUser, flags: Flags, cshow: boolean, built: ReadonlySet<string> = BUILT_PAGES): string {
  if (built.has('/') && routeAccess('/', user, flags, cshow) === 'allowed') return '/';
  for (const section of visibleMenu(user, flags, cshow, built)) {
    for (const entry of section.entries) {
      const first = isGroup(entry) ? entry.items[0] : entry;
      if (first && first.path !== '/') return first.path;
    }
  }
  return '/helps';
}
