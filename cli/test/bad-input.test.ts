// Every command with bad arguments and bad flag values, run in-process (runCli, as main.ts runs it)
// against a real server, as the super-admin and as a company's admin. Each run ends with exit 2 (a
// usage error) or 1 (the server refused, a file is missing) and says on stderr what is wrong, or
// does what it was asked (a contact list named "abc" is a list). None
// prints a stack trace, `undefined`, `NaN` or `[object Object]`, reports an internal error, or hangs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { Command, Option } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.ts';
import { commandTree } from '../src/commands/index.ts';
import type { CommandEntry } from '../src/commands/index.ts';
import { buildProgram } from '../src/program.ts';
import { ADMIN, startTestServer, tempConfigHome } from './helpers.ts';
import type { RunningServer } from '../../server/src/server.ts';

type Run = { args: string[]; code: number; stdout: string; stderr: string };

const RUN_TIMEOUT_MS = 15_000;

/** `zapdesk ...args` in this process, with its own streams and config home; stdin holds `input` and ends. */
async function cli(home: string, args: string[], input = ''): Promise<Run> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  stdin.end(input);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`zapdesk ${args.join(' ')}: still running after ${RUN_TIMEOUT_MS} ms`)), RUN_TIMEOUT_MS);
  });
  try {
    const code = await Promise.race([runCli(args, { stdout, stderr, stdin, env: { HOME: home, XDG_CONFIG_HOME: home, LANG: 'C.UTF-8', NO_COLOR: '1' } }), timeout]);
    return { args, code, stdout: out, stderr: err };
  } finally {
    clearTimeout(timer);
  }
}

/** What no run may print, whatever it was given. */
const LEAKS: [RegExp, string][] = [
  [/^\s+at .+\(?.+:\d+:\d+\)?$/m, 'a stack trace'],
  [/\bundefined\b/, '`undefined`'],
  [/\bNaN\b/, '`NaN`'],
  [/\[object Object\]/, '`[object Object]`'],
  [/ERR_INTERNAL|internal server error/i, 'an internal error'],
];

function expectClearOutcome(run: Run) {
  const label = `zapdesk ${run.args.map((a) => (a.length > 40 ? `${a.slice(0, 12)}…(${a.length})` : JSON.stringify(a))).join(' ')}`;
  const printed = `${run.stdout}\n${run.stderr}`;
  for (const [pattern, what] of LEAKS) expect(pattern.test(printed), `${label} printed ${what}:\n${printed}`).toBe(false);
  expect([0, 1, 2], `${label} exited ${run.code}:\n${printed}`).toContain(run.code);
  if (run.code !== 0) expect(run.stderr.trim(), `${label} failed without saying why`).not.toBe('');
}

// Values for an id, a file or a name: not a number, not positive, not whole, one that names nothing, empty.
const BAD_ARGS = ['abc', '0', '-1', '1.5', '99999999', ''];
// Values for a flag: not a number, negative, empty, far too long, broken JSON.
const BAD_VALUES = ['abc', '-1', '', 'x'.repeat(3_000), '{"a":'];
// An id that names nothing: a flag's value is checked with the command's other arguments pointing nowhere.
const NOWHERE = '99999999';

/**
 * Flags whose good values would do more than a sweep should: write a file in the working
 * directory, or (`tickets watch`) start watching until stopped.
 */
const SKIP_VALUES = new Set(['contacts export --output', 'contacts import --errors', 'contact-lists import --errors', 'tickets watch *']);

type Target = { path: string[]; args: { name: string; optional: boolean }[]; valueFlags: string[] };

async function targets(): Promise<Target[]> {
  const out: Target[] = [];
  for (const [group, lazy] of Object.entries(commandTree)) {
    const entry: CommandEntry = await lazy.load();
    const paths = 'commands' in entry ? Object.keys(entry.commands).map((sub) => [group, sub]) : [[group]];
    for (const p of paths) {
      // The flags as commander knows them (derived from the command's schema by program.ts).
      const program = await buildProgram({ stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), env: {} }, p);
      let command: Command = program;
      for (const word of p) command = command.commands.find((c) => c.name() === word)!;
      const spec = 'commands' in entry ? entry.commands[p[1]!]! : entry;
      const valueFlags = command.options.filter((o: Option) => o.required || o.optional).map((o: Option) => o.long!);
      out.push({ path: p, args: (spec.args ?? []).map((a) => ({ name: a.name, optional: a.optional === true })), valueFlags });
    }
  }
  return out;
}

