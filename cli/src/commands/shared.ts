// Pieces the resource commands share: the id argument, the delete command, money and flag text.
import { formatCents, reaisToCents } from '@zapdesk/sync';
import { z } from 'zod';
import type { ArgSpec } from '../define.ts';
import { defineCommand } from '../define.ts';
import { confirmDeletion } from '../confirm.ts';
import type { Ctx } from '../context.ts';
import { parseId } from '../input.ts';
import type { CliLanguage } from '../lang.ts';

export const idArg = (noun: string): ArgSpec => ({ name: 'id', description: `${noun} id` });

export const yesOption = z.boolean().default(false).describe('delete without asking (needed when not on a terminal)');

/** What a confirmation names: `company 5 (Acme Ltda)`, read from the server when it answers. */
export async function describeTarget(ctx: Ctx, noun: string, id: number, get: () => Promise<{ name?: string; title?: string }>): Promise<string> {
  if (!ctx.interactive) return `${noun} ${id}`;
  const found = await get().catch(() => undefined);
  const label = found?.name ?? found?.title;
  return label ? `${noun} ${id} (${label})` : `${noun} ${id}`;
}

/**
 * `X delete ID`: the same shape for every resource. It asks first on a terminal and needs --yes
 * elsewhere; the server refuses what may not go (in use, self).
 */
export function deleteCommand(noun: string, path: (id: number) => string, extra: { examples: string[] }) {
  return defineCommand({
    description: `Delete a ${noun} (asks first; --yes in scripts)`,
    examples: extra.examples,
    args: [idArg(noun)],
    options: z.object({ yes: yesOption }),
    async run({ args, options }, ctx) {
      const id = parseId(args[0], noun);
      const api = ctx.api();
      const what = await describeTarget(ctx, noun, id, () => api.get(path(id)));
      await confirmDeletion(ctx, what, options.yes);
      await api.delete(path(id));
      return { id, deleted: true };
    },
    show: ({ id }) => ({ kind: 'text', text: `Deleted ${noun} ${id}.` }),
  });
}

/** Reais (the wire's `value`) as the web shows them in that language: R$ 1,234.56 in en, R$ 1.234,56 in pt and es. */
export const reais = (value: number | null | undefined, lang: CliLanguage) => (value === null || value === undefined ? '-' : formatCents(reaisToCents(value), lang));
