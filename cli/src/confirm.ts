// Asking before a deletion: on a terminal the person answers y or n; a script (no terminal to ask
// on) must say --yes, so that a command pasted into a pipeline never deletes by surprise.
import type { Ctx } from './context.ts';
import { UsageError, UserError } from './errors.ts';
import { promptLine } from './prompt.ts';

/** Resolves when the deletion of `what` may go ahead; throws, having deleted nothing, otherwise. */
export async function confirmDeletion(ctx: Ctx, what: string, yes: boolean): Promise<void> {
  if (yes) return;
  if (!ctx.interactive || !ctx.io.stdin.isTTY) {
    throw new UsageError(`not deleting ${what} without --yes: there is no terminal to ask for confirmation (add --yes in scripts)`);
  }
  const answer = await promptLine(ctx.io, `Delete ${what}? This cannot be undone. [y/N] `);
  if (!/^y(es)?$/i.test(answer)) throw new UserError(`cancelled: ${what} was not deleted`);
}
