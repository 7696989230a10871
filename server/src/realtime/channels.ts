// Per-company live channels on /sync/ws for external consumers (README.md, "Live channels"): a
// socket joins `company-{id}-{entity}` by name and gets `{type:'event', channel, data:{action,
// <entity>: record}}` after each commit that changed such a record (events/emit.ts). Who may join:
// an admin (or the super-admin) of that company, only its own company; every other profile is
// refused (their screens follow their sync view, which already hides what they may not see), and
// chat events reach only the chat's members. Records are read once per event, after the commit,
// in the order the events came per company.
import { AppError, isCompanyAdmin, type Profile } from '@zapdesk/sync';
import type { AppDeps } from '../context.ts';
import { renderRecord, renderRecords } from '../events/records.ts';
import { LIVE_ENTITIES, recordKey, recordsKey, type DomainEvent, type LiveEntity } from '../events/types.ts';
import type { ServerEvent } from './hub.ts';

/** A socket as the channels know it. */
export type LiveSocket = { companyId: number; userId: number; send(m: ServerEvent): void };

/** Channels one socket may hold at once. */
const MAX_CHANNELS_PER_SOCKET = 64;

const NAME = /^company-(\d{1,10})-([A-Za-z]+)(?:-(\d{1,10}))?$/;

type Parsed = { companyId: number; entity: LiveEntity; listId?: number };

function parseChannel(name: unknown): Parsed | undefined {
  if (typeof name !== 'string') return undefined;
  const m = NAME.exec(name);
  if (!m) return undefined;
  const entity = LIVE_ENTITIES.find((e) => e === m[2]);
  if (!entity) return undefined;
  // Only the items of a contact list have a channel per list.
  if (m[3] !== undefined && entity !== 'ContactListItem') return undefined;
  return { companyId: Number(m[1]), entity, ...(m[3] !== undefined ? { listId: Number(m[3]) } : {}) };
}

