// A command is one file exporting defineCommand({...}): what it is for, examples for --help, its
// positional arguments, a zod options schema (flags are derived from it, see options.ts), a run()
// that returns data, and how to show that data to a person.
import { z } from 'zod';
import type { Ctx } from './context.ts';
import type { CliLanguage } from './lang.ts';
import type { Shown } from './present.ts';

export type ArgSpec = { name: string; description: string; optional?: boolean };

export type RunInput<S extends z.ZodObject> = { args: string[]; options: z.output<S> };

/** What show() gets: the run's input and the language of the run (money reads 1.234,56 in pt). */
export type ShowInput<S extends z.ZodObject> = RunInput<S> & { lang: CliLanguage };

export type CommandSpec<S extends z.ZodObject = z.ZodObject, D = unknown> = {
  description: string;
  examples: string[];
  args?: ArgSpec[];
  options: S;
  /** Commands that print no data (login, logout) say so; every other one gets --json. */
  noJson?: boolean;
  run(input: RunInput<S>, ctx: Ctx): Promise<D>;
  /** Nothing (undefined) when run() has already written what the user asked for (an export to stdout). */
  show?(data: D, input: ShowInput<S>): Shown | undefined;
};

export function defineCommand<S extends z.ZodObject, D>(spec: CommandSpec<S, D>): CommandSpec<S, D> {
  return spec;
}

export type Group = { description: string; commands: Record<string, CommandSpec<z.ZodObject, any>> }; // eslint-disable-line @typescript-eslint/no-explicit-any

export const jsonOption = z.boolean().default(false).describe('print JSON (for scripts) instead of a table');
