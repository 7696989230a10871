// The business rules of prompts (spec/03 §5, §9; issue 16). Writes take the route's transaction
// (`Tx`, DESIGN §12) and the Actor and poke the company after the commit (the list is REST that
// reads itself again on a poke, DESIGN §4). The API key is sealed before it reaches the database and
// kept when a PUT does not bring a new one (left out, empty, or the mask the form was shown).
import { AppError, isNewSecret, SET_SECTOR_MESSAGE, type Prompt, type PromptCreateInput, type PromptUpdateInput } from '@zapdesk/sync';
import { change, emit } from '../../events/emit.ts';
import type { Updateable } from 'kysely';
import type { SecretBox } from '../../auth/secret-box.ts';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import type { Prompts } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';
import { findForeignIds, invalid } from '../whatsapps/access.ts';
import { toPromptDto } from './dto.ts';
import { findPromptRow, findPrompts } from './queries.ts';

export const promptNotFound = () => new AppError('ERR_NOT_FOUND', 'Prompt not found.');

export async function listPrompts(db: Database, secrets: SecretBox, actor: Actor): Promise<Prompt[]> {
  return (await findPrompts(db, actor.companyId)).map((r) => toPromptDto(r, secrets));
}

export async function getPrompt(db: Database, secrets: SecretBox, actor: Actor, id: number): Promise<Prompt> {
  const row = await findPromptRow(db, actor.companyId, id);
  if (!row) throw promptNotFound();
  return toPromptDto(row, secrets);
}

/** The queue (the spec's sector) must be one of the company's. */
async function assertOwnQueue(db: Database, companyId: number, queueId: number | undefined) {
  if (queueId === undefined) throw invalid('queueId', SET_SECTOR_MESSAGE);
  if ((await findForeignIds(db, companyId, 'queues', [queueId])).length > 0) throw invalid('queueId', `No queue ${queueId} in this company`);
}

export async function createPrompt(tx: Tx, secrets: SecretBox, actor: Actor, input: PromptCreateInput): Promise<Prompt> {
  await assertOwnQueue(tx.db, actor.companyId, input.queueId);
  const row = await tenant(tx.db, actor.companyId)
    .insertInto('prompts', {
      name: input.name,
      prompt: input.prompt,
      model: input.model,
      maxTokens: input.maxTokens,
      temperature: input.temperature,
      maxMessages: input.maxMessages,
      apiKeyEnc: secrets.seal(input.apiKey),
      queueId: input.queueId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'prompt', 'create', row.id));
  return getPrompt(tx.db, secrets, actor, row.id);
}

export async function updatePrompt(tx: Tx, secrets: SecretBox, actor: Actor, id: number, input: PromptUpdateInput): Promise<Prompt> {
  if (!(await findPromptRow(tx.db, actor.companyId, id))) throw promptNotFound();
  if (input.queueId !== undefined) await assertOwnQueue(tx.db, actor.companyId, input.queueId);
  const values: Updateable<Prompts> = {};
  for (const key of ['name', 'prompt', 'model', 'maxTokens', 'temperature', 'maxMessages', 'queueId'] as const) {
    if (input[key] !== undefined) (values as Record<string, unknown>)[key] = input[key];
  }
  if (isNewSecret(input.apiKey)) values.apiKeyEnc = secrets.seal(input.apiKey.trim());
  await tenant(tx.db, actor.companyId)
    .updateTable('prompts')
    .set({ ...values, ...bumpVersion() })
    .where('prompts.id', '=', id)
    .execute();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'prompt', 'update', id));
  return getPrompt(tx.db, secrets, actor, id);
}

/**
 * The queues, connections and tickets that use the prompt lose it first, versions bumped (they are
 * synced; `prompt_id` has no foreign key to null them, and a silent null would be unseen by sync).
 */
/**
 * One slice of a prompt's delete, run before its write (the route repeats it in writes of their own:
 * db/slices.ts): up to `limit` of the tickets it answered let go of it, versions bumped; answers how
 * many. A ticket keeps its prompt after a hand-over or an automatic close, so they add up: in the
 * delete's one write, 50,000 of them held SQLite's writer 0.4 s. Another company's id matches none.
 */
export async function releasePromptSlice(tx: Tx, companyId: number, id: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  // The ids first (db/slices.ts says why).
  const ids = (await t.selectFrom('tickets').select('tickets.id').where('tickets.promptId', '=', id).limit(limit).execute()).map((r) => r.id);
  if (ids.length === 0) return 0;
  await t.updateTable('tickets').set({ promptId: null, ...bumpVersion() }).where('tickets.id', 'in', ids).execute();
  tx.effects.poke(companyId);
  return ids.length;
}

export async function deletePrompt(tx: Tx, actor: Actor, id: number): Promise<void> {
  const t = tenant(tx.db, actor.companyId);
  if (!(await findPromptRow(tx.db, actor.companyId, id))) throw promptNotFound();
  await t.updateTable('queues').set({ promptId: null, ...bumpVersion() }).where('queues.promptId', '=', id).execute();
  await t.updateTable('whatsapps').set({ promptId: null, ...bumpVersion() }).where('whatsapps.promptId', '=', id).execute();
  await t.updateTable('tickets').set({ promptId: null, ...bumpVersion() }).where('tickets.promptId', '=', id).execute();
  await t.deleteFrom('prompts').where('prompts.id', '=', id).execute();
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'prompt', 'delete', id));
}