/** The command lines of the sweep for one command. */
function sweepOf(target: Target): string[][] {
  const key = target.path.join(' ');
  const filled = target.args.filter((a) => !a.optional).map(() => NOWHERE);
  const lines: string[][] = [[...target.path, ...filled, '--nope']];
  if (filled.length > 0) lines.push([...target.path]);
  target.args.forEach((arg, i) => {
    if (arg.optional) return;
    for (const bad of BAD_ARGS) lines.push([...target.path, ...filled.map((v, j) => (j === i ? bad : v))]);
  });
  if (SKIP_VALUES.has(`${target.path[0]} *`) || SKIP_VALUES.has(`${key} *`)) return lines;
  for (const flag of target.valueFlags) {
    if (SKIP_VALUES.has(`${key} ${flag}`) || flag === '--lang') continue;
    for (const bad of BAD_VALUES) lines.push([...target.path, ...filled, `${flag}=${bad}`]);
  }
  return lines;
}

describe('every command with bad input', { timeout: 600_000 }, () => {
  let server: RunningServer;
  const superHome = tempConfigHome();
  const adminHome = tempConfigHome();
  let all: Target[];

  beforeAll(async () => {
    server = await startTestServer({ simulator: true });
    all = await targets();
    const login = async (home: string, email: string, password: string) => {
      const run = await cli(home, ['login', '--url', server.apiUrl, '--email', email, '--password-stdin'], password);
      expect(run.code, run.stderr).toBe(0);
    };
    await login(superHome, ADMIN.email, ADMIN.password);
    const plan = await cli(superHome, ['plans', 'create', '--name', 'Sweep', '--users', '5', '--connections', '2', '--queues', '3', '--value', '10', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    const planId = String((JSON.parse(plan.stdout) as { id: number }).id);
    const company = await cli(superHome, ['companies', 'create', '--name', 'Sweep Ltda', '--email', 'sweep-admin@example.test', '--plan-id', planId, '--admin-password-stdin', '--json'], 'Sweep-Pass-1');
    expect(company.code, company.stderr).toBe(0);
    await login(adminHome, 'sweep-admin@example.test', 'Sweep-Pass-1');
  });
  afterAll(async () => server?.close());

  it('lists the commands it sweeps: every one of them, with its arguments and value flags', () => {
    expect(all.length).toBeGreaterThan(60);
    expect(all.find((t) => t.path.join(' ') === 'users update')).toMatchObject({ args: [{ name: 'id', optional: false }] });
    expect(all.find((t) => t.path.join(' ') === 'plans create')!.valueFlags).toEqual(expect.arrayContaining(['--name', '--users', '--value']));
  });

  it('words what the sweep found: a number flag given text, a number in a query given text, a file name far too long', async () => {
    expect(await cli(superHome, ['invoices', 'list', '--company', 'abc'])).toMatchObject({ code: 2, stderr: "error: --company must be a number (got 'abc') (see zapdesk invoices list --help)\n" });
    // Before: "received NaN" in both, zod's account of what the coercion made of the text.
    expect(await cli(superHome, ['connections', 'list', '--company-id', 'abc'])).toMatchObject({ code: 1, stderr: 'error: Some fields are invalid. (companyId: Invalid input: expected a number)\n' });
    const long = 'x'.repeat(3_000);
    expect(await cli(superHome, ['plans', 'create', '--from-file', long])).toMatchObject({ code: 1, stderr: `error: cannot read ${'x'.repeat(60)}… (3000 characters): the name is too long\n` });
  });

  for (const [who, home] of [
    ['the super-admin', superHome],
    ['a company admin', adminHome],
  ] as const) {
    it(`as ${who}: each ends with a clear outcome`, async () => {
      let runs = 0;
      for (const target of all) {
        // Logging in or out with bad input must not end the session the rest of the sweep runs in.
        const scratch = target.path[0] === 'login' || target.path[0] === 'logout' ? mkdtempSync(path.join(tmpdir(), 'zapdesk-cli-sweep-')) : home;
        for (const line of sweepOf(target)) {
          expectClearOutcome(await cli(scratch, line));
          runs++;
        }
      }
      expect(runs).toBeGreaterThan(500);
      // The session it ran in still works.
      const whoami = await cli(home, ['whoami']);
      expect(whoami.code, whoami.stderr).toBe(0);
    });
  }
});
