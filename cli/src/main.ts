// Entry of the `zapdesk` bin (bin/zapdesk.js registers tsx and imports this file).
import { runCli } from './cli.ts';
import { processIo } from './io.ts';

process.exitCode = await runCli(process.argv.slice(2), processIo());
