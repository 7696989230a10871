import { describe, expect, it } from 'vitest';
import type { PlanFlags } from '@zapdesk/sync';
import { BUILT_PAGES, homePath, isGroup, itemMatches, routeAccess, visibleMenu, type MenuItem, type MenuSection } from './menu.ts';

const ALL_ON: PlanFlags = { useCampaigns: true, useSchedules: true, useInternalChat: true, useExternalApi: true, useKanban: true, useOpenAi: true, useIntegrations: true };
const ALL_OFF: PlanFlags = { useCampaigns: false, useSchedules: false, useInternalChat: false, useExternalApi: false, useKanban: false, useOpenAi: false, useIntegrations: false };
const admin = { profile: 'admin', super: false };
const superAdmin = { profile: 'admin', super: true };
const attendant = { profile: 'user', super: false };

// Every page of the spec's menu, as if all were built, to check the gates themselves.
const EVERYTHING = new Set([
  '/', '/tickets', '/kanban', '/quick-messages', '/todolist', '/contacts', '/schedules', '/tags', '/chats', '/helps',
  '/campaigns', '/contact-lists', '/campaigns-config', '/phrase-lists', '/flowbuilders', '/announcements', '/prompts',
  '/queue-integration', '/connections', '/files', '/queues', '/users', '/messages-api', '/webhooks', '/financeiro', '/settings',
]);

const paths = (sections: MenuSection[]) =>
  sections.flatMap((s) => s.entries.flatMap((e) => (isGroup(e) ? e.items.map((i) => i.path) : [e.path])));

describe('visibleMenu', () => {
  it('gives an admin with every plan flag the whole menu except the super-only announcements', () => {
    const shown = paths(visibleMenu(admin, ALL_ON, false, EVERYTHING));
    expect(shown).toEqual([...EVERYTHING].filter((p) => p !== '/announcements'));
  });

  it('adds announcements for a super user', () => {
    expect(paths(visibleMenu(superAdmin, ALL_ON, false, EVERYTHING))).toContain('/announcements');
  });

  it('gives a super-admin the administration whatever its profile (the super flag is an admin of every company)', () => {
    const superUser = { profile: 'user', super: true };
    expect(paths(visibleMenu(superUser, ALL_ON, false, EVERYTHING))).toEqual(paths(visibleMenu(superAdmin, ALL_ON, false, EVERYTHING)));
    expect(routeAccess('/announcements', superUser, ALL_ON, false)).toBe('allowed');
    expect(routeAccess('/settings', superUser, ALL_ON, false)).toBe('allowed');
  });

  it('gives an attendant the daily items only, without dashboard or administration', () => {
    const sections = visibleMenu(attendant, ALL_ON, true, EVERYTHING);
    expect(sections).toHaveLength(1);
    expect(paths(sections)).toEqual(['/tickets', '/kanban', '/quick-messages', '/todolist', '/contacts', '/schedules', '/tags', '/chats', '/helps']);
  });

  it('hides what the plan lacks', () => {
    const shown = paths(visibleMenu(admin, ALL_OFF, false, EVERYTHING));
    for (const p of ['/kanban', '/schedules', '/chats', '/campaigns', '/contact-lists', '/phrase-lists', '/prompts', '/queue-integration', '/messages-api']) {
      expect(shown).not.toContain(p);
    }
    expect(shown).toContain('/connections');
    expect(shown).toContain('/settings');
  });

  it('shows the campaign and flow groups from the plan, or from the local cshow flag only what the server serves without it', () => {
    expect(paths(visibleMenu(admin, ALL_ON, false, EVERYTHING))).toEqual(expect.arrayContaining(['/campaigns', '/contact-lists', '/campaigns-config', '/phrase-lists', '/flowbuilders']));
    // The flag is the company admin's own setting: it cannot open what the plan lacks (the server refuses those calls).
    const shown = paths(visibleMenu(admin, ALL_OFF, true, EVERYTHING));
    expect(shown).toContain('/contact-lists');
    for (const p of ['/campaigns', '/campaigns-config', '/phrase-lists', '/flowbuilders']) expect(shown).not.toContain(p);
  });

  it('drops a group whose items are all hidden', () => {
    const sections = visibleMenu(admin, ALL_OFF, false, EVERYTHING);
    const groups = sections.flatMap((s) => s.entries.filter(isGroup));
    expect(groups).toEqual([]);
  });

  it('lists only the pages that are built', () => {
    const built = new Set(['/helps', '/users', '/settings']);
    expect(paths(visibleMenu(admin, ALL_ON, true, built))).toEqual(['/helps', '/users', '/settings']);
    expect(paths(visibleMenu(attendant, ALL_ON, true, built))).toEqual(['/helps']);
    // The default is this build's pages, in menu order.
    expect(paths(visibleMenu(admin, ALL_ON, true))).toEqual(paths(visibleMenu(admin, ALL_ON, true, EVERYTHING)).filter((p) => BUILT_PAGES.has(p)));
  });

  it('gives this build the whole Campaigns group: the list, the contact lists and the settings', () => {
    const groups = visibleMenu(admin, ALL_ON, false).flatMap((s) => s.entries.filter(isGroup));
    const campaigns = groups.find((g) => g.labelKey === 'menu.campaigns');
    expect(campaigns?.items.map((i) => i.path)).toEqual(['/campaigns', '/contact-lists', '/campaigns-config']);
    expect(visibleMenu(admin, ALL_OFF, false).flatMap((s) => s.entries.filter(isGroup))).toEqual([]);
  });

  it('treats a missing plan as no features', () => {
    expect(paths(visibleMenu(admin, null, false, EVERYTHING))).not.toContain('/kanban');
  });
});

