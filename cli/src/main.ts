// Entry of the `zapdesk` bin (bin/zapdesk.js registers tsx and imports this file).
import { runCli } from './cli.ts';
import { processIo } from './io.ts';

// A reader that stopped early (`zapdesk contacts list --all | head -3`) closed the pipe: what is
// left to print has nobody to read it, which is not a failure. Without a listener the write's
// EPIPE is an unhandled 'error' event: a stack trace and exit 1.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(0);
  });
}

process.exitCode = await runCli(process.argv.slice(2), processIo());