export function createLiveChannels(deps: AppDeps) {
  // company → channel name → sockets
  const joined = new Map<number, Map<string, Set<LiveSocket>>>();
  const bySocket = new Map<LiveSocket, Set<string>>();
  // Per company, the events are rendered and sent one after the other (their order is the commits').
  const chains = new Map<number, Promise<void>>();

  async function canJoin(socket: LiveSocket, parsed: Parsed): Promise<AppError | undefined> {
    if (parsed.companyId !== socket.companyId) return new AppError('ERR_NO_PERMISSION', 'That channel belongs to another company.');
    const user = await deps.db.selectFrom('users').select(['profile', 'super']).where('id', '=', socket.userId).where('companyId', '=', socket.companyId).executeTakeFirst();
    if (!user || !isCompanyAdmin({ profile: user.profile as Profile, super: Boolean(user.super) })) return new AppError('ERR_NO_PERMISSION', 'Only admins join live channels.');
    if (parsed.listId !== undefined) {
      const list = await deps.db.selectFrom('contactLists').select('id').where('id', '=', parsed.listId).where('companyId', '=', socket.companyId).executeTakeFirst();
      if (!list) return new AppError('ERR_NOT_FOUND', 'No such contact list in this company.');
    }
    return undefined;
  }

  /** `{type:'join', channel}`: answered `joined`, or `error` with a catalogue code (nothing joined). */
  async function join(socket: LiveSocket, channel: unknown): Promise<void> {
    const parsed = parseChannel(channel);
    const name = String(channel).slice(0, 100);
    const refuse = (e: AppError) => socket.send({ type: 'error', channel: name, error: e.code, message: e.message });
    if (!parsed) return refuse(new AppError('ERR_VALIDATION', `Unknown channel "${name}": company-{companyId}-{${LIVE_ENTITIES.join('|')}}.`));
    const mine = bySocket.get(socket) ?? new Set<string>();
    if (!mine.has(name) && mine.size >= MAX_CHANNELS_PER_SOCKET) return refuse(new AppError('ERR_VALIDATION', `At most ${MAX_CHANNELS_PER_SOCKET} channels per socket.`));
    const refused = await canJoin(socket, parsed).catch(() => new AppError('ERR_INTERNAL_SERVER_ERROR'));
    if (refused) return refuse(refused);
    if (!bySocket.has(socket)) return; // closed while its rights were read
    mine.add(name);
    let channels = joined.get(socket.companyId);
    if (!channels) joined.set(socket.companyId, (channels = new Map()));
    let sockets = channels.get(name);
    if (!sockets) channels.set(name, (sockets = new Set()));
    sockets.add(socket);
    socket.send({ type: 'joined', channel: name });
  }

  function remove(socket: LiveSocket, name: string) {
    bySocket.get(socket)?.delete(name);
    const channels = joined.get(socket.companyId);
    const sockets = channels?.get(name);
    if (!channels || !sockets) return;
    sockets.delete(socket);
    if (sockets.size === 0) channels.delete(name);
    if (channels.size === 0) joined.delete(socket.companyId);
  }

  /** `{type:'leave', channel}`: answered `left` (also for a channel that was not joined). */
  function leave(socket: LiveSocket, channel: unknown) {
    const name = String(channel).slice(0, 100);
    remove(socket, name);
    socket.send({ type: 'left', channel: name });
  }

  /** A batch (an import): one message with its records, `{action, contacts: [...]}`. */
  async function deliverBatch(e: DomainEvent, targets: [string, Set<LiveSocket>][]) {
    const records = await renderRecords({ db: deps.db, secrets: deps.secrets }, e);
    if (records.length === 0) return;
    const data = { action: e.action, [recordsKey(e.entity)]: records };
    for (const [channel, sockets] of targets) for (const s of sockets) s.send({ type: 'event', channel, data });
  }

  async function deliver(e: DomainEvent, targets: [string, Set<LiveSocket>][]) {
    if (e.batch) return deliverBatch(e, targets);
    const record = await renderRecord({ db: deps.db, secrets: deps.secrets }, e);
    if (record === undefined) return;
    const key = recordKey(e.entity);
    const data = e.action === 'delete' ? { action: 'delete', [`${key}Id`]: e.id } : { action: e.action, [key]: record };
    // A chat is its members' only (their sync view): anyone else hears nothing of it.
    const members = e.entity === 'chat' ? await chatAudience(e, record) : undefined;
    for (const [channel, sockets] of targets) {
      for (const s of sockets) if (!members || members.has(s.userId)) s.send({ type: 'event', channel, data });
    }
  }

  async function chatAudience(e: DomainEvent, record: unknown): Promise<Set<number>> {
    if (e.audience) return new Set(e.audience);
    const users = (record as { users?: { userId: number }[] }).users ?? [];
    return new Set(users.map((u) => u.userId));
  }

  function onEvents(events: DomainEvent[]) {
    for (const e of events) {
      // The payment reaches every socket as the billing event (below, `renamed`).
      if (e.entity === 'payment') continue;
      const channels = joined.get(e.companyId);
      if (!channels) continue;
      const names = [`company-${e.companyId}-${e.entity}`];
      if (e.entity === 'ContactListItem' && e.listId !== undefined) names.push(`company-${e.companyId}-ContactListItem-${e.listId}`);
      const targets = names.flatMap((n) => (channels.has(n) ? [[n, new Set(channels.get(n))] as [string, Set<LiveSocket>]] : []));
      if (targets.length === 0) continue;
      const previous = chains.get(e.companyId) ?? Promise.resolve();
      const next = previous
        .then(() => deliver(e, targets))
        .catch((err: unknown) => deps.log.warn('live channel event failed', { entity: e.entity, id: e.id, error: String(err) }));
      chains.set(e.companyId, next);
      void next.then(() => {
        if (chains.get(e.companyId) === next) chains.delete(e.companyId);
      });
    }
  }
  const unsubscribe = deps.realtime.onEntityEvents(onEvents);

  return {
    join,
    leave,
    opened: (socket: LiveSocket) => void bySocket.set(socket, new Set()),
    closed(socket: LiveSocket) {
      for (const name of [...(bySocket.get(socket) ?? [])]) remove(socket, name);
      bySocket.delete(socket);
    },
    /**
     * A company event (billing's `payment`) as this socket should see it: under its channel's full
     * name when the socket joined it, else under the short name the web listens to.
     */
    renamed(socket: LiveSocket, m: ServerEvent): ServerEvent {
      if (m.type !== 'event') return m;
      const full = `company-${socket.companyId}-${m.channel}`;
      return bySocket.get(socket)?.has(full) ? { ...m, channel: full } : m;
    },
    close: () => unsubscribe(),
  };
}
