// Runs one invocation and returns its exit code: 0 ok, 1 user error, 2 usage (DESIGN §9).
import { CommanderError, type Command } from 'commander';
import { readConfig } from './config.ts';
import { describeFailure, EXIT_OK, EXIT_USAGE } from './errors.ts';
import type { Io } from './io.ts';
import { resolveLanguage } from './lang.ts';
import { writeLine } from './output.ts';
import { buildProgram } from './program.ts';
import { explainRefusedSession } from './session.ts';

// Commander's own exits that are not failures.
const CLEAN_EXITS = new Set(['commander.helpDisplayed', 'commander.version']);

export async function runCli(argv: string[], io: Io): Promise<number> {
  const program = await buildProgram(io, argv);
  // As it was before the command: a session the server refuses is forgotten at once.
  const saved = readConfig(io.env);
  try {
    // Commander answers a help request before it looks the command up: `zapdesk nosuch --help`
    // showed the nearest help with exit 0. Without the request, it says the command does not exist.
    await program.parseAsync(asksHelpOfUnknownCommand(program, argv) ? withoutHelpRequest(argv) : argv, { from: 'user' });
    return EXIT_OK;
  } catch (err) {
    // Commander has already printed its message (and the hint of showHelpAfterError).
    // `help <command>` ends as 'commander.help' with exit code 0; a group run bare, with 1.
    if (err instanceof CommanderError) return CLEAN_EXITS.has(err.code) || (err.code === 'commander.help' && err.exitCode === 0) ? EXIT_OK : EXIT_USAGE;
    const lang = resolveLanguage(program.opts<{ lang?: string }>().lang, saved, io.env);
    const failure = describeFailure(explainRefusedSession(err, io.env, saved, lang), lang);
    writeLine(io.stderr, failure.line);
    return failure.exitCode;
  }
}

const HELP_FLAGS = new Set(['--help', '-h']);

/** `zapdesk nosuch --help`, `zapdesk plans nosuch -h`, `zapdesk help nosuch`: a help request for a command that does not exist. */
function asksHelpOfUnknownCommand(program: Command, argv: string[]): boolean {
  if (!argv.some((a) => HELP_FLAGS.has(a) || a === 'help')) return false;
  let command = program;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--lang') i++;
    if (word.startsWith('-') || (word === 'help' && command === program)) continue;
    // Past a command without subcommands the words are its arguments. Only the invoked group is
    // loaded with its subcommands (program.ts), and it is the one this walk follows.
    if (command.commands.length === 0) return false;
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) return true;
    command = sub;
  }
  return false;
}

function withoutHelpRequest(argv: string[]): string[] {
  const firstWord = argv.findIndex((a, i) => !a.startsWith('-') && argv[i - 1] !== '--lang');
  return argv.filter((a, i) => !HELP_FLAGS.has(a) && !(i === firstWord && a === 'help'));
}
