// The server half of every Replicache mutator (the client half is sync/src/mutators.ts): the
// arguments schema is the shared one, and `run` calls the authoritative service inside the push's
// transaction (`db`), exactly as a REST route would. The client's optimistic result is never read.
// Adding a mutator: its schema and client half in sync/src/mutators.ts, its `run` here; the
// type below fails to compile until both exist.
import { AppError, settingValueSchema } from '@zapdesk/sync';
import { sql } from 'kysely';
import { mutatorArgs, type MutatorName } from '@zapdesk/sync/mutators';
import type { z } from 'zod';
import type { AppDeps, Actor } from '../context.ts';
import type { Database } from '../db/database.ts';
import { parseWith } from '../http/validate.ts';
import { upsertSetting } from '../modules/settings/service.ts';
import { getWritableTicket, sendAgentMessages } from '../modules/messages/service.ts';
import { updateTicket } from '../modules/tickets/transitions.ts';
import { setLanguage, updateUser } from '../modules/users/service.ts';

export type MutatorContext = { deps: AppDeps; db: Database; actor: Actor };

type ServerMutator<N extends MutatorName> = {
  args: (typeof mutatorArgs)[N];
  run(ctx: MutatorContext, args: z.output<(typeof mutatorArgs)[N]>): Promise<void>;
};

const isAdmin = (actor: Actor) => actor.super || actor.profile === 'admin';

/** "My" mutators name the user only so the client can find its row; anyone else's id is refused. */
function assertSelf(actor: Actor, userId: number) {
  if (userId !== actor.userId) throw new AppError('ERR_NO_PERMISSION');
}

let savepoints = 0;

/**
 * The ticket and message services open their own transaction (`deps.db.transaction()`), as their
 * REST routes need. Inside a push they join the push's transaction instead, each in a savepoint,
 * so a refusal they recover from (a unique violation they turn into ERR_OTHER_OPEN_TICKET) leaves
 * the push's transaction usable on PostgreSQL too.
 */
function joinPush(ctx: MutatorContext): AppDeps {
  const trx = ctx.db;
  const joined: Database = new Proxy(trx, {
    get(target, prop, receiver) {
      if (prop !== 'transaction') {
        // Kysely keeps its state in private fields: its methods must run on the real object.
        const value = Reflect.get(target, prop, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      }
      return () => ({
        async execute<T>(fn: (db: Database) => Promise<T>): Promise<T> {
          const name = sql.id(`mutator_${++savepoints}`);
          await sql`savepoint ${name}`.execute(target);
          try {
            const result = await fn(joined);
            await sql`release savepoint ${name}`.execute(target);
            return result;
          } catch (err) {
            await sql`rollback to savepoint ${name}`.execute(target);
            throw err;
          }
        },
      });
    },
  });
  return { ...ctx.deps, db: joined };
}

export const serverMutators: { [N in MutatorName]: ServerMutator<N> } = {
  updateSetting: {
    args: mutatorArgs.updateSetting,
    async run({ db, actor }, { key, value }) {
      if (!isAdmin(actor)) throw new AppError('ERR_NO_PERMISSION');
      parseWith(settingValueSchema(key), { value });
      await upsertSetting(db, actor.companyId, key, value);
    },
  },
  setMyLanguage: {
    args: mutatorArgs.setMyLanguage,
    async run({ db, actor }, { userId, language }) {
      assertSelf(actor, userId);
      await setLanguage(db, actor, language);
    },
  },
  updateMyName: {
    args: mutatorArgs.updateMyName,
    async run({ db, actor }, { userId, name }) {
      assertSelf(actor, userId);
      await updateUser(db, actor, actor.companyId, actor.userId, { name }, undefined);
    },
  },
  acceptTicket: {
    args: mutatorArgs.acceptTicket,
    async run(ctx, { ticketId, userId }) {
      assertSelf(ctx.actor, userId);
      await updateTicket(joinPush(ctx), ctx.actor, ticketId, { status: 'open' });
    },
  },
  sendMessage: {
    args: mutatorArgs.sendMessage,
    async run(ctx, { ticketId, userId, body, quotedMsgId, signMessage }) {
      assertSelf(ctx.actor, userId);
      const deps = joinPush(ctx);
      const ticket = await getWritableTicket(deps, ctx.actor, ticketId);
      await sendAgentMessages(deps, ctx.actor, ticket, { body, quotedMsgId: quotedMsgId ?? undefined, signMessage, uploads: [] });
    },
  },
  resolveTicket: {
    args: mutatorArgs.resolveTicket,
    async run(ctx, { ticketId, userId, farewell }) {
      assertSelf(ctx.actor, userId);
      await updateTicket(joinPush(ctx), ctx.actor, ticketId, { status: 'closed', sendFarewell: farewell });
    },
  },
  returnTicket: {
    args: mutatorArgs.returnTicket,
    async run(ctx, { ticketId }) {
      await updateTicket(joinPush(ctx), ctx.actor, ticketId, { status: 'pending' });
    },
  },
  transferTicket: {
    args: mutatorArgs.transferTicket,
    async run(ctx, { ticketId, queueId, userId, whatsappId }) {
      await updateTicket(joinPush(ctx), ctx.actor, ticketId, { queueId, userId, whatsappId });
    },
  },
};