describe('routeAccess', () => {
  it('sends an anonymous visitor to login', () => {
    expect(routeAccess('/helps', null, ALL_ON, false)).toBe('login');
  });

  it('refuses admin pages to attendants and super pages to plain admins', () => {
    expect(routeAccess('/users', attendant, ALL_ON, false)).toBe('forbidden-role');
    expect(routeAccess('/', attendant, ALL_ON, false)).toBe('forbidden-role');
    expect(routeAccess('/announcements', admin, ALL_ON, false)).toBe('forbidden-role');
    expect(routeAccess('/announcements', superAdmin, ALL_ON, false)).toBe('allowed');
  });

  it('refuses a page whose plan flag is off, nested paths included', () => {
    expect(routeAccess('/kanban', attendant, ALL_OFF, false)).toBe('forbidden-plan');
    expect(routeAccess('/messages-api', admin, ALL_OFF, false)).toBe('forbidden-plan');
    expect(routeAccess('/campaign/3/report', admin, ALL_OFF, false)).toBe('forbidden-plan');
    expect(routeAccess('/campaign/3/report', admin, ALL_OFF, true)).toBe('forbidden-plan');
    expect(routeAccess('/campaign/3/report', admin, ALL_ON, false)).toBe('allowed');
    expect(routeAccess('/contact-lists/3/contacts', admin, ALL_OFF, true)).toBe('allowed');
    expect(routeAccess('/flowbuilder/9', admin, ALL_OFF, false)).toBe('forbidden-plan');
  });

  it('lets everyone signed in open the ungated pages', () => {
    expect(routeAccess('/tickets/5f0c', attendant, ALL_OFF, false)).toBe('allowed');
    expect(routeAccess('/helps', attendant, null, false)).toBe('allowed');
  });
});

describe('homePath', () => {
  it('is the dashboard for an admin once it is built, and never a forbidden page', () => {
    expect(homePath(admin, ALL_ON, false, EVERYTHING)).toBe('/');
    expect(homePath(attendant, ALL_ON, false, EVERYTHING)).toBe('/tickets');
    expect(homePath(attendant, ALL_ON, false, new Set(['/helps', '/users']))).toBe('/helps');
  });
});

describe('itemMatches', () => {
  const items = visibleMenu(admin, ALL_ON, false, EVERYTHING).flatMap((s) => s.entries.flatMap((e) => (isGroup(e) ? e.items : [e])));
  /** The menu entries the drawer marks on a page. */
  const marked = (pathname: string) => items.filter((i: MenuItem) => itemMatches(i, pathname)).map((i) => i.path);

  it('marks the one entry of a page and of the pages under it', () => {
    expect(marked('/campaigns')).toEqual(['/campaigns']);
    expect(marked('/campaigns-config')).toEqual(['/campaigns-config']);
    expect(marked('/contact-lists/4/contacts')).toEqual(['/contact-lists']);
    expect(marked('/tickets/abc-123')).toEqual(['/tickets']);
    expect(marked('/')).toEqual(['/']);
  });

  it("marks a campaign's report under the campaign list and a flow's editor under the flows", () => {
    expect(marked('/campaign/3/report')).toEqual(['/campaigns']);
    expect(marked('/flowbuilder/4')).toEqual(['/flowbuilders']);
    expect(marked('/flowbuilders')).toEqual(['/flowbuilders']);
  });
});
