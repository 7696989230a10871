import { describe, expect, it } from 'vitest';
import type { Ticket } from '@zapdesk/sync';
import { buildLanes, movedTags, neighbourLane, sameTagIds, type LaneTag } from './lanes.ts';

const tag = (id: number, name: string, kanban = true): LaneTag => ({ id, name, color: `#00000${id}`, kanban: kanban ? 1 : 0 });
const ticket = (id: number, status: Ticket['status'], tags: LaneTag[], updatedAt = `2026-11-2${id}T10:00:00.000Z`) =>
  ({ id, uuid: `u${id}`, status, tags: tags.map(({ id: tid, name, color }) => ({ id: tid, name, color })), updatedAt }) as Ticket;

const urgent = tag(1, 'Urgent');
const billing = tag(2, 'Billing');
const vip = tag(3, 'VIP', false);
const TAGS = [urgent, billing, vip];

describe('buildLanes', () => {
  it('puts open tickets without tags first, then one lane per kanban tag by name', () => {
    const lanes = buildLanes(
      [ticket(1, 'open', []), ticket(2, 'pending', []), ticket(3, 'open', [urgent]), ticket(4, 'pending', [billing]), ticket(5, 'open', [vip]), ticket(6, 'closed', [urgent])],
      TAGS,
    );
    expect(lanes.map((l) => [l.id, l.title, l.tickets.map((t) => t.id)])).toEqual([
      ['lane0', null, [1]],
      ['tag-2', 'Billing', [4]],
      ['tag-1', 'Urgent', [3]],
    ]);
    expect(lanes[1]!.color).toBe(billing.color);
  });

  it('orders a lane by last activity, newest first', () => {
    const lanes = buildLanes([ticket(1, 'open', [], '2026-11-01T00:00:00Z'), ticket(2, 'open', [], '2026-11-03T00:00:00Z'), ticket(3, 'open', [], '2026-11-02T00:00:00Z')], TAGS);
    expect(lanes[0]!.tickets.map((t) => t.id)).toEqual([2, 3, 1]);
  });
});

describe('movedTags', () => {
  it('swaps the kanban tag and keeps the others', () => {
    expect(movedTags([{ ...urgent }, { ...vip }].map(({ id, name, color }) => ({ id, name, color })), TAGS, billing.id).map((t) => t.id)).toEqual([3, 2]);
  });

  it('moving to the first lane drops the kanban tags only', () => {
    expect(movedTags([{ id: 1, name: 'Urgent', color: '#000001' }, { id: 3, name: 'VIP', color: '#000003' }], TAGS, null).map((t) => t.id)).toEqual([3]);
  });

  it('moves a card as the lanes then show it', () => {
    const t = ticket(7, 'open', []);
    const moved = { ...t, tags: movedTags(t.tags, TAGS, urgent.id) };
    const lanes = buildLanes([moved], TAGS);
    expect(lanes.find((l) => l.id === 'tag-1')!.tickets.map((x) => x.id)).toEqual([7]);
    expect(lanes[0]!.tickets).toEqual([]);
    expect(sameTagIds(moved.tags, [{ id: 1, name: 'x', color: '#fff' }])).toBe(true);
  });
});

describe('neighbourLane', () => {
  it('gives the lane to the left or right, and none past the ends', () => {
    const lanes = buildLanes([], TAGS);
    expect(neighbourLane(lanes, 'lane0', 1)?.id).toBe('tag-2');
    expect(neighbourLane(lanes, 'tag-2', -1)?.id).toBe('lane0');
    expect(neighbourLane(lanes, 'lane0', -1)).toBeUndefined();
    expect(neighbourLane(lanes, 'tag-1', 1)).toBeUndefined();
  });
});
