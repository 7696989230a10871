import { describe, expect, it } from 'vitest';
import { can, isCompanyAdmin, PERMISSION_KEYS } from './permissions.ts';

describe('who administers a company', () => {
  it('is the admin profile, or the super-admin whatever its profile', () => {
    expect(isCompanyAdmin({ profile: 'admin', super: false })).toBe(true);
    expect(isCompanyAdmin({ profile: 'user', super: true })).toBe(true);
    expect(isCompanyAdmin({ profile: 'supervisor', super: true })).toBe(true);
    expect(isCompanyAdmin({ profile: 'supervisor' })).toBe(false);
    expect(isCompanyAdmin({ profile: 'user', super: false })).toBe(false);
  });

  it('gives a company admin every permission key, and the others their profile rules', () => {
    for (const key of PERMISSION_KEYS) {
      expect(can({ profile: 'admin' }, key), key).toBe(true);
      expect(can({ profile: 'user', super: true }, key), key).toBe(true);
      expect(can({ profile: 'user' }, key), key).toBe(false);
    }
    expect(can({ profile: 'supervisor' }, 'tag-modal:kanban')).toBe(true);
    expect(can({ profile: 'supervisor' }, 'contacts-page:deleteContact')).toBe(true);
    expect(can({ profile: 'supervisor' }, 'ticket-options:deleteTicket')).toBe(false);
    expect(can({ profile: 'unknown' }, 'tag-modal:kanban')).toBe(false);
  });
});
