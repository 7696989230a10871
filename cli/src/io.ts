// The process's streams behind one type, so tests can render to fakes and the CLI can ask "is a
// person watching?" in one place.
import type { Readable, Writable } from 'node:stream';
import type { Env } from './config.ts';

export type Io = {
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable;
  stdin: Readable & { isTTY?: boolean; setRawMode?: (on: boolean) => unknown };
  env: Env;
};

export function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

/** Ink views and prompts only when a person is at a terminal; scripts get plain lines. */
export function isInteractive(io: Io): boolean {
  return Boolean(io.stdout.isTTY) && io.env.TERM !== 'dumb';
}
