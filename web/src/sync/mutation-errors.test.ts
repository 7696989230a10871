import { describe, expect, it } from 'vitest';
import type { MutationError } from '@zapdesk/sync';
import { findNewMutationErrors } from './mutation-errors.ts';

const refusal = (clientID: string, mutationID: number, code = 'ERR_NO_PERMISSION'): MutationError => ({
  clientID,
  mutationID,
  name: 'updateSetting',
  code,
  message: code,
  createdAt: `2026-11-22T05:00:${String(mutationID).padStart(2, '0')}.000Z`,
});

const ids = (errors: MutationError[]) => errors.map((e) => `${e.clientID}/${e.mutationID}`);

describe('findNewMutationErrors', () => {
  it('returns nothing when the view holds no refusals', () => {
    expect(findNewMutationErrors([], 'tab', 0)).toEqual([]);
  });

  it('ignores the refusals of earlier page loads and other tabs of the same client group', () => {
    const view = [refusal('earlier-load', 3), refusal('other-tab', 1), refusal('other-tab', 2)];
    expect(findNewMutationErrors(view, 'tab', 0)).toEqual([]);
  });

  it('returns this client refusals after the last one shown, oldest first, whatever the view order', () => {
    // listMutationErrors hands them over newest first.
    const view = [refusal('tab', 9, 'ERR_NO_TICKET_FOUND'), refusal('other-tab', 8), refusal('tab', 7), refusal('tab', 4), refusal('tab', 2)];
    expect(ids(findNewMutationErrors(view, 'tab', 4))).toEqual(['tab/7', 'tab/9']);
    expect(findNewMutationErrors(view, 'tab', 4).map((e) => e.code)).toEqual(['ERR_NO_PERMISSION', 'ERR_NO_TICKET_FOUND']);
  });

  it('shows each refusal once as the view grows, and none again when an old one drops out', () => {
    let lastShown = 0;
    const shown: string[] = [];
    const apply = (view: MutationError[]) => {
      for (const e of findNewMutationErrors(view, 'tab', lastShown)) {
        lastShown = e.mutationID;
        shown.push(`${e.clientID}/${e.mutationID}`);
      }
    };
    apply([refusal('tab', 1)]);
    apply([refusal('tab', 1)]);
    apply([refusal('tab', 3), refusal('other-tab', 5), refusal('tab', 1)]);
    // The server keeps the newest 50 per client: the oldest leaves the view, nothing is re-shown.
    apply([refusal('tab', 3), refusal('other-tab', 5)]);
    expect(shown).toEqual(['tab/1', 'tab/3']);
    expect(lastShown).toBe(3);
  });
});
