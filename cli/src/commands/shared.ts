// Pieces the resource commands share: the id argument, the delete command, money and flag text.
import { z } from 'zod';
import type { ArgSpec } from '../define.ts';
import { defineCommand } from '../define.ts';
import { parseId } from '../input.ts';

export const idArg = (noun: string): ArgSpec => ({ name: 'id', description: `${noun} id` });

/** `X delete ID`: the same shape for every resource; the server refuses what may not go (in use, self). */
export function deleteCommand(noun: string, path: (id: number) => string, extra: { examples: string[] }) {
  return defineCommand({
    description: `Delete a ${noun}`,
    examples: extra.examples,
    args: [idArg(noun)],
    options: z.object({}),
    async run({ args }, ctx) {
      const id = parseId(args[0], noun);
      await ctx.api().delete(path(id));
      return { id, deleted: true };
    },
    show: ({ id }) => ({ kind: 'text', text: `Deleted ${noun} ${id}.` }),
  });
}

export const reais = (value: number | null | undefined) => (value === null || value === undefined ? '-' : `R$ ${value.toFixed(2)}`);
