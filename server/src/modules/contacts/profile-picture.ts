// Contact profile pictures (spec/02 §3 profilePicUrl), asked of the WhatsApp channel: for a new
// contact and then at most once a day (PROFILE_PIC_MAX_AGE_MS). The network call runs outside any
// transaction (DESIGN §12): read the contact, ask the channel, then one short write stores the URL
// (or null: no picture, hidden by privacy) with the time it was asked; when the URL changed, the
// version moves and the company is poked. Refreshes run in the background of whoever triggered
// them (an inbound message, a new contact), one at a time per contact; answers that arrive together
// share one write (below); a channel that is not connected leaves the contact for the next trigger.
import type { AppDeps } from '../../context.ts';
import type { Peer } from '../../channels/types.ts';
import { prepare } from '../../db/prepared.ts';
import { tenant } from '../../db/tenant.ts';
import { write } from '../../db/write.ts';
import { change, emit } from '../../events/emit.ts';
import { groupBy } from '../../inbound/resolve.ts';
import { chunk } from '../../sync/views/types.ts';
import { valueById } from '../../db/value-by-id.ts';

export const PROFILE_PIC_MAX_AGE_MS = 24 * 60 * 60 * 1000;

type Ref = { companyId: number; contactId: number; connectionId?: number | null };

// Per app: the refreshes in flight, by company and contact (a second trigger joins the first).
const running = new WeakMap<AppDeps, Map<string, Promise<void>>>();
const runningOf = (deps: AppDeps) => {
  let map = running.get(deps);
  if (!map) running.set(deps, (map = new Map()));
  return map;
};

/** True when the contact's picture was never asked for, or longer ago than the maximum age. */
export function profilePictureDue(checkedAt: string | null, now = Date.now()): boolean {
  return checkedAt === null || now - Date.parse(checkedAt) >= PROFILE_PIC_MAX_AGE_MS;
}

/**
 * Starts a refresh of the contact's picture when it is due, through `connectionId` (else the
 * contact's connection, else the company's default); never throws, failures are logged.
 */
export function refreshProfilePicture(deps: AppDeps, ref: Ref): Promise<void> {
  const key = `${ref.companyId}:${ref.contactId}`;
  const map = runningOf(deps);
  const current = map.get(key);
  if (current) return current;
  const run = refresh(deps, ref)
    .catch((err: unknown) => deps.log.warn('profile picture refresh failed', { contactId: ref.contactId, error: String(err) }))
    .finally(() => map.delete(key));
  map.set(key, run);
  return run;
}

/** Resolves when the refreshes started so far are done (tests, shutdown). */
export async function settleProfilePictures(deps: AppDeps): Promise<void> {
  await Promise.all([...runningOf(deps).values()]);
}

// Read after every inbound message's new contact: compiled once per list length (../../db/prepared.ts).
const selectPictureStates = prepare((db, p: { companyId: number; contactIds: number[] }) =>
  db
    .selectFrom('contacts')
    .select(['contacts.id', 'contacts.number', 'contacts.jid', 'contacts.lid', 'contacts.whatsappId', 'contacts.profilePicUrl', 'contacts.profilePicCheckedAt'])
    .where('contacts.companyId', '=', p.companyId)
    .where('contacts.id', 'in', p.contactIds),
  { padLists: true },
);

type PictureState = Awaited<ReturnType<typeof selectPictureStates>>['rows'][number];

// The refreshes a batch of inbound messages starts together read their contacts in one statement
// per company (a read each cost PostgreSQL a round trip each under a burst of new contacts).
const reading = new WeakMap<AppDeps, Map<number, Map<number, ((row: PictureState | undefined) => void)[]>>>();

function readPictureState(deps: AppDeps, companyId: number, contactId: number): Promise<PictureState | undefined> {
  let byCompany = reading.get(deps);
  if (!byCompany) {
    reading.set(deps, (byCompany = new Map()));
    const asked = byCompany;
    setImmediate(() => {
      reading.delete(deps);
      for (const [company, waiting] of asked) void readPictureStates(deps, company, waiting);
    });
  }
  let waiting = byCompany.get(companyId);
  if (!waiting) byCompany.set(companyId, (waiting = new Map()));
  const mine = waiting.get(contactId) ?? [];
  waiting.set(contactId, mine);
  return new Promise((resolve) => mine.push(resolve));
}

async function readPictureStates(deps: AppDeps, companyId: number, waiting: Map<number, ((row: PictureState | undefined) => void)[]>): Promise<void> {
  const found = new Map<number, PictureState>();
  try {
    for (const part of chunk([...waiting.keys()])) {
      for (const row of (await selectPictureStates(deps.db, { companyId, contactIds: part })).rows) found.set(row.id, row);
    }
  } catch (err) {
    deps.log.warn('profile picture read failed', { companyId, error: String(err) });
  }
  // A contact not read (gone, or the read failed) is left for the next trigger.
  for (const [contactId, resolves] of waiting) for (const resolve of resolves) resolve(found.get(contactId));
}

