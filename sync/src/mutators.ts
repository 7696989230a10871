// Replicache mutators: the optimistic client half. Each mutator's arguments have one zod schema in
// `mutatorArgs`; the server parses every pushed mutation with the same schema and runs the
// authoritative service (server/src/sync/mutators.ts), so what a mutator writes locally is only a
// guess that the next pull confirms or replaces.
import type { WriteTransaction } from 'replicache';
import { z } from 'zod';
import { personNameSchema } from './domain/common.ts';
import { settingKeySchema } from './domain/setting.ts';
import { languageSchema } from './domain/user.ts';
import { syncKey, type SyncedSetting, type SyncedUser } from './keys.ts';

export const mutatorArgs = {
  /** PUT /settings/{key} as a mutation (admins). */
  updateSetting: z.object({ key: settingKeySchema, value: z.string().max(100) }),
  /** The signed-in user's interface language. */
  setMyLanguage: z.object({ userId: z.number().int().positive(), language: languageSchema }),
  /** The signed-in user's display name. */
  updateMyName: z.object({ userId: z.number().int().positive(), name: personNameSchema }),
};

export type MutatorName = keyof typeof mutatorArgs;
export type MutatorArgs<N extends MutatorName> = z.input<(typeof mutatorArgs)[N]>;

async function patchUser(tx: WriteTransaction, userId: number, patch: Partial<SyncedUser>) {
  const key = syncKey('user', userId);
  const user = (await tx.get(key)) as SyncedUser | undefined;
  if (user) await tx.set(key, { ...user, ...patch });
}

export const mutators = {
  async updateSetting(tx: WriteTransaction, args: MutatorArgs<'updateSetting'>) {
    const { key, value } = mutatorArgs.updateSetting.parse(args);
    await tx.set(syncKey('setting', key), { key, value } satisfies SyncedSetting);
  },
  async setMyLanguage(tx: WriteTransaction, args: MutatorArgs<'setMyLanguage'>) {
    const { userId, language } = mutatorArgs.setMyLanguage.parse(args);
    await patchUser(tx, userId, { language });
  },
  async updateMyName(tx: WriteTransaction, args: MutatorArgs<'updateMyName'>) {
    const { userId, name } = mutatorArgs.updateMyName.parse(args);
    await patchUser(tx, userId, { name });
  },
} satisfies { [N in MutatorName]: (tx: WriteTransaction, args: MutatorArgs<N>) => Promise<void> };

export type M = typeof mutators;
