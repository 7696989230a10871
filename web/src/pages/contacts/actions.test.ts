import { describe, expect, it } from 'vitest';
import { contactRowActions } from './actions.ts';

describe('contactRowActions', () => {
  it('offers delete only to the profiles allowed contacts-page:deleteContact', () => {
    expect(contactRowActions({ profile: 'admin' }).delete).toBe(true);
    expect(contactRowActions({ profile: 'supervisor' }).delete).toBe(true);
    expect(contactRowActions({ profile: 'user' }).delete).toBe(false);
    // An unknown profile is treated as a plain user.
    expect(contactRowActions({ profile: 'guest' }).delete).toBe(false);
  });

  it('lets every profile open a ticket and edit', () => {
    for (const profile of ['admin', 'supervisor', 'user']) expect(contactRowActions({ profile })).toMatchObject({ openTicket: true, edit: true });
  });
});
