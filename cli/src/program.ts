// The commander program: every command file registered under its group, flags derived from the
// zod schemas, errors routed to exit codes by cli.ts.
import { Command, InvalidArgumentError, Option } from 'commander';
import type { z } from 'zod';
import pkg from '../package.json' with { type: 'json' };
import { createContext } from './context.ts';
import { jsonOption, type CommandSpec, type Group } from './define.ts';
import { UsageError } from './errors.ts';
import type { Io } from './io.ts';
import { CLI_LANGUAGES, toLanguage } from './lang.ts';
import { firstFlagProblem, optionsFromSchema } from './options.ts';
import { emit } from './output.ts';
import { commandTree, invokedName } from './commands/index.ts';

/** The program for `argv`: every command named, only the invoked one loaded (its flags, its run). */
export async function buildProgram(io: Io, argv: string[]): Promise<Command> {
  const program = new Command('zapdesk')
    .description('zapdesk from the terminal: tenants and plans, users, connections, contacts, tickets and the simulator.')
    .version(pkg.version, '-V, --version')
    .addOption(new Option('--lang <lang>', 'language of messages: en, pt or es (default: saved, then LANG)').argParser(parseLanguage))
    .exitOverride()
    .showHelpAfterError('(add --help for usage and examples)')
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
    })
    .addHelpText(
      'after',
      ['', 'Start with:', '  $ zapdesk login --url http://localhost:8080 --email admin@zapdesk.local', '  $ zapdesk companies list', '', 'Environment: ZAPDESK_URL, ZAPDESK_TOKEN (an access token), XDG_CONFIG_HOME.'].join('\n'),
    );
  const invoked = invokedName(argv);
  for (const [name, lazy] of Object.entries(commandTree)) {
    if (name !== invoked) {
      program.command(name).description(lazy.description);
      continue;
    }
    const entry = await lazy.load();
    if ('run' in entry) addCommand(program, name, entry, io);
    else addGroup(program, name, entry, io);
  }
  return program;
}

function addGroup(parent: Command, name: string, group: Group, io: Io) {
  const cmd = parent.command(name).description(group.description);
  for (const [sub, spec] of Object.entries(group.commands)) addCommand(cmd, sub, spec, io);
}

function addCommand(parent: Command, name: string, spec: CommandSpec<z.ZodObject, unknown>, io: Io) {
  const schema = spec.noJson ? spec.options : spec.options.extend({ json: jsonOption });
  const cmd = parent.command(name).description(spec.description);
  for (const arg of spec.args ?? []) cmd.argument(arg.optional ? `[${arg.name}]` : `<${arg.name}>`, arg.description);
  for (const option of optionsFromSchema(schema)) cmd.addOption(option);
  cmd.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}`);
  cmd.action(async (...params: unknown[]) => {
    const command = params.at(-1) as Command;
    const args = command.args.slice(0, spec.args?.length ?? 0);
    const raw = command.opts();
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw new UsageError(`${firstFlagProblem(parsed.error, raw)} (see ${commandPath(command)} --help)`);
    const ctx = createContext(io, command.optsWithGlobals<{ lang?: string }>());
    const input = { args, options: parsed.data };
    const data = await Promise.resolve()
      .then(() => spec.run(input, ctx))
      .catch((err: unknown) => {
      throw err instanceof UsageError ? new UsageError(`${err.message} (see ${commandPath(command)} --help)`) : err;
    });
    // A command with its own --json (tickets watch: one object per change) has printed it already.
    const json = !spec.noJson && Boolean((parsed.data as { json?: boolean }).json);
    await emit(ctx, data, spec.show?.(data, { ...input, lang: ctx.lang }), json);
  });
}

/** `--lang pt`, `--lang pt_BR`; a language the product does not speak is refused, not ignored. */
function parseLanguage(value: string): string {
  const lang = toLanguage(value);
  if (!lang || !/^[a-z]{2}([-_][a-z]{2})?$/i.test(value.trim())) throw new InvalidArgumentError(`Use ${CLI_LANGUAGES.join(', ')}.`);
  return lang;
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
