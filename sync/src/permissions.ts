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

/**
 * Whether the subject administers the company it acts on: the admin profile, or the platform
 * super-admin. The spec keeps the super flag apart from the profile, yet every super-only screen
 * (announcements, the Companies, Plans and Help tabs of settings) sits inside the admin-only part of
 * the product, and the super-admin manages every company: so the flag gives admin rights wherever
 * the subject acts, whatever profile it carries. This is the one "is admin" of the product: the
 * server's checks, the web's gates and the CLI ask it, never `profile === 'admin'`.
 * (Whether someone is the super-admin itself is the flag: `subject.super`.)
 */
export function isCompanyAdmin(subject: Subject): boolean {
  return subject.profile === 'admin' || subject.super === true;
}

/** The permission rules of spec/01 §6: by profile, and everything for whoever is a company admin. */
export function can(subject: Subject, key: PermissionKey): boolean {
  if (isCompanyAdmin(subject)) return true;
  const profile = (PROFILES as readonly string[]).includes(subject.profile) ? (subject.profile as Profile) : 'user';
  return RULES[profile].includes(key);
}
