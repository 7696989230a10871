// Runs one invocation and returns its exit code: 0 ok, 1 user error, 2 usage (DESIGN §9).
import { CommanderError } from 'commander';
import { readConfig } from './config.ts';
import { describeFailure, EXIT_OK, EXIT_USAGE } from './errors.ts';
import type { Io } from './io.ts';
import { resolveLanguage } from './lang.ts';
import { writeLine } from './output.ts';
import { buildProgram } from './program.ts';

// Commander's own exits that are not failures.
const CLEAN_EXITS = new Set(['commander.helpDisplayed', 'commander.version']);

export async function runCli(argv: string[], io: Io): Promise<number> {
  const program = await buildProgram(io, argv);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (err) {
    // Commander has already printed its message (and the hint of showHelpAfterError).
    // `help <command>` ends as 'commander.help' with exit code 0; a group run bare, with 1.
    if (err instanceof CommanderError) return CLEAN_EXITS.has(err.code) || (err.code === 'commander.help' && err.exitCode === 0) ? EXIT_OK : EXIT_USAGE;
    const lang = resolveLanguage(program.opts<{ lang?: string }>().lang, readConfig(io.env), io.env);
    const failure = describeFailure(err, lang);
    writeLine(io.stderr, failure.line);
    return failure.exitCode;
  }
}
