// The kanban board of spec/02 §2.17 as pure functions of the synced tickets and tags: the first
// lane holds open tickets without tags, then one lane per kanban tag (by name), coloured by it.
// Moving a ticket removes its kanban tags and adds the target lane's tag, as the server does
// (DELETE /ticket-tags/{id}, then PUT /ticket-tags/{id}/{tagId}), so the board can show the move
// before the server confirms it.
import type { Tag, Ticket } from '@zapdesk/sync';

export type LaneId = 'lane0' | `tag-${number}`;
export type Lane = { id: LaneId; tagId: number | null; title: string | null; color: string | null; tickets: Ticket[] };
type TicketTag = Ticket['tags'][number];
/** What the board reads of a synced tag. */
export type LaneTag = Pick<Tag, 'id' | 'name' | 'color' | 'kanban'>;

export const laneOf = (tagId: number | null): LaneId => (tagId === null ? 'lane0' : `tag-${tagId}`);

export function kanbanTags<T extends LaneTag>(tags: readonly T[]): T[] {
  return tags.filter((t) => t.kanban === 1).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

export function buildLanes(tickets: readonly Ticket[], tags: readonly LaneTag[]): Lane[] {
  const live = tickets.filter((t) => t.status === 'open' || t.status === 'pending').sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || b.id - a.id);
  const lanes: Lane[] = [{ id: 'lane0', tagId: null, title: null, color: null, tickets: live.filter((t) => t.status === 'open' && t.tags.length === 0) }];
  for (const tag of kanbanTags(tags)) {
    lanes.push({ id: laneOf(tag.id), tagId: tag.id, title: tag.name, color: tag.color, tickets: live.filter((t) => t.tags.some((x) => x.id === tag.id)) });
  }
  return lanes;
}

/** The ticket's tags after a move to the lane of `toTagId` (null: the first lane). */
export function movedTags(current: readonly TicketTag[], tags: readonly LaneTag[], toTagId: number | null): TicketTag[] {
  const kanbanIds = new Set(kanbanTags(tags).map((t) => t.id));
  const kept = current.filter((t) => !kanbanIds.has(t.id));
  const target = toTagId === null ? undefined : tags.find((t) => t.id === toTagId);
  return target ? [...kept, { id: target.id, name: target.name, color: target.color }] : kept;
}

/** The lane a keyboard move lands in: the neighbour left (-1) or right (+1), or none at the ends. */
export function neighbourLane(lanes: readonly Lane[], from: LaneId, step: -1 | 1): Lane | undefined {
  const i = lanes.findIndex((l) => l.id === from);
  return i < 0 ? undefined : lanes[i + step];
}

export const sameTagIds = (a: readonly TicketTag[], b: readonly TicketTag[]) => a.length === b.length && a.every((x) => b.some((y) => y.id === x.id));
