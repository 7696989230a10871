// isWhatsappValid of contact list items (spec/03 §3), asked of a connected WhatsApp channel
// (`Channel.checkNumbers`; the simulator's `numbers` control decides there, DESIGN §5). A network
// call, so never inside a transaction (DESIGN §12): after the items are written the route starts
// this in the background; it reads the list's unchecked items, asks the channel, and records the
// answers in a short write of its own (versions bumped, the company poked). One check per list at a
// time; a trigger arriving meanwhile makes it look again when done. With no connected connection
// the items stay unchecked (null) until a connection of the company connects (the inbound wiring
// calls checkCompanyContactLists then) or the next write to the list starts a check.
import type { AppDeps } from '../../context.ts';
import type { ChannelQueries } from '../../channels/remote-channel.ts';
import { sql } from 'kysely';
import { prepare } from '../../db/prepared.ts';
import { tenant } from '../../db/tenant.ts';
import { write } from '../../db/write.ts';
import { change, emit } from '../../events/emit.ts';
import { valueById } from '../../db/value-by-id.ts';

/** Numbers asked of the channel at a time. */
const CHECK_BATCH = 200;

type Run = { promise: Promise<void>; again: boolean };
const running = new WeakMap<AppDeps, Map<string, Run>>();
const runningOf = (deps: AppDeps) => {
  let map = running.get(deps);
  if (!map) running.set(deps, (map = new Map()));
  return map;
};

/** Starts (or re-arms) the check of the list's unchecked items; never throws, failures are logged. */
export function checkContactListNumbers(deps: AppDeps, companyId: number, listId: number): Promise<void> {
  const key = `${companyId}:${listId}`;
  const map = runningOf(deps);
  const current = map.get(key);
  if (current) {
    current.again = true;
    return current.promise;
  }
  const run: Run = { again: false, promise: Promise.resolve() };
  run.promise = (async () => {
    try {
      do {
        run.again = false;
        await checkUnchecked(deps, companyId, listId);
      } while (run.again);
    } catch (err) {
      deps.log.warn('contact list WhatsApp check failed', { companyId, listId, error: String(err) });
    } finally {
      map.delete(key);
    }
  })();
  map.set(key, run);
  return run.promise;
}

/** Starts the check of every list of the company that holds unchecked items (a connection just connected). */
export async function checkCompanyContactLists(deps: AppDeps, companyId: number): Promise<void> {
  try {
    const lists = await tenant(deps.db, companyId)
      .selectFrom('contactListItems')
      .select('contactListItems.contactListId')
      .where('contactListItems.isWhatsappValid', 'is', null)
      .distinct()
      .execute();
    for (const { contactListId } of lists) void checkContactListNumbers(deps, companyId, contactListId);
  } catch (err) {
    deps.log.warn('contact list WhatsApp checks not started', { companyId, error: String(err) });
  }
}

/** Resolves when the checks started so far are done (tests, shutdown). */
export async function settleContactListChecks(deps: AppDeps): Promise<void> {
  while (runningOf(deps).size > 0) await Promise.all([...runningOf(deps).values()].map((r) => r.promise));
}

/**
 * A connected connection of the company, the default first: its session may run on this instance or
 * on another (DESIGN §11), and the numbers are asked where it runs.
 */
async function connectedChannel(deps: AppDeps, companyId: number): Promise<Pick<ChannelQueries, 'checkNumbers'> | undefined> {
  const rows = await tenant(deps.db, companyId)
    .selectFrom('whatsapps')
    .select(['whatsapps.id', 'whatsapps.status'])
    .orderBy('whatsapps.isDefault', 'desc')
    .orderBy('whatsapps.id')
    .execute();
  for (const { id } of rows) {
    const channel = deps.sessions.getChannel(id);
    if (channel?.status() === 'CONNECTED') return channel;
  }
  const elsewhere = rows.find((r) => r.status === 'CONNECTED' && !deps.sessions.getChannel(r.id));
  return elsewhere ? deps.sessions.queries(companyId, elsewhere.id) : undefined;
}

async function checkUnchecked(deps: AppDeps, companyId: number, listId: number): Promise<void> {
  const t = tenant(deps.db, companyId);
  let afterId = 0;
  for (;;) {
    const items = await t
      .selectFrom('contactListItems')
      .select(['contactListItems.id', 'contactListItems.number'])
      .where('contactListItems.contactListId', '=', listId)
      .where('contactListItems.isWhatsappValid', 'is', null)
      .where('contactListItems.id', '>', afterId)
      .orderBy('contactListItems.id')
      .limit(CHECK_BATCH)
      .execute();
    if (items.length === 0) return;
    const channel = await connectedChannel(deps, companyId);
    if (!channel) return;
    // The network call: no transaction is open here.
    const answers = await channel.checkNumbers(items.map((i) => i.number));
    const exists = new Map(answers.map((a) => [a.number, a.exists]));
    const answered = items.flatMap((item) => {
      const valid = exists.get(item.number);
      return valid === undefined ? [] : [{ ...item, valid: valid ? 1 : 0 }];
    });
    await write(deps, async (tx) => {
      // Only items still unchecked with the number asked: one edited meanwhile is asked again.
      const { rows } = answered.length
        ? await recordAnswers(tx.db, { companyId, ids: answered.map((a) => a.id), valids: answered.map((a) => a.valid), numbers: answered.map((a) => a.number), now: new Date().toISOString() })
        : { rows: [] };
      const checked = rows.map((r) => r.id);
      tx.effects.poke(companyId);
      if (checked.length) await emit(tx, change(companyId, 'ContactListItem', 'update', checked[0]!, { batch: checked, listId }));
    });
    afterId = items[items.length - 1]!.id;
  }
}

/** The channel's answers for a batch of items (`ids[i]` has `numbers[i]`, valid `valids[i]`), in one statement. */
const recordAnswers = prepare((db, p: { companyId: number; ids: number[]; valids: number[]; numbers: string[]; now: string }) => {
  const byId = <T>(values: T[], type: 'integer' | 'text') => valueById<T>('contactListItems.id', p.ids.map((id, i) => [id, values[i]]), type);
  return db
    .updateTable('contactListItems')
    .set({ isWhatsappValid: byId(p.valids, 'integer'), version: sql<number>`version + 1`, updatedAt: p.now })
    .where('contactListItems.companyId', '=', p.companyId)
    .where('contactListItems.id', 'in', p.ids)
    .where('contactListItems.isWhatsappValid', 'is', null)
    .where('contactListItems.number', '=', byId(p.numbers, 'text'))
    .returning('contactListItems.id');
});
