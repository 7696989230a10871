// The server half of every Replicache mutator (the client half is sync/src/mutators.ts): the
// arguments schema is the shared one, and `run` calls the authoritative service inside the push's
// transaction (`db`), exactly as a REST route would. The client's optimistic result is never read.
// Adding a mutator: its schema and client half in sync/src/mutators.ts, its `run` here; the
// type below fails to compile until both exist.
import { AppError, settingValueSchema } from '@zapdesk/sync';
import { mutatorArgs, type MutatorName } from '@zapdesk/sync/mutators';
import type { z } from 'zod';
import type { AppDeps, Actor } from '../context.ts';
import type { Database } from '../db/database.ts';
import { parseWith } from '../http/validate.ts';
import { upsertSetting } from '../modules/settings/service.ts';
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
};