async function refresh(deps: AppDeps, ref: Ref): Promise<void> {
  const contact = await readPictureState(deps, ref.companyId, ref.contactId);
  if (!contact || !profilePictureDue(contact.profilePicCheckedAt)) return;
  const connectionId = ref.connectionId ?? contact.whatsappId ?? (await defaultConnectionId(deps, ref.companyId));
  const channel = connectionId ? deps.sessions.getChannel(connectionId) : undefined;
  if (!channel || channel.status() !== 'CONNECTED') return;
  const peer: Peer = { number: contact.number, ...(contact.jid ? { jid: contact.jid } : {}), ...(contact.lid ? { lid: contact.lid } : {}) };
  // The network call: no transaction is open here.
  const url = (await channel.profilePictureUrl(peer)) ?? null;
  await recordPicture(deps, { companyId: ref.companyId, contactId: contact.id, url, changed: url !== contact.profilePicUrl, checkedAt: new Date().toISOString() });
}

// ── Recording ─────────────────────────────────────────────────────────────────────────────────
// A burst of new contacts (a campaign's replies, an import's first messages) asks for hundreds of
// pictures a second. Each answer is a tiny update, and one write each would queue hundreds of writes
// ahead of the ones people wait for (a reply, an assistant's answer): the answers that arrive
// together are recorded together, in one write.

type Asked = { companyId: number; contactId: number; url: string | null; changed: boolean; checkedAt: string };
type Pending = { asked: Asked; resolve: () => void; reject: (err: unknown) => void };

/** Answers recorded in one write at most. */
const RECORD_BATCH = 500;
/** How long an answer waits for others to share its write. */
const RECORD_GATHER_MS = 25;

const recording = new WeakMap<AppDeps, { pending: Pending[]; timer: NodeJS.Timeout | undefined }>();

function recordPicture(deps: AppDeps, asked: Asked): Promise<void> {
  let state = recording.get(deps);
  if (!state) recording.set(deps, (state = { pending: [], timer: undefined }));
  const s = state;
  return new Promise<void>((resolve, reject) => {
    s.pending.push({ asked, resolve, reject });
    s.timer ??= setTimeout(() => {
      s.timer = undefined;
      const batch = s.pending.splice(0);
      for (let i = 0; i < batch.length; i += RECORD_BATCH) void writePictures(deps, batch.slice(i, i + RECORD_BATCH));
    }, RECORD_GATHER_MS);
  });
}

// The answers' writes, compiled for a few batch sizes (../../db/prepared.ts): `ids[i]` shows `urls[i]`.
const updatePictures = prepare(
  (db, p: { companyId: number; ids: number[]; urls: (string | null)[]; checkedAt: string }) =>
    db
      .updateTable('contacts')
      .set((eb) => ({
        profilePicUrl: valueById<string | null>('contacts.id', p.ids.map((id, i) => [id, p.urls[i]]), 'text'),
        profilePicCheckedAt: p.checkedAt,
        version: eb('contacts.version', '+', 1),
      }))
      .where('contacts.companyId', '=', p.companyId)
      .where('contacts.id', 'in', p.ids),
  { padLists: true },
);
const updatePictureChecks = prepare(
  (db, p: { companyId: number; ids: number[]; checkedAt: string }) =>
    db.updateTable('contacts').set({ profilePicCheckedAt: p.checkedAt }).where('contacts.companyId', '=', p.companyId).where('contacts.id', 'in', p.ids),
  { padLists: true },
);

async function writePictures(deps: AppDeps, batch: Pending[]): Promise<void> {
  try {
    await write(deps, async (tx) => {
      // The check time alone reaches no client: the version moves only with the picture. The
      // unchanged ones of a company take one statement (checked at the latest answer's time).
      // The changed ones of a company take one statement too (each its own URL).
      const asked = batch.map((p) => p.asked);
      for (const [companyId, changed] of groupBy(asked.filter((a) => a.changed), (a) => a.companyId)) {
        const checkedAt = changed.map((a) => a.checkedAt).sort().at(-1)!;
        await updatePictures(tx.db, { companyId, ids: changed.map((a) => a.contactId), urls: changed.map((a) => a.url), checkedAt });
        tx.effects.poke(companyId);
        await emit(
          tx,
          changed.map((a) => change(companyId, 'contact', 'update', a.contactId, { hooks: ['contact.updated'], orderKey: `contact:${a.contactId}` })),
        );
      }
      for (const [companyId, same] of groupBy(asked.filter((a) => !a.changed), (a) => a.companyId)) {
        await updatePictureChecks(tx.db, { companyId, ids: same.map((a) => a.contactId), checkedAt: same.map((a) => a.checkedAt).sort().at(-1)! });
      }
    });
  } catch (err) {
    for (const p of batch) p.reject(err);
    return;
  }
  for (const p of batch) p.resolve();
}

async function defaultConnectionId(deps: AppDeps, companyId: number): Promise<number | undefined> {
  const row = await tenant(deps.db, companyId).selectFrom('whatsapps').select('whatsapps.id').where('whatsapps.isDefault', '=', 1).orderBy('whatsapps.id').executeTakeFirst();
  return row?.id;
}
