// Who may do what (spec/01 §6, spec/02 §6, spec/03 §6). The server enforces these rules; the web
// and the CLI use the same functions to show or hide what a user may not do.

export const PROFILES = ['admin', 'supervisor', 'user'] as const;
export type Profile = (typeof PROFILES)[number];

export const PERMISSION_KEYS = [
  'dashboard:view',
  'drawer-admin-items:view',
  'tickets-manager:showall',
  'ticket-options:deleteTicket',
  'contacts-page:deleteContact',
  'connections-page:actionButtons',
  'connections-page:addConnection',
  'connections-page:editOrDeleteConnection',
  'user-modal:editProfile',
  'user-modal:editQueues',
  'tag-modal:kanban',
] as const;
export type PermissionKey = (typeof PERMISSION_KEYS)[number];

const RULES: Record<Profile, readonly PermissionKey[]> = {
  user: [],
  // Supervisors appear in the spec only for the tag kanban switch and contact deletion.
  supervisor: ['tag-modal:kanban', 'contacts-page:deleteContact'],
  admin: PERMISSION_KEYS,
};

export type Subject = { profile: string; super?: boolean };

export function can(subject: Subject, key: PermissionKey): boolean {
  const profile = (PROFILES as readonly string[]).includes(subject.profile) ? (subject.profile as Profile) : 'user';
  return RULES[profile].includes(key);
}

export function isAdmin(subject: Subject): boolean {
  return subject.profile === 'admin';
}
