// The server half of every Replicache mutator (the client half is sync/src/mutators.ts): the
// arguments schema is the shared one, and `run` calls the authoritative service with the push's
// transaction (`tx`, one per mutation, push.ts), exactly as a REST route would with its own. The
// client's optimistic result is never read; effects (pokes, sends) run after that mutation commits.
// Adding a mutator: its schema and client half in sync/src/mutators.ts, its `run` here; the
// type below fails to compile until both exist.
import { AppError, isCompanyAdmin, settingValueSchema, type PlanFeature } from '@zapdesk/sync';
import { mutatorArgs, type MutatorName } from '@zapdesk/sync/mutators';
import type { z } from 'zod';
import type { Actor } from '../context.ts';
import type { Tx } from '../db/write.ts';
import { parseWith } from '../http/validate.ts';
import { upsertSetting } from '../modules/settings/service.ts';
import { markTicketRead, resendMessage, sendAgentMessages } from '../modules/messages/service.ts';
import { getVisibleTicket } from '../modules/tickets/service.ts';
import { updateTicket } from '../modules/tickets/transitions.ts';
import { setLanguage, updateUser } from '../modules/users/service.ts';

export type MutatorContext = { tx: Tx; actor: Actor };

type ServerMutator<N extends MutatorName> = {
  args: (typeof mutatorArgs)[N];
  /**
   * The plan feature this mutation belongs to (schedules, internal chat, kanban…): push refuses it
   * with the plan gate's ERR_NO_PERMISSION, before `run`, when the company's plan lacks it.
   */
  plan?: PlanFeature;
  run(ctx: MutatorContext, args: z.output<(typeof mutatorArgs)[N]>): Promise<void>;
};

/** "My" mutators name the user only so the client can find its row; anyone else's id is refused. */
function assertSelf(actor: Actor, userId: number) {
  if (userId !== actor.userId) throw new AppError('ERR_NO_PERMISSION');
}

export const serverMutators: { [N in MutatorName]: ServerMutator<N> } = {
  updateSetting: {
    args: mutatorArgs.updateSetting,
    async run({ tx, actor }, { key, value }) {
      if (!isCompanyAdmin(actor)) throw new AppError('ERR_NO_PERMISSION');
      parseWith(settingValueSchema(key), { value });
      await upsertSetting(tx, actor.companyId, key, value);
    },
  },
  setMyLanguage: {
    args: mutatorArgs.setMyLanguage,
    async run({ tx, actor }, { userId, language }) {
      assertSelf(actor, userId);
      await setLanguage(tx, actor, language);
    },
  },
  updateMyName: {
    args: mutatorArgs.updateMyName,
    async run({ tx, actor }, { userId, name }) {
      assertSelf(actor, userId);
      await updateUser(tx, actor, actor.companyId, actor.userId, { name });
    },
  },
  acceptTicket: {
    args: mutatorArgs.acceptTicket,
    async run({ tx, actor }, { ticketId, userId }) {
      assertSelf(actor, userId);
      await updateTicket(tx, actor, ticketId, { status: 'open' });
    },
  },
  sendMessage: {
    args: mutatorArgs.sendMessage,
    async run({ tx, actor }, { ticketId, userId, body, quotedMsgId, quickMessageId, signMessage }) {
      assertSelf(actor, userId);
      await sendAgentMessages(tx, actor, ticketId, { body, quotedMsgId: quotedMsgId ?? undefined, signMessage, uploads: [], quickMessageId });
    },
  },
  markTicketRead: {
    args: mutatorArgs.markTicketRead,
    async run({ tx, actor }, { ticketId }) {
      const { row } = await getVisibleTicket(tx, actor, ticketId);
      // Only the holder's reading counts, as on GET /messages/{ticketId}: an admin peeking leaves it unread.
      if (row.userId === actor.userId) await markTicketRead(tx, row);
    },
  },
  resendMessage: {
    args: mutatorArgs.resendMessage,
    async run({ tx, actor }, { ticketId, messageId }) {
      await resendMessage(tx, actor, messageId, ticketId);
    },
  },
  resolveTicket: {
    args: mutatorArgs.resolveTicket,
    async run({ tx, actor }, { ticketId, userId, farewell }) {
      assertSelf(actor, userId);
      await updateTicket(tx, actor, ticketId, { status: 'closed', sendFarewell: farewell });
    },
  },
  returnTicket: {
    args: mutatorArgs.returnTicket,
    async run({ tx, actor }, { ticketId }) {
      await updateTicket(tx, actor, ticketId, { status: 'pending' });
    },
  },
  transferTicket: {
    args: mutatorArgs.transferTicket,
    async run({ tx, actor }, { ticketId, queueId, userId, whatsappId }) {
      await updateTicket(tx, actor, ticketId, { queueId, userId, whatsappId });
    },
  },
};
